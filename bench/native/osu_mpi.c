/*
 * Native MPI side of `tessera bench --vs native`: the suites of dev.tessera.bench.osu.Suite,
 * timed exactly as dev.tessera.bench.osu.OsuRank times them, printing the same lines.
 * Usage: osu_mpi SUITE SIZES ITERS WARMUP WARMUP_MS BLOCKS WINDOW   (SIZES: comma list of bytes)
 * For every size: at least WARMUP discarded blocks, more until WARMUP_MS milliseconds are
 * spent, then BLOCKS timed blocks of iters_for(size)
 * operations, each after a barrier; a block's value is the slowest rank's time per
 * operation (MPI_MAX allreduce) in seconds. Rank 0 prints
 *   TB start SIZE ITERS
 *   TB result SIZE ITERS BYTES_PER_OP T1 ... TBLOCKS
 * With TESSERA_BENCH_BATON=PATH:SIDE (tessera bench --vs native --interleave) it takes turns with
 * Tessera's job, segment by segment, as dev.tessera.bench.osu.Baton describes: an empty
 * pre-warm segment, then per size the warm-up and each timed block.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>

enum { LATENCY, MULTI_LAT, BW, BIBW, MBW_MR, BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL };
static const char *names[] = {"latency", "multi_lat", "bw", "bibw", "mbw_mr", "barrier", "bcast", "reduce",
                              "allreduce", "gather", "scatter", "allgather", "alltoall"};
#define TAG 7
#define SCALE_FROM (16L << 10)

static int rank, np, suite, window;
static char *sbuf, *rbuf;
static MPI_Request *reqs;

/* The baton of an interleaved run (NULL: alone): the count of segments both sides have run. */
static int *baton;
static int baton_side, baton_segment;

