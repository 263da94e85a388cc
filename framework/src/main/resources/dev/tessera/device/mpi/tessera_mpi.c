/*
 * Tessera's shim over the system's MPI library, compiled with that library's own mpicc
 * the first time the mpi device is used (and cached per MPI installation), as mpi4py
 * does. It exists so that Java never has to know an MPI ABI: handles (pointers in Open
 * MPI, ints in MPICH), MPI_Status layouts and constants stay on this side, and Java
 * passes only integers, doubles and addresses.
 *
 * Conventions: every function returns an MPI error code (MPI_SUCCESS = 0). Handles live
 * in memory Java allocates, whose sizes tmpi_sizes() reports: a communicator handle is
 * passed as a pointer to an MPI_Comm, a request as a pointer to an MPI_Request, a
 * matched-probe message as a pointer to an MPI_Message. A status comes back as five
 * int64 values: source, tag, error, cancelled, byte count.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TMPI_STATUS_WORDS 5

static void status_out(MPI_Status *st, int64_t *out) {
    MPI_Count count = 0;
    int cancelled = 0;
    MPI_Get_elements_x(st, MPI_BYTE, &count);
    MPI_Test_cancelled(st, &cancelled);
    out[0] = st->MPI_SOURCE;
    out[1] = st->MPI_TAG;
    out[2] = st->MPI_ERROR;
    out[3] = cancelled;
    out[4] = (int64_t) count;
}

/* Sizes of the handle types and the values of the constants Java needs. */
void tmpi_sizes(int64_t *out) {
    out[0] = sizeof(MPI_Comm);
    out[1] = sizeof(MPI_Request);
    out[2] = sizeof(MPI_Message);
    out[3] = MPI_ANY_SOURCE;
    out[4] = MPI_ANY_TAG;
    out[5] = MPI_PROC_NULL;
    out[6] = MPI_ERR_TRUNCATE;
    out[7] = MPI_THREAD_SINGLE;
    out[8] = MPI_THREAD_FUNNELED;
    out[9] = MPI_THREAD_SERIALIZED;
    out[10] = MPI_THREAD_MULTIPLE;
    out[11] = MPI_VERSION;
    out[12] = MPI_SUBVERSION;
}

/* The library version string (MPI_Get_library_version works before MPI_Init). */
int tmpi_library_version(char *out, int capacity) {
    char buf[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    int rc = MPI_Get_library_version(buf, &len);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    if (len >= capacity) {
        len = capacity - 1;
    }
    memcpy(out, buf, (size_t) len);
    out[len] = 0;
    return MPI_SUCCESS;
}

/* The file the MPI library was loaded from (for `tessera info` and error messages). */
int tmpi_library_path(char *out, int capacity) {
    Dl_info info;
    if (dladdr((void *) &MPI_Init_thread, &info) == 0 || info.dli_fname == NULL) {
        out[0] = 0;
        return 1;
    }
    strncpy(out, info.dli_fname, (size_t) capacity - 1);
    out[capacity - 1] = 0;
    return 0;
}

int tmpi_initialized(int *flag) {
    return MPI_Initialized(flag);
}

/*
 * MPI_Init_thread, after two precautions for a JVM: the MPI library's own handlers for
 * SIGSEGV/SIGBUS/SIGFPE/SIGABRT (Open MPI's opal_signal) would replace the JVM's, which
 * uses SIGSEGV for null checks and safepoints, so they are turned off unless the user
 * set them; and libmpi is promoted to RTLD_GLOBAL so that the library's dlopen'ed
 * plugins resolve its symbols although the JVM loaded it privately.
 */
int tmpi_init(int required, int *provided, int *rank, int *size, int64_t *tag_ub) {
    Dl_info info;
    setenv("OMPI_MCA_opal_signal", "", 0);
    if (dladdr((void *) &MPI_Init_thread, &info) != 0 && info.dli_fname != NULL) {
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    }
    int rc = MPI_Init_thread(NULL, NULL, required, provided);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    int *ub = NULL;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &found);
    *tag_ub = found && ub != NULL ? *ub : 32767;
    return MPI_SUCCESS;
}

int tmpi_finalize(void) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    return finalized ? MPI_SUCCESS : MPI_Finalize();
}

int tmpi_abort(int code) {
    return MPI_Abort(MPI_COMM_WORLD, code);
}

int tmpi_error_string(int code, char *out, int capacity) {
    char buf[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(code, buf, &len) != MPI_SUCCESS) {
        len = 0;
    }
    if (len >= capacity) {
        len = capacity - 1;
    }
    memcpy(out, buf, (size_t) len);
    out[len] = 0;
    return MPI_SUCCESS;
}

