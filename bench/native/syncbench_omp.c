/*
 * EPCC-syncbench-style overheads of OpenMP constructs, written for Tessera's side-by-side
 * comparison (bench/team-vs-openmp.sh). Method (Bull, "Measuring synchronisation and
 * scheduling overheads in OpenMP", EWOMP 1999): time INNER repetitions of a construct
 * whose body is a fixed delay, subtract the time of INNER delays run sequentially, divide
 * by INNER. Each construct is measured OUTER times; the median is printed, in
 * microseconds, one "NAME overhead_us" line per construct.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int delay_length = 100;
static volatile double sink;

static void delay(int n) {
    double a = 0.0;
    for (int i = 0; i < n; i++) a += i;
    if (a < 0) sink = a;
}

static int cmp(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

#define OUTER 21
#define INNER 2000

static double median(double *v) { qsort(v, OUTER, sizeof *v, cmp); return v[OUTER / 2]; }

static double reference(void) {
    double t[OUTER];
    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
        for (int j = 0; j < INNER; j++) delay(delay_length);
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    return median(t);
}

int main(int argc, char **argv) {
    if (argc > 1) delay_length = atoi(argv[1]);
    int nthreads = omp_get_max_threads();
    double ref = reference();
    double t[OUTER];
    double aaaa = 0;

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
        for (int j = 0; j < INNER; j++) {
#pragma omp parallel
            delay(delay_length);
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("PARALLEL %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
#pragma omp parallel
        for (int j = 0; j < INNER; j++) {
#pragma omp for
            for (int i = 0; i < nthreads; i++) delay(delay_length);
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("FOR %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
        for (int j = 0; j < INNER; j++) {
#pragma omp parallel for
            for (int i = 0; i < nthreads; i++) delay(delay_length);
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("PARALLEL_FOR %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
        for (int j = 0; j < INNER; j++) {
#pragma omp parallel for schedule(dynamic, 1)
            for (int i = 0; i < nthreads; i++) delay(delay_length);
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("PARALLEL_FOR_DYNAMIC %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
#pragma omp parallel
        for (int j = 0; j < INNER; j++) {
            delay(delay_length);
#pragma omp barrier
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("BARRIER %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
#pragma omp parallel
        for (int j = 0; j < INNER; j++) {
#pragma omp single
            delay(delay_length);
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("SINGLE %.4f\n", (median(t) - ref) * 1e6);

    for (int o = 0; o < OUTER; o++) {
        double s = omp_get_wtime();
        for (int j = 0; j < INNER; j++) {
#pragma omp parallel reduction(+ : aaaa)
            {
                delay(delay_length);
                aaaa += 1;
            }
        }
        t[o] = (omp_get_wtime() - s) / INNER;
    }
    printf("REDUCTION %.4f\n", (median(t) - ref) * 1e6);
    if (aaaa < 0) printf("%f\n", aaaa);
    return 0;
}
