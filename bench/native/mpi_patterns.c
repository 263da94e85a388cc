/*
 * What Open MPI itself charges for the receive patterns a device over MPI can use, in plain
 * C, so that the mpi device's small-message latency can be split into the library's part
 * and Tessera's. Ping-pong between ranks 0 and 1 on a duplicate of MPI_COMM_WORLD (as the
 * device does), half a round trip, best of 5 repeats of 200000 round trips.
 *
 * Usage: mpirun -np 2 mpi_patterns PATTERN BYTES SOURCE THREAD_LEVEL
 *   PATTERN  recv     MPI_Send / MPI_Recv (what a C code does)
 *            ring     32 receives pre-posted into slots, MPI_Test on the oldest until it
 *                     completes, then re-posted (the mpi device's header ring)
 *            iprobe   MPI_Iprobe until a message is there, then MPI_Recv
 *            improbe  MPI_Improbe until a message is there, then MPI_Mrecv
 *            irecv    one MPI_Irecv per message, MPI_Test until it completes
 *            allreduce  not a ping-pong: MPI_Allreduce of one double, in place, on both
 *                     ranks (what the mpi device's native collectives call); the time
 *                     printed is per allreduce (BYTES and SOURCE are ignored)
 *   BYTES    message size (the device sends a 32-byte header in front of the payload)
 *   SOURCE   any (MPI_ANY_SOURCE, as the device's ring) or peer
 *   THREAD_LEVEL  single, funneled, serialized or multiple (MPI_Init_thread)
 * Receives are posted for 16 KiB + 64 bytes, the size of the device's ring slots.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RING 32
#define SLOT (16 * 1024 + 64)

static char slots[RING][SLOT];

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: mpi_patterns recv|ring|iprobe|improbe|irecv|allreduce BYTES any|peer single|funneled|serialized|multiple\n");
        return 2;
    }
    const char *pattern = argv[1];
    int bytes = atoi(argv[2]);
    int level = strcmp(argv[4], "multiple") == 0 ? MPI_THREAD_MULTIPLE
              : strcmp(argv[4], "serialized") == 0 ? MPI_THREAD_SERIALIZED
              : strcmp(argv[4], "funneled") == 0 ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE;
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || bytes < 0 || bytes > SLOT) {
        if (rank == 0) fprintf(stderr, "mpi_patterns: needs 2 ranks and 0 <= BYTES <= %d\n", SLOT);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int peer = 1 - rank;
    int source = strcmp(argv[3], "peer") == 0 ? peer : MPI_ANY_SOURCE;
    char *out = malloc(SLOT);
    memset(out, 'a', SLOT);
    memset(slots, 'b', sizeof slots);
    MPI_Request ring[RING];
    int head = 0;
    double sum = 0.0;
    int mode = strcmp(pattern, "recv") == 0 ? 0 : strcmp(pattern, "ring") == 0 ? 1 : strcmp(pattern, "iprobe") == 0 ? 2
             : strcmp(pattern, "improbe") == 0 ? 3 : strcmp(pattern, "irecv") == 0 ? 4
             : strcmp(pattern, "allreduce") == 0 ? 5 : -1;
    if (mode < 0) {
        if (rank == 0) fprintf(stderr, "mpi_patterns: unknown pattern %s\n", pattern);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (mode == 1) {
        for (int i = 0; i < RING; i++) MPI_Irecv(slots[i], SLOT, MPI_BYTE, source, 0, comm, &ring[i]);
    }
    double best = 1e30;
    for (int rep = 0; rep < 6; rep++) {
        int iters = 200000;
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int it = 0; it < iters; it++) {
            for (int turn = 0; turn < 2; turn++) {
                if (mode == 5) {
                    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
                    continue;
                }
                if ((turn == 0) == (rank == 0)) {
                    MPI_Send(out, bytes, MPI_BYTE, peer, 0, comm);
                    continue;
                }
                int flag = 0;
                MPI_Status st;
                if (mode == 0) {
                    MPI_Recv(slots[0], SLOT, MPI_BYTE, source, 0, comm, MPI_STATUS_IGNORE);
                } else if (mode == 1) {
                    while (!flag) MPI_Test(&ring[head], &flag, &st);
                    MPI_Irecv(slots[head], SLOT, MPI_BYTE, source, 0, comm, &ring[head]);
                    head = (head + 1) % RING;
                } else if (mode == 2) {
                    while (!flag) MPI_Iprobe(source, 0, comm, &flag, &st);
                    MPI_Recv(slots[0], SLOT, MPI_BYTE, st.MPI_SOURCE, 0, comm, MPI_STATUS_IGNORE);
                } else if (mode == 3) {
                    MPI_Message m;
                    while (!flag) MPI_Improbe(source, 0, comm, &flag, &m, &st);
                    MPI_Mrecv(slots[0], SLOT, MPI_BYTE, &m, MPI_STATUS_IGNORE);
                } else {
                    MPI_Request r;
                    MPI_Irecv(slots[0], SLOT, MPI_BYTE, source, 0, comm, &r);
                    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                }
            }
        }
        double t = (MPI_Wtime() - t0) / iters / 2 * 1e6;
        if (rep > 0 && t < best) best = t;
    }
    if (rank == 0) printf("%s %d %s %s %.3f us\n", pattern, bytes, argv[3], argv[4], best);
    if (mode == 1) {
        for (int i = 0; i < RING; i++) {
            MPI_Cancel(&ring[i]);
            MPI_Wait(&ring[i], MPI_STATUS_IGNORE);
        }
    }
    MPI_Comm_free(&comm);
    free(out);
    MPI_Finalize();
    return 0;
}
