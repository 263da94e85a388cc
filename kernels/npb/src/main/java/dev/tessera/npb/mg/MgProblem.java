package dev.tessera.npb.mg;

/**
 * One MG problem class: an n^3 periodic grid, the V-cycle iteration count, the
 * reference L2 norm of the final residual and the smoother's coefficients.
 *
 * <p>Sources: sizes and iteration counts from NPB3.4-MPI/sys/setparams.c
 * ({@code write_mg_info}); verification values, the 1e-8 tolerance, the operator A and
 * the smoothers S(a) (classes S, W, A) and S(b) (B and larger) from NPB3.4-MPI/MG/mg.f
 * (main program).
 */
record MgProblem(char problemClass, int n, int iterations, double verifyValue, double[] smoother) {

    /** Relative tolerance of the residual norm (MG/mg.f: epsilon = 1.d-8). */
    static final double EPSILON = 1.0e-8;

    /** Coefficients a(0..3) of the discrete operator A (MG/mg.f). */
    static final double[] OPERATOR = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};

    /** Smoother S(a), classes S, W, A (MG/mg.f). */
    private static final double[] SMOOTHER_A = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
    /** Smoother S(b), classes B, C and larger (MG/mg.f). */
    private static final double[] SMOOTHER_B = {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};

    /** log2 of the grid size: the finest level (levels 1 .. lt, level k has 2^k points a side). */
    int levels() {
        return Integer.numberOfTrailingZeros(n);
    }

    /** The class, or IllegalArgumentException naming the allowed letters. */
    static MgProblem of(char problemClass) {
        return switch (Character.toUpperCase(problemClass)) {
            case 'S' -> new MgProblem('S', 32, 4, 0.5307707005734e-04, SMOOTHER_A);
            case 'W' -> new MgProblem('W', 128, 4, 0.6467329375339e-05, SMOOTHER_A);
            case 'A' -> new MgProblem('A', 256, 4, 0.2433365309069e-05, SMOOTHER_A);
            case 'B' -> new MgProblem('B', 256, 20, 0.1800564401355e-05, SMOOTHER_B);
            case 'C' -> new MgProblem('C', 512, 20, 0.5706732285740e-06, SMOOTHER_B);
            default -> throw new IllegalArgumentException("MG: unknown class '" + problemClass
                    + "' (MG runs classes S, W, A, B, C)");
        };
    }

    /** Operation count of a run (MG/mg.f: 58 * nit * nx*ny*nz floating-point operations). */
    double operations() {
        return 58.0 * iterations * n * (double) n * n;
    }
}
