package dev.tessera.npbmz.bt;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Writes the source of {@link BlockOps} (run {@code main} and redirect to BlockOps.java;
 * {@link BlockOpsGeneratorTest} checks that the committed file is this program's output).
 *
 * <p>The kernels are the reference's solve_subs.f written out on locals, with the exact zeros
 * of each direction's blocks followed through the elimination. The zero patterns come from
 * the nonzero patterns of the reference's flux Jacobian F and viscous Jacobian N per
 * direction (x_solve.f, y_solve.f, z_solve.f), written below as 5 rows of 5 marks:
 * A(s) and C(s) are zero off the diagonal where F and N both are, B(s) where N is.
 */
final class BlockOpsGenerator {

    private static final int N = 5;

    /** Nonzero entries ('x') of F and N in x, y, z (rows are the reference's first index). */
    private static final String[][] F = {
        {".x...", "xxxxx", "xxx..", "xx.x.", "xxxxx"},
        {"..x..", "xxx..", "xxxxx", "x.xx.", "xxxxx"},
        {"...x.", "xx.x.", "x.xx.", "xxxxx", "xxxxx"},
    };
    private static final String[] NV = {".....", "xx...", "x.x..", "x..x.", "xxxxx"};

    private final List<String> out = new ArrayList<>();

    public static void main(String[] args) {
        System.out.print(new BlockOpsGenerator().source());
    }

    private void w(String s) {
        out.add(s);
    }

    private static Set<Integer> zerosA(int dir) {
        Set<Integer> z = new HashSet<>();
        for (int m = 0; m < N; m++) {
            for (int n = 0; n < N; n++) {
                if (m != n && F[dir][m].charAt(n) == '.' && NV[m].charAt(n) == '.') {
                    z.add(m * N + n);
                }
            }
        }
        return z;
    }

    private static Set<Integer> zerosB() {
        Set<Integer> z = new HashSet<>();
        for (int m = 0; m < N; m++) {
            for (int n = 0; n < N; n++) {
                if (m != n && NV[m].charAt(n) == '.') {
                    z.add(m * N + n);
                }
            }
        }
        return z;
    }

    private static int e(int m, int n) {
        return m * N + n;
    }

    private void loadBlock(String arr, String off, String name, Set<Integer> skip) {
        for (int m = 0; m < N; m++) {
            StringJoiner j = new StringJoiner(", ", "        double ", ";");
            for (int n = 0; n < N; n++) {
                j.add(skip.contains(e(m, n)) ? name + m + n + " = 0.0"
                        : name + m + n + " = " + arr + "[" + off + " + " + e(m, n) + "]");
            }
            w(j.toString());
        }
    }

    private void loadVec(String arr, String off, String name) {
        StringJoiner j = new StringJoiner(", ", "        double ", ";");
        for (int m = 0; m < N; m++) {
            j.add(name + m + " = " + arr + "[" + off + " + " + m + "]");
        }
        w(j.toString());
    }

    private static String minusTerms(String first, List<String> terms) {
        StringBuilder b = new StringBuilder(first == null ? "-" + terms.get(0) : first + " - " + terms.get(0));
        for (int t = 1; t < terms.size(); t++) {
            b.append(" - ").append(terms.get(t));
        }
        return b.toString();
    }

    /** Gauss-Jordan on the locals l, c, r; lz and cz are the entries known to be exactly zero. */
    private void gaussJordan(boolean withC, Set<Integer> lzIn, Set<Integer> czIn) {
        Set<Integer> lz = new HashSet<>(lzIn), cz = new HashSet<>(czIn);
        for (int p = 0; p < N; p++) {
            StringJoiner s = new StringJoiner(" ", "        ", "");
            s.add("pivot = 1.0 / l" + p + p + ";");
            for (int q = p + 1; q < N; q++) {
                if (!lz.contains(e(p, q))) {
                    s.add("l" + p + q + " = l" + p + q + " * pivot;");
                }
            }
            if (withC) {
                for (int n = 0; n < N; n++) {
                    if (!cz.contains(e(p, n))) {
                        s.add("c" + p + n + " = c" + p + n + " * pivot;");
                    }
                }
            }
            s.add("r" + p + " = r" + p + " * pivot;");
            w(s.toString());
            for (int i = 0; i < N; i++) {
                if (i == p || lz.contains(e(i, p))) {
                    continue; // coeff is zero: the row operation is x - 0 * y
                }
                StringJoiner t = new StringJoiner(" ", "        ", "");
                t.add("coeff = l" + i + p + ";");
                for (int q = p + 1; q < N; q++) {
                    update(t, "l", i, q, lz, lz.contains(e(p, q)), "l" + p + q);
                }
                if (withC) {
                    for (int n = 0; n < N; n++) {
                        update(t, "c", i, n, cz, cz.contains(e(p, n)), "c" + p + n);
                    }
                }
                t.add("r" + i + " = r" + i + " - coeff * r" + p + ";");
                w(t.toString());
            }
        }
    }

    private static void update(StringJoiner t, String var, int m, int n, Set<Integer> zeros, boolean sourceZero,
            String source) {
        if (sourceZero) {
            return;
        }
        if (zeros.remove(e(m, n))) {
            t.add(var + m + n + " = -(coeff * " + source + ");");
        } else {
            t.add(var + m + n + " = " + var + m + n + " - coeff * " + source + ";");
        }
    }

    private void storeC(String arr, String off) {
        for (int m = 0; m < N; m++) {
            StringJoiner j = new StringJoiner(" ", "        ", "");
            for (int n = 0; n < N; n++) {
                j.add(arr + "[" + off + " + " + e(m, n) + "] = c" + m + n + ";");
            }
            w(j.toString());
        }
    }

    private void storeR(String arr, String off) {
        StringJoiner j = new StringJoiner(" ", "        ", "");
        for (int m = 0; m < N; m++) {
            j.add(arr + "[" + off + " + " + m + "] = r" + m + ";");
        }
        w(j.toString());
    }

    private void first(String d, Set<Integer> bz, Set<Integer> cz) {
        w("    /** First point of a " + d + " line: C' = B^-1 C and r = B^-1 r by Gauss-Jordan elimination without pivoting (binvcrhs). */");
        w("    static void first" + d + "(double[] l, int bo, int co, double[] r, int ro) {");
        loadBlock("l", "bo", "l", bz);
        loadBlock("l", "co", "c", cz);
        loadVec("r", "ro", "r");
        w("        double pivot, coeff;");
        gaussJordan(true, bz, cz);
        storeC("l", "co");
        storeR("r", "ro");
        w("    }");
        w("");
    }

    private void fused(String d, boolean withC, Set<Integer> az, Set<Integer> bz, Set<Integer> cz) {
        if (withC) {
            w("    /**");
            w("     * One point of the forward sweep of a " + d + " line: r -= A r_prev (matvec_sub), B -= A C'_prev");
            w("     * (matmul_sub), then C' = B^-1 C and r = B^-1 r (binvcrhs). A, B, C of the point at ao, bo,");
            w("     * co; C' of the previous point at cpo; r and r_prev at ro and rpo.");
            w("     */");
            w("    static void step" + d + "(double[] l, int ao, int bo, int co, int cpo, double[] r, int ro, int rpo) {");
        } else {
            w("    /** The last point of the forward sweep of a " + d + " line: as step" + d
                    + " without C (binvrhs instead of binvcrhs). */");
            w("    static void lastStep" + d + "(double[] l, int ao, int bo, int cpo, double[] r, int ro, int rpo) {");
        }
        for (int m = 0; m < N; m++) {
            StringJoiner j = new StringJoiner(", ", "        double ", ";");
            for (int n = 0; n < N; n++) {
                if (!az.contains(e(m, n))) {
                    j.add("a" + m + n + " = l[ao + " + e(m, n) + "]");
                }
            }
            w(j.toString());
        }
        loadVec("r", "rpo", "v");
        for (int m = 0; m < N; m++) {
            List<String> terms = new ArrayList<>();
            for (int n = 0; n < N; n++) {
                if (!az.contains(e(m, n))) {
                    terms.add("a" + m + n + " * v" + n);
                }
            }
            w("        double r" + m + " = " + minusTerms("r[ro + " + m + "]", terms) + ";");
        }
        w("        double p0, p1, p2, p3, p4;");
        for (int n = 0; n < N; n++) {
            StringJoiner j = new StringJoiner(" ", "        ", "");
            for (int k = 0; k < N; k++) {
                j.add("p" + k + " = l[cpo + " + e(k, n) + "];");
            }
            w(j.toString());
            for (int m = 0; m < N; m++) {
                List<String> terms = new ArrayList<>();
                for (int k = 0; k < N; k++) {
                    if (!az.contains(e(m, k))) {
                        terms.add("a" + m + k + " * p" + k);
                    }
                }
                String lead = bz.contains(e(m, n)) ? null : "l[bo + " + e(m, n) + "]";
                w("        double l" + m + n + " = " + minusTerms(lead, terms) + ";");
            }
        }
        if (withC) {
            loadBlock("l", "co", "c", cz);
        }
        w("        double pivot, coeff;");
        gaussJordan(withC, Set.of(), withC ? cz : Set.of());
        if (withC) {
            storeC("l", "co");
        }
        storeR("r", "ro");
        w("    }");
        w("");
    }

    String source() {
        out.clear();
        w(HEADER);
        w("    /** b -= A * v (reference: matvec_sub). v and b may be parts of one array if they do not overlap. */");
        w("    static void matvecSub(double[] a, int ao, double[] v, int vo, double[] b, int bo) {");
        loadVec("v", "vo", "v");
        for (int m = 0; m < N; m++) {
            StringJoiner j = new StringJoiner(" - ");
            for (int n = 0; n < N; n++) {
                j.add("a[ao + " + e(m, n) + "] * v" + n);
            }
            w("        b[bo + " + m + "] = b[bo + " + m + "] - " + j + ";");
        }
        w("    }");
        w("");
        String[] names = {"X", "Y", "Z"};
        for (int dir = 0; dir < 3; dir++) {
            Set<Integer> az = zerosA(dir), bz = zerosB();
            first(names[dir], bz, az);
            fused(names[dir], true, az, bz, az);
            fused(names[dir], false, az, bz, Set.of());
        }
        out.remove(out.size() - 1);
        w("}");
        return String.join("\n", out) + "\n";
    }

    private static final String HEADER = """
            package dev.tessera.npbmz.bt;

            /**
             * The 5 x 5 block kernels of BT's block-tridiagonal line solves (the reference's
             * solve_subs.f: matvec_sub, matmul_sub, binvcrhs, binvrhs), written out entry by entry on
             * local variables. A block is 25 doubles in row-major order: entry (m, n) of the block at
             * offset {@code o} is {@code a[o + 5 * m + n]}; a vector is 5 consecutive doubles.
             *
             * <p>The forward sweep of a line in direction D (X, Y or Z) calls {@code firstD} at its first
             * point, {@code stepD} at the points after it and {@code lastStepD} at its last point;
             * {@link #matvecSub} does the back substitution. A step is the reference's matvec_sub,
             * matmul_sub and binvcrhs fused: the updated B and r stay in locals from one to the next, so
             * only C' and r are stored, and the JIT checks each array's bounds once per call.
             *
             * <p>Exact zeros. The Jacobians of direction D leave fixed entries of A, B and C exactly
             * zero (BtLineSolver's form methods do not even store them). The kernels of D never read
             * those entries and skip every product with a value known to be exactly zero, following
             * the zeros through the elimination as long as they last (B of the first point is nearly
             * triangular, so {@code firstD} is mostly skipped work). x - 0 * y is x and 0 - y is -y, so
             * the results are unchanged; every remaining operation is the reference's, in its order,
             * and the results are the reference's bit for bit (Java does not contract a * b + c into a
             * fused multiply-add).
             *
             * <p>Generated by BlockOpsGenerator (test sources) from the Jacobians' zero patterns: edit
             * the generator and regenerate, not this file.
             */
            final class BlockOps {

                private BlockOps() {
                }
            """;
}
