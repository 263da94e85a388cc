package dev.tessera.npbmz;

import java.util.Locale;

/**
 * The reference values BT-MZ and SP-MZ verify against for one class (their verify.f): the
 * time step, the number of iterations, the 5 residual rms norms and the 5 error rms norms,
 * and the comparison both verify.f make, printed as they print it.
 *
 * @param dt         the class's time step
 * @param iterations the class's number of time steps (niter)
 * @param residual   xcrref(1..5): the residual norms
 * @param error      xceref(1..5): the error norms
 */
public record ReferenceNorms(double dt, int iterations, double[] residual, double[] error) {

    /**
     * Compares {@code norms} (5 residual then 5 error norms, summed over the zones) with
     * {@code ref} at the relative tolerance {@code epsilon}; {@code ref} null means the class
     * has no reference values, which fails. Every norm that is NaN or off by more than
     * epsilon fails, as does a dt or an iteration count other than the reference's.
     */
    public static ZoneBenchmark.Verification verify(String benchmark, MzProblem problem, double[] norms,
            double epsilon, ReferenceNorms ref) {
        if (norms == null || norms.length != 10) {
            throw new IllegalArgumentException(benchmark + " verification needs 10 norms (5 residual, 5 error), got "
                    + (norms == null ? "null" : norms.length));
        }
        StringBuilder out = new StringBuilder();
        out.append(" Verification being performed for class ").append(problem.problemClass()).append('\n');
        out.append(String.format(Locale.ROOT, " accuracy setting for epsilon = %20.13E%n", epsilon));
        if (ref == null) {
            out.append(" No reference values for this class\n Verification failed\n");
            return new ZoneBenchmark.Verification(false, out.toString());
        }
        boolean verified = true;
        if (Math.abs(problem.dt() - ref.dt()) > epsilon) {
            verified = false;
            out.append(String.format(Locale.ROOT, " DT does not match the reference value of %15.8E%n", ref.dt()));
        } else if (problem.iterations() != ref.iterations()) {
            verified = false;
            out.append(String.format(Locale.ROOT, " NITER does not match the reference value of %5d%n", ref.iterations()));
        }
        out.append(" Comparison of RMS-norms of residual\n");
        verified &= compare(out, norms, 0, ref.residual(), epsilon);
        out.append(" Comparison of RMS-norms of solution error\n");
        verified &= compare(out, norms, 5, ref.error(), epsilon);
        out.append(verified ? " Verification Successful\n" : " Verification failed\n");
        return new ZoneBenchmark.Verification(verified, out.toString());
    }

    private static boolean compare(StringBuilder out, double[] norms, int offset, double[] ref, double epsilon) {
        boolean ok = true;
        for (int m = 0; m < 5; m++) {
            double computed = norms[offset + m];
            double diff = Math.abs((computed - ref[m]) / ref[m]);
            boolean pass = !Double.isNaN(diff) && diff <= epsilon;
            ok &= pass;
            out.append(String.format(Locale.ROOT, "%s%2d%20.13E%20.13E%20.13E%n", pass ? "          " : " FAILURE: ", m + 1,
                    computed, ref[m], diff));
        }
        return ok;
    }
}
