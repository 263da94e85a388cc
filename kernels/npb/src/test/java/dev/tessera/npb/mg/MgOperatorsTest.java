package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.task.Team;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * resid and psinv, which work on two x lines at a time (and one line where a plane has an
 * odd number of interior lines), against the reference's loops written out here as in
 * NPB3.4-MPI/MG/mg.f: line buffers u1/u2 (r1/r2) filled over the whole line, then the
 * update; every sum in the reference's order. The results must be equal bit for bit.
 */
class MgOperatorsTest {

    private static final double[] SMOOTHER = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};

    @ParameterizedTest(name = "resid on {0}x{1}x{2} with {3} members equals mg.f's loops bit for bit")
    @CsvSource({"11, 8, 5, 1", "11, 9, 5, 1", "11, 9, 6, 2", "6, 3, 4, 2", "34, 34, 10, 2"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void residIsTheReferenceFormula(int m1, int m2, int m3, int members) {
        double[] u = random(m1 * m2 * m3, 1);
        double[] v = random(m1 * m2 * m3, 2);
        double[] expected = random(m1 * m2 * m3, 3);
        double[] actual = expected.clone();
        referenceResid(u, v, expected, m1, m2, m3, MgProblem.OPERATOR);
        try (Team team = Team.create(members)) {
            new MgOperators(team).resid(u, v, actual, m1, m2, m3, MgProblem.OPERATOR);
        }
        assertArrayEquals(expected, actual, 0.0);
    }

    @ParameterizedTest(name = "resid in place (r = v) on {0}x{1}x{2} with {3} members equals mg.f's loops")
    @CsvSource({"11, 9, 5, 1", "10, 8, 6, 2"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void residInPlaceIsTheReferenceFormula(int m1, int m2, int m3, int members) {
        double[] u = random(m1 * m2 * m3, 4);
        double[] expected = random(m1 * m2 * m3, 5);
        double[] actual = expected.clone();
        referenceResid(u, expected.clone(), expected, m1, m2, m3, MgProblem.OPERATOR);
        try (Team team = Team.create(members)) {
            new MgOperators(team).resid(u, actual, actual, m1, m2, m3, MgProblem.OPERATOR);
        }
        assertArrayEquals(expected, actual, 0.0);
    }

    @ParameterizedTest(name = "psinv on {0}x{1}x{2} with {3} members equals mg.f's loops bit for bit")
    @CsvSource({"11, 8, 5, 1", "11, 9, 5, 1", "11, 9, 6, 2", "6, 3, 4, 2", "34, 34, 10, 2"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void psinvIsTheReferenceFormula(int m1, int m2, int m3, int members) {
        double[] r = random(m1 * m2 * m3, 6);
        double[] expected = random(m1 * m2 * m3, 7);
        double[] actual = expected.clone();
        referencePsinv(r, expected, m1, m2, m3, SMOOTHER);
        try (Team team = Team.create(members)) {
            new MgOperators(team).psinv(r, actual, m1, m2, m3, SMOOTHER);
        }
        assertArrayEquals(expected, actual, 0.0);
    }

    @ParameterizedTest(name = "zero3 and interp in one pass from {0}x{1}x{2} into {3}x{4}x{5} with {6} members equals the two passes")
    @CsvSource({"10, 6, 4, 18, 10, 6, 1", "10, 6, 4, 18, 10, 6, 2", "4, 4, 4, 6, 6, 6, 2", "34, 34, 18, 66, 66, 34, 2",
            "10, 6, 4, 18, 10, 7, 1", "10, 6, 4, 19, 10, 6, 2"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void zeroInterpolateIsZeroThenInterpolate(int mm1, int mm2, int mm3, int n1, int n2, int n3, int members) {
        double[] z = random(mm1 * mm2 * mm3, 8);
        // Exact zeros of both signs in z, so that the sign of a zero result is checked too.
        z[3] = -0.0;
        z[mm1 + 2] = 0.0;
        z[z.length - 2] = -0.0;
        double[] expected = random(n1 * n2 * n3, 9);
        double[] actual = random(n1 * n2 * n3, 10);
        try (Team team = Team.create(members)) {
            MgOperators ops = new MgOperators(team);
            ops.zero(expected);
            ops.interpolate(z, mm1, mm2, mm3, expected, n1, n2, n3);
            ops.zeroInterpolate(z, mm1, mm2, mm3, actual, n1, n2, n3);
        }
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
                throw new AssertionError("point " + i + ": expected " + expected[i] + ", got " + actual[i]);
            }
        }
    }

    @ParameterizedTest(name = "norm2u3's parts on {0}x{1}x{2} with {3} members: the sum of squares in mg.f's order, the max |x|")
    @CsvSource({"11, 8, 5, 1", "11, 9, 6, 2", "34, 34, 10, 2"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void localNormsAreTheReferenceSums(int m1, int m2, int m3, int members) {
        double[] x = random(m1 * m2 * m3, 11);
        x[at(1, 1, 1, m1, m2)] = -0.75; // the largest |x|, negative
        x[at(0, 1, 1, m1, m2)] = 5.0; // a ghost, not counted
        double[] expectedParts = new double[members];
        double max = 0;
        int planes = m3 - 2;
        for (int k = 0; k < members; k++) {
            // The team's static split: member k's planes, summed on their own, then the parts in member order.
            int from = 1 + (int) ((long) planes * k / members);
            int to = 1 + (int) ((long) planes * (k + 1) / members);
            double s = 0;
            for (int i3 = from; i3 < to; i3++) {
                for (int i2 = 1; i2 < m2 - 1; i2++) {
                    for (int i1 = 1; i1 < m1 - 1; i1++) {
                        double e = x[at(i1, i2, i3, m1, m2)];
                        s = s + e * e;
                        max = Math.max(max, Math.abs(e));
                    }
                }
            }
            expectedParts[k] = s;
        }
        double expectedSum = 0;
        for (double part : expectedParts) {
            expectedSum += part;
        }
        double[] got;
        try (Team team = Team.create(members)) {
            got = new MgOperators(team).localNorms(x, m1, m2, m3);
        }
        assertArrayEquals(new double[] {expectedSum, max}, got, 0.0);
        assertArrayEquals(new double[] {0.75}, new double[] {got[1]}, 0.0);
        x[at(m1 - 2, m2 - 2, m3 - 2, m1, m2)] = Double.NaN;
        try (Team team = Team.create(members)) {
            got = new MgOperators(team).localNorms(x, m1, m2, m3);
        }
        assertArrayEquals(new double[] {Double.NaN, Double.NaN}, got, 0.0, "a NaN is kept, as Math.max keeps it");
    }

    @ParameterizedTest(name = "warmTeam with {0} members and serialPoints {1} runs {2} team regions per round, and no later result changes")
    @CsvSource({"2, 0, 6", "2, 100000, 6", "3, 0, 6", "1, 0, 0"})
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void warmTeamSplitsItsBlocksAndLeavesResultsAlone(int members, int serialPoints, int perRound) {
        int m1 = 34;
        int m2 = 34;
        int m3 = 10;
        double[] u = random(m1 * m2 * m3, 11);
        double[] v = random(m1 * m2 * m3, 12);
        try (Team team = Team.create(members)) {
            double[] cold = new double[m1 * m2 * m3];
            MgOperators fresh = new MgOperators(team, serialPoints, true);
            fresh.resid(u, v, cold, m1, m2, m3, MgProblem.OPERATOR);
            double[] coldU = u.clone();
            fresh.psinv(cold, coldU, m1, m2, m3, SMOOTHER);

            MgOperators ops = new MgOperators(team, serialPoints, true);
            // Even where the operators would work blocks of this size serially (serialPoints
            // 100000), the warm-up splits its own blocks over the members.
            assertEquals(7L * perRound, ops.warmTeam(7, MgProblem.OPERATOR, SMOOTHER));
            assertEquals(0L, ops.warmTeam(0, MgProblem.OPERATOR, SMOOTHER));
            assertEquals(0L, ops.regions(), "the warm-up's regions are its own, not the operators'");
            double[] warm = new double[m1 * m2 * m3];
            ops.resid(u, v, warm, m1, m2, m3, MgProblem.OPERATOR);
            double[] warmU = u.clone();
            ops.psinv(warm, warmU, m1, m2, m3, SMOOTHER);
            assertArrayEquals(cold, warm, 0.0);
            assertArrayEquals(coldU, warmU, 0.0);
        }
    }

    private static double[] random(int n, long seed) {
        Random rnd = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextDouble() - 0.5;
        }
        return x;
    }

    private static int at(int i1, int i2, int i3, int m1, int m2) {
        return (i3 * m2 + i2) * m1 + i1;
    }

    /**
     * mg.f's line buffers for line (i2, i3) of x: s1 = the four face neighbours' lines
     * (i2-1, i3), (i2+1, i3), (i2, i3-1), (i2, i3+1), s2 = the four edge neighbours' lines
     * (i2-1, i3-1), (i2+1, i3-1), (i2-1, i3+1), (i2+1, i3+1), summed in that order.
     */
    private static void lineSums(double[] x, int i2, int i3, int m1, int m2, double[] s1, double[] s2) {
        for (int i1 = 0; i1 < m1; i1++) {
            s1[i1] = x[at(i1, i2 - 1, i3, m1, m2)] + x[at(i1, i2 + 1, i3, m1, m2)]
                    + x[at(i1, i2, i3 - 1, m1, m2)] + x[at(i1, i2, i3 + 1, m1, m2)];
            s2[i1] = x[at(i1, i2 - 1, i3 - 1, m1, m2)] + x[at(i1, i2 + 1, i3 - 1, m1, m2)]
                    + x[at(i1, i2 - 1, i3 + 1, m1, m2)] + x[at(i1, i2 + 1, i3 + 1, m1, m2)];
        }
    }

    /** mg.f resid: r = v - A u, a(1) = 0 omitted as the reference does. */
    private static void referenceResid(double[] u, double[] v, double[] r, int m1, int m2, int m3, double[] a) {
        double[] u1 = new double[m1];
        double[] u2 = new double[m1];
        for (int i3 = 1; i3 < m3 - 1; i3++) {
            for (int i2 = 1; i2 < m2 - 1; i2++) {
                lineSums(u, i2, i3, m1, m2, u1, u2);
                for (int i1 = 1; i1 < m1 - 1; i1++) {
                    int p = at(i1, i2, i3, m1, m2);
                    r[p] = v[p] - a[0] * u[p]
                            - a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                            - a[3] * (u2[i1 - 1] + u2[i1 + 1]);
                }
            }
        }
    }

    /** mg.f psinv: u = u + C r, c(3) = 0 omitted as the reference does. */
    private static void referencePsinv(double[] r, double[] u, int m1, int m2, int m3, double[] c) {
        double[] r1 = new double[m1];
        double[] r2 = new double[m1];
        for (int i3 = 1; i3 < m3 - 1; i3++) {
            for (int i2 = 1; i2 < m2 - 1; i2++) {
                lineSums(r, i2, i3, m1, m2, r1, r2);
                for (int i1 = 1; i1 < m1 - 1; i1++) {
                    int p = at(i1, i2, i3, m1, m2);
                    u[p] = u[p]
                            + c[0] * r[p]
                            + c[1] * (r[p - 1] + r[p + 1] + r1[i1])
                            + c[2] * (r2[i1] + r1[i1 - 1] + r1[i1 + 1]);
                }
            }
        }
    }
}
