/*
 * The plain-C side of bench/mpi-device-vs-openmpi.sh: ping-pong latency/bandwidth between
 * ranks 0 and 1 (1 B .. 16 MiB) and allreduce of doubles over all ranks (8 B .. 16 MiB),
 * measured exactly as dev.tessera.bench.p2p.MpiDeviceBench measures Tessera: per size a
 * warm-up repeat, then 5 timed repeats of ITER operations; rank 0 prints
 * "pingpong SIZE HALF_RTT_US MBPS" and "allreduce SIZE US" with the median repeat.
 * Usage: mpi_device_bench [pingpong|allreduce|all] [single|multiple]: the second argument
 * is the thread level (MPI_Init, the default, or MPI_Init_thread with MPI_THREAD_MULTIPLE,
 * the level the mpi device runs at, which costs Open MPI about 0.1 us per message).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static int iters_for(long n) {
    return n >= (1 << 22) ? 40 : n >= (1 << 20) ? 100 : n >= (1 << 16) ? 1000 : 20000;
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[2], "multiple") == 0) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long max = 16L << 20;
    char *buf = malloc(max);
    double *in = malloc(max), *out = malloc(max);
    memset(buf, 1, max);
    for (long i = 0; i < max / 8; i++) in[i] = 1.0;
    const char *what = argc > 1 ? argv[1] : "all";
    if (strcmp(what, "allreduce") != 0) {
        for (long n = 1; n <= max; n *= 4) {
            int iters = iters_for(n);
            double t[5];
            for (int rep = -1; rep < 5; rep++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double start = MPI_Wtime();
                for (int i = 0; i < iters; i++) {
                    if (rank == 0) {
                        MPI_Send(buf, (int) n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                        MPI_Recv(buf, (int) n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else if (rank == 1) {
                        MPI_Recv(buf, (int) n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(buf, (int) n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                    }
                }
                if (rep >= 0) t[rep] = (MPI_Wtime() - start) / iters / 2;
            }
            qsort(t, 5, sizeof *t, cmp);
            if (rank == 0) printf("pingpong %ld %.3f %.1f\n", n, t[2] * 1e6, n / t[2] / 1e6);
        }
    }
    if (strcmp(what, "pingpong") != 0) {
        for (long n = 8; n <= max; n *= 4) {
            int iters = iters_for(n);
            double t[5];
            for (int rep = -1; rep < 5; rep++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double start = MPI_Wtime();
                for (int i = 0; i < iters; i++) {
                    MPI_Allreduce(in, out, (int) (n / 8), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                }
                if (rep >= 0) t[rep] = (MPI_Wtime() - start) / iters;
            }
            qsort(t, 5, sizeof *t, cmp);
            if (rank == 0) printf("allreduce %ld %.3f\n", n, t[2] * 1e6);
        }
    }
    free(buf);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