int tmpi_processor_name(char *out, int capacity) {
    char buf[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    int rc = MPI_Get_processor_name(buf, &len);
    if (len >= capacity) {
        len = capacity - 1;
    }
    memcpy(out, buf, (size_t) len);
    out[len] = 0;
    return rc;
}

/* A duplicate of MPI_COMM_WORLD (which = 0) or MPI_COMM_SELF (which = 1). */
int tmpi_comm_dup_predefined(int which, MPI_Comm *out) {
    int rc = MPI_Comm_dup(which == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF, out);
    if (rc == MPI_SUCCESS) {
        MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
    }
    return rc;
}

/*
 * A communicator over the given world ranks, in that order; collective over those ranks
 * only (MPI_Comm_create_group), so disjoint groups can create theirs independently.
 */
int tmpi_comm_create(const int *world_ranks, int n, int tag, MPI_Comm *out) {
    MPI_Group world, group;
    int rc = MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    rc = MPI_Group_incl(world, n, world_ranks, &group);
    if (rc == MPI_SUCCESS) {
        rc = MPI_Comm_create_group(MPI_COMM_WORLD, group, tag, out);
        MPI_Group_free(&group);
    }
    MPI_Group_free(&world);
    if (rc == MPI_SUCCESS) {
        MPI_Comm_set_errhandler(*out, MPI_ERRORS_RETURN);
    }
    return rc;
}

int tmpi_comm_free(MPI_Comm *comm) {
    return MPI_Comm_free(comm);
}

static int check_bytes(int64_t bytes) {
    return bytes < 0 || bytes > INT_MAX ? MPI_ERR_COUNT : MPI_SUCCESS;
}

int tmpi_isend(void *buf, int64_t bytes, int dest, int tag, MPI_Comm *comm, int sync, MPI_Request *req) {
    int rc = check_bytes(bytes);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return sync ? MPI_Issend(buf, (int) bytes, MPI_BYTE, dest, tag, *comm, req)
                : MPI_Isend(buf, (int) bytes, MPI_BYTE, dest, tag, *comm, req);
}

/* A blocking standard send, for small eager messages (MPI buffers them: no wait for the receiver). */
int tmpi_send(void *buf, int64_t bytes, int dest, int tag, MPI_Comm *comm) {
    int rc = check_bytes(bytes);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return MPI_Send(buf, (int) bytes, MPI_BYTE, dest, tag, *comm);
}

int tmpi_irecv(void *buf, int64_t bytes, int source, int tag, MPI_Comm *comm, MPI_Request *req) {
    int rc = check_bytes(bytes);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return MPI_Irecv(buf, (int) bytes, MPI_BYTE, source, tag, *comm, req);
}

/* Tests a request; on completion *flag = 1 and the status is written. */
int tmpi_test(MPI_Request *req, int *flag, int64_t *status) {
    MPI_Status st;
    int rc = MPI_Test(req, flag, &st);
    if (*flag) {
        /* MPI_Test leaves MPI_ERROR undefined on success; the return code is the truth. */
        st.MPI_ERROR = rc;
        status_out(&st, status);
        return MPI_SUCCESS;
    }
    return rc;
}

/*
 * Tests n requests at once (the addresses of their handles in reqs); writes the indices
 * of completed ones to done and their statuses to statuses (5 words each); returns the
 * number done in *outcount.
 */
int tmpi_testsome(int n, MPI_Request **reqs, int *outcount, int *done, int64_t *statuses) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        int flag = 0;
        int rc = tmpi_test(reqs[i], &flag, statuses + (int64_t) k * TMPI_STATUS_WORDS);
        if (rc != MPI_SUCCESS) {
            *outcount = k;
            return rc;
        }
        if (flag) {
            done[k++] = i;
        }
    }
    *outcount = k;
    return MPI_SUCCESS;
}

int tmpi_cancel(MPI_Request *req) {
    return MPI_Cancel(req);
}

int tmpi_iprobe(int source, int tag, MPI_Comm *comm, int *flag, int64_t *status) {
    MPI_Status st;
    int rc = MPI_Iprobe(source, tag, *comm, flag, &st);
    if (rc == MPI_SUCCESS && *flag) {
        st.MPI_ERROR = MPI_SUCCESS;
        status_out(&st, status);
    }
    return rc;
}

int tmpi_improbe(int source, int tag, MPI_Comm *comm, int *flag, MPI_Message *msg, int64_t *status) {
    MPI_Status st;
    int rc = MPI_Improbe(source, tag, *comm, flag, msg, &st);
    if (rc == MPI_SUCCESS && *flag) {
        st.MPI_ERROR = MPI_SUCCESS;
        status_out(&st, status);
    }
    return rc;
}

int tmpi_imrecv(void *buf, int64_t bytes, MPI_Message *msg, MPI_Request *req) {
    int rc = check_bytes(bytes);
    if (rc != MPI_SUCCESS) {
        return rc;
    }
    return MPI_Imrecv(buf, (int) bytes, MPI_BYTE, msg, req);
}

/* ------------------------------------------------------------ native collectives */

/* Element type and operation codes: dev.tessera.device.WireCodes's TYPE_* and OP_* (a test
   compares the two lists, so keep the names and numbers the same on both sides). */