static void baton_open(void) {
    const char *v = getenv("TESSERA_BENCH_BATON");
    if (v == NULL || *v == 0) return;
    char path[4096];
    const char *colon = strrchr(v, ':');
    if (colon == NULL || colon == v || (size_t) (colon - v) >= sizeof path || (colon[1] != '0' && colon[1] != '1')) {
        fprintf(stderr, "osu_mpi: TESSERA_BENCH_BATON must be PATH:SIDE with SIDE 0 or 1, got '%s'\n", v);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memcpy(path, v, (size_t) (colon - v));
    path[colon - v] = 0;
    baton_side = colon[1] - '0';
    int fd = open(path, O_RDWR);
    void *m = fd < 0 ? MAP_FAILED : mmap(NULL, 64, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "osu_mpi: rank %d cannot map the baton file %s\n", rank, path);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    close(fd);
    baton = m;
}

/* Waits, asleep on a futex on the baton's word (woken by the side that passes), until this side's
 * next segment may run: a waiter that polled would take the running side's cores. */
static void baton_await(void) {
    if (baton == NULL) return;
    int want = 2 * baton_segment + baton_side, seen;
    struct timespec pause = {0, 100000000};
    time_t start = time(NULL);
    while ((seen = __atomic_load_n(baton, __ATOMIC_ACQUIRE)) != want) {
        syscall(SYS_futex, baton, FUTEX_WAIT, seen, &pause, NULL, 0);
        if (time(NULL) - start > 600) {
            fprintf(stderr, "osu_mpi: rank %d waited 600 s for its turn (segment %d): the other side has stopped\n",
                    rank, baton_segment);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
}

/* Ends this side's segment: once every rank is done, rank 0 hands the turn to the other side. */
static void baton_pass(void) {
    if (baton == NULL) return;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        __atomic_store_n(baton, 2 * baton_segment + baton_side + 1, __ATOMIC_RELEASE);
        syscall(SYS_futex, baton, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
    baton_segment++;
}

/* Same rule as Sizes.itersFor: full count up to 16 KiB, then fewer, at least 2 (or iters if smaller). */
static int iters_for(long size, int iters) {
    if (size <= SCALE_FROM) return iters;
    long n = iters * SCALE_FROM / size, floor = iters < 2 ? iters : 2;
    return (int) (n > floor ? n : floor);
}

static int partner(void) {
    int half = (suite == MULTI_LAT || suite == MBW_MR) ? np / 2 : 1;
    if (rank < half) return rank + half;
    return rank < 2 * half ? rank - half : -1;
}

/* Runs n operations of the suite at this size. */
static void body(int size, int n) {
    int peer = partner();
    for (int i = 0; i < n; i++) {
        switch (suite) {
        case LATENCY: case MULTI_LAT:
            if (peer < 0) return;
            if (rank < peer) {
                MPI_Send(sbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
                MPI_Recv(rbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(rbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD);
            }
            break;
        case BW: case BIBW: case MBW_MR: {
            if (peer < 0) return;
            int both = suite == BIBW, sender = rank < peer, k = 0;
            char ack[4];
            for (int w = 0; w < window; w++)
                if (both || !sender) MPI_Irecv(rbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &reqs[k++]);
            for (int w = 0; w < window; w++)
                if (both || sender) MPI_Isend(sbuf, size, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &reqs[k++]);
            MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
            if (sender) MPI_Recv(ack, 4, MPI_BYTE, peer, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else MPI_Send(ack, 4, MPI_BYTE, peer, TAG + 1, MPI_COMM_WORLD);
            break;
        }
        case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
        case BCAST: MPI_Bcast(sbuf, size, MPI_BYTE, 0, MPI_COMM_WORLD); break;
        case REDUCE: MPI_Reduce(sbuf, rbuf, size / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD); break;
        case ALLREDUCE: MPI_Allreduce(sbuf, rbuf, size / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
        case GATHER: MPI_Gather(sbuf, size, MPI_BYTE, rbuf, size, MPI_BYTE, 0, MPI_COMM_WORLD); break;
        case SCATTER: MPI_Scatter(sbuf, size, MPI_BYTE, rbuf, size, MPI_BYTE, 0, MPI_COMM_WORLD); break;
        case ALLGATHER: MPI_Allgather(sbuf, size, MPI_BYTE, rbuf, size, MPI_BYTE, MPI_COMM_WORLD); break;
        case ALLTOALL: MPI_Alltoall(sbuf, size, MPI_BYTE, rbuf, size, MPI_BYTE, MPI_COMM_WORLD); break;
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (argc != 8) {
        if (rank == 0) fprintf(stderr, "usage: osu_mpi SUITE SIZES ITERS WARMUP WARMUP_MS BLOCKS WINDOW\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    suite = -1;
    for (int s = 0; s < (int) (sizeof names / sizeof *names); s++)
        if (strcmp(argv[1], names[s]) == 0) suite = s;
    if (suite < 0) {
        if (rank == 0) fprintf(stderr, "osu_mpi: unknown suite %s\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int iters = atoi(argv[3]), warmup = atoi(argv[4]), blocks = atoi(argv[6]);
    double warmup_s = atoi(argv[5]) / 1e3;
    window = atoi(argv[7]);
    long sizes[256];
    int nsizes = 0;
    long maxsize = 1;
    for (char *tok = strtok(argv[2], ","); tok && nsizes < 256; tok = strtok(NULL, ",")) {
        sizes[nsizes] = atol(tok);
        if (sizes[nsizes] > maxsize) maxsize = sizes[nsizes];
        nsizes++;
    }
    /* Both buffers are written before use, as the OSU benchmarks do: pages of a calloc'ed
     * buffer that is never written all map the kernel's shared zero page, and reading those
     * (a sender's buffer in bw, whether copied by the sender or by the receiver through
     * process_vm_readv) reads one 4 KiB page from L1: 1 MiB streamed at 27 GB/s instead of
     * the 17 GB/s the same copy takes from real memory on the Xeon VM. Java's arrays and
     * native segments are written when they are allocated, so the comparison must do the same. */
    sbuf = malloc((size_t) maxsize * np);
    rbuf = malloc((size_t) maxsize * np);
    memset(sbuf, 'a', (size_t) maxsize * np);
    memset(rbuf, 'b', (size_t) maxsize * np);
    reqs = malloc(sizeof *reqs * 2 * (window > 0 ? window : 1));
    double *t = malloc(sizeof *t * blocks);
    baton_open();
    baton_await(); /* the pre-warm segment (Tessera's ranks warm the JIT there) */
    baton_pass();
    for (int i = 0; i < nsizes; i++) {
        int size = (int) sizes[i], n = iters_for(size, iters);
        int pairs = (suite == MULTI_LAT || suite == MBW_MR) ? np / 2 : 1;
        long bytes = (suite == BW || suite == BIBW || suite == MBW_MR)
                         ? (long) size * window * pairs * (suite == BIBW ? 2 : 1) : 0;
        double divisor = (suite == LATENCY || suite == MULTI_LAT) ? 2.0 : 1.0;
        if (rank == 0) { printf("TB start %d %d\n", size, n); fflush(stdout); }
        double warmed = 0; /* the same on every rank: a sum of allreduced values */
        baton_await(); /* the warm-up is a segment; then each timed block */
        for (int b = -warmup; b < blocks; b++) {
            if (b >= 0 && baton != NULL) {
                baton_pass();
                baton_await();
                /* back from sleep: an untimed lead-in (a quarter of the block), so the block is timed hot */
                MPI_Barrier(MPI_COMM_WORLD);
                body(size, (n + 3) / 4);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            double start = MPI_Wtime();
            body(size, n);
            double per_op = (MPI_Wtime() - start) / n / divisor, slowest;
            MPI_Allreduce(&per_op, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (b >= 0) {
                t[b] = slowest;
            } else {
                warmed += slowest * n * divisor;
                if (b == -1 && warmed < warmup_s) b--; /* one more warm-up block */
            }
        }
        baton_pass();
        if (rank == 0) {
            printf("TB result %d %d %ld", size, n, bytes);
            for (int b = 0; b < blocks; b++) printf(" %.9e", t[b]);
            printf("\n");
            fflush(stdout);
        }
    }
    free(t); free(reqs); free(sbuf); free(rbuf);
    MPI_Finalize();
    return 0;
}
