/*
 * Ping-pong latency and bandwidth over MPI, for Tessera's side-by-side comparison
 * (bench/p2p-vs-openmpi.sh). For each size: warm-up, then ITER round trips between
 * ranks 0 and 1; prints "size half_round_trip_us bandwidth_MBps" (median of 5 repeats),
 * MB = 10^6 bytes, bandwidth = size / half round trip.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long sizes[] = {0, 8, 1024, 65536, 1 << 20, 4 << 20};
    char *buf = malloc(4 << 20);
    for (int s = 0; s < 6; s++) {
        long n = sizes[s];
        int iters = n >= (1 << 20) ? 100 : 10000;
        double t[5];
        for (int rep = -1; rep < 5; rep++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double start = MPI_Wtime();
            for (int i = 0; i < iters; i++) {
                if (rank == 0) {
                    MPI_Send(buf, (int) n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                    MPI_Recv(buf, (int) n, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(buf, (int) n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, (int) n, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                }
            }
            if (rep >= 0) t[rep] = (MPI_Wtime() - start) / iters / 2;
        }
        qsort(t, 5, sizeof *t, cmp);
        if (rank == 0) printf("%ld %.3f %.1f\n", n, t[2] * 1e6, n > 0 ? n / t[2] / 1e6 : 0.0);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