#define TESSERA_TYPE_BYTE 0
#define TESSERA_TYPE_BOOLEAN 1
#define TESSERA_TYPE_CHAR 2
#define TESSERA_TYPE_SHORT 3
#define TESSERA_TYPE_INT 4
#define TESSERA_TYPE_LONG 5
#define TESSERA_TYPE_FLOAT 6
#define TESSERA_TYPE_DOUBLE 7
#define TESSERA_TYPE_OBJECT 8
#define TESSERA_OP_SUM 0
#define TESSERA_OP_PROD 1
#define TESSERA_OP_MIN 2
#define TESSERA_OP_MAX 3
#define TESSERA_OP_LAND 4
#define TESSERA_OP_LOR 5
#define TESSERA_OP_LXOR 6
#define TESSERA_OP_BAND 7
#define TESSERA_OP_BOR 8
#define TESSERA_OP_BXOR 9

static MPI_Datatype type_of(int code) {
    switch (code) {
        case TESSERA_TYPE_BYTE: return MPI_INT8_T;
        case TESSERA_TYPE_BOOLEAN: return MPI_C_BOOL;      /* one byte 0/1 */
        case TESSERA_TYPE_CHAR: return MPI_UINT16_T;       /* Java char: UTF-16 code unit */
        case TESSERA_TYPE_SHORT: return MPI_INT16_T;
        case TESSERA_TYPE_INT: return MPI_INT32_T;
        case TESSERA_TYPE_LONG: return MPI_INT64_T;
        case TESSERA_TYPE_FLOAT: return MPI_FLOAT;
        case TESSERA_TYPE_DOUBLE: return MPI_DOUBLE;
        default: return MPI_DATATYPE_NULL;              /* OBJECT and unknown codes */
    }
}

static MPI_Op op_of(int code) {
    switch (code) {
        case TESSERA_OP_SUM: return MPI_SUM;
        case TESSERA_OP_PROD: return MPI_PROD;
        case TESSERA_OP_MIN: return MPI_MIN;
        case TESSERA_OP_MAX: return MPI_MAX;
        case TESSERA_OP_LAND: return MPI_LAND;
        case TESSERA_OP_LOR: return MPI_LOR;
        case TESSERA_OP_LXOR: return MPI_LXOR;
        case TESSERA_OP_BAND: return MPI_BAND;
        case TESSERA_OP_BOR: return MPI_BOR;
        case TESSERA_OP_BXOR: return MPI_BXOR;
        default: return MPI_OP_NULL;
    }
}

#define SEND_OR_IN_PLACE(p) ((p) == NULL ? MPI_IN_PLACE : (p))

static int counted(int64_t count, int type, MPI_Datatype *t) {
    *t = type_of(type);
    if (*t == MPI_DATATYPE_NULL) {
        return MPI_ERR_TYPE;
    }
    return count < 0 || count > INT_MAX ? MPI_ERR_COUNT : MPI_SUCCESS;
}

int tmpi_barrier(MPI_Comm *comm) {
    return MPI_Barrier(*comm);
}

int tmpi_bcast(void *buf, int64_t count, int type, int root, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc : MPI_Bcast(buf, (int) count, t, root, *comm);
}

int tmpi_reduce(void *send, void *recv, int64_t count, int type, int op, int root, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc : MPI_Reduce(SEND_OR_IN_PLACE(send), recv, (int) count, t, op_of(op), root, *comm);
}

int tmpi_allreduce(void *send, void *recv, int64_t count, int type, int op, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc : MPI_Allreduce(SEND_OR_IN_PLACE(send), recv, (int) count, t, op_of(op), *comm);
}

int tmpi_reduce_scatter_block(void *send, void *recv, int64_t count, int type, int op, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc
            : MPI_Reduce_scatter_block(SEND_OR_IN_PLACE(send), recv, (int) count, t, op_of(op), *comm);
}

int tmpi_allgather(void *send, void *recv, int64_t count, int type, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc
            : MPI_Allgather(SEND_OR_IN_PLACE(send), (int) count, t, recv, (int) count, t, *comm);
}

int tmpi_alltoall(void *send, void *recv, int64_t count, int type, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc
            : MPI_Alltoall(SEND_OR_IN_PLACE(send), (int) count, t, recv, (int) count, t, *comm);
}

int tmpi_gather(void *send, void *recv, int64_t count, int type, int root, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc
            : MPI_Gather(SEND_OR_IN_PLACE(send), (int) count, t, recv, (int) count, t, root, *comm);
}

int tmpi_scatter(void *send, void *recv, int64_t count, int type, int root, MPI_Comm *comm) {
    MPI_Datatype t;
    int rc = counted(count, type, &t);
    return rc != MPI_SUCCESS ? rc
            : MPI_Scatter(send, (int) count, t, recv == NULL ? MPI_IN_PLACE : recv, (int) count, t, root, *comm);
}
