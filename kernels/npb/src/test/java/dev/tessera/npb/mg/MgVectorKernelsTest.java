package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import dev.tessera.npb.VectorSwitch;
import dev.tessera.task.Team;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MG's Vector API resid and psinv ({@link MgVectorKernels}) give the scalar loops' bits at every
 * point, on blocks whose line lengths leave every possible scalar tail for 2, 4 and 8 lanes,
 * and the switch ({@link MgVector}) does what it says. The test JVM has the module (the
 * pom's surefire argLine), so the vector forms really run here.
 */
class MgVectorKernelsTest {

    private static final double[] SMOOTHER_A = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};
    private static final double[] SMOOTHER_B = {-3.0 / 17.0, 1.0 / 33.0, -1.0 / 61.0, 0.0};

    @Test
    @Timeout(10)
    void theTestJvmRunsTheVectorForms() {
        assertTrue(VectorSwitch.moduleLoaded(), "the surefire argLine should add --add-modules jdk.incubator.vector");
        assertTrue(MgVector.available(), "lanes: " + MgVector.lanes());
        try (Team team = Team.create(1)) {
            assertTrue(new MgOperators(team, 0, true).vector());
            assertFalse(new MgOperators(team, 0, false).vector());
        }
    }

    @ParameterizedTest(name = "resid on {0}x{1}x{2}, {3} members, ghost axes {4}: vector = scalar bit for bit")
    @CsvSource({"3, 3, 3, 1, 0", "4, 5, 4, 1, 3", "5, 4, 6, 2, 2", "6, 7, 5, 1, 3", "9, 6, 4, 2, 0",
            "10, 5, 5, 1, 3", "11, 9, 5, 2, 1", "12, 4, 4, 1, 0", "13, 6, 7, 2, 3", "17, 5, 4, 1, 3",
            "18, 6, 6, 2, 2", "19, 7, 5, 1, 0", "34, 34, 10, 2, 3", "35, 9, 6, 1, 3", "66, 10, 6, 2, 2"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void residVectorEqualsScalar(int m1, int m2, int m3, int members, int ghostAxes) {
        int size = m1 * m2 * m3;
        double[] u = awkward(size, 1);
        double[] v = awkward(size, 2);
        double[] scalar = awkward(size, 3);
        double[] vector = scalar.clone();
        try (Team team = Team.create(members)) {
            new MgOperators(team, 0, false).resid(u, v, scalar, m1, m2, m3, MgProblem.OPERATOR, ghostAxes);
            new MgOperators(team, 0, true).resid(u, v, vector, m1, m2, m3, MgProblem.OPERATOR, ghostAxes);
        }
        assertSameBits(scalar, vector);
        // In place (r = v), as the V-cycle calls it below the finest level.
        double[] inPlaceScalar = awkward(size, 4);
        double[] inPlaceVector = inPlaceScalar.clone();
        try (Team team = Team.create(members)) {
            new MgOperators(team, 0, false).resid(u, inPlaceScalar, inPlaceScalar, m1, m2, m3, MgProblem.OPERATOR,
                    ghostAxes);
            new MgOperators(team, 0, true).resid(u, inPlaceVector, inPlaceVector, m1, m2, m3, MgProblem.OPERATOR,
                    ghostAxes);
        }
        assertSameBits(inPlaceScalar, inPlaceVector);
    }

    @ParameterizedTest(name = "psinv on {0}x{1}x{2}, {3} members, ghost axes {4}: vector = scalar bit for bit")
    @CsvSource({"3, 3, 3, 1, 0", "4, 5, 4, 1, 3", "5, 4, 6, 2, 2", "6, 7, 5, 1, 3", "9, 6, 4, 2, 0",
            "10, 5, 5, 1, 3", "11, 9, 5, 2, 1", "12, 4, 4, 1, 0", "13, 6, 7, 2, 3", "17, 5, 4, 1, 3",
            "18, 6, 6, 2, 2", "19, 7, 5, 1, 0", "34, 34, 10, 2, 3", "35, 9, 6, 1, 3", "66, 10, 6, 2, 2"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void psinvVectorEqualsScalar(int m1, int m2, int m3, int members, int ghostAxes) {
        int size = m1 * m2 * m3;
        double[] r = awkward(size, 5);
        for (double[] c : new double[][] {SMOOTHER_A, SMOOTHER_B}) {
            double[] scalar = awkward(size, 6);
            double[] vector = scalar.clone();
            try (Team team = Team.create(members)) {
                new MgOperators(team, 0, false).psinv(r, scalar, m1, m2, m3, c, ghostAxes);
                new MgOperators(team, 0, true).psinv(r, vector, m1, m2, m3, c, ghostAxes);
            }
            assertSameBits(scalar, vector);
        }
    }

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads verifies with the vector stencils on and off, same bits")
    @CsvSource({"1, 1", "1, 2", "2, 1"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesWithTheSwitchOnAndOff(int ranks, int threads) {
        MgKernel.Tuning defaults = new MgKernel.Tuning(0, 16, true, false, false);
        long off = Double.doubleToRawLongBits(norm(defaults, ranks, threads));
        long on = Double.doubleToRawLongBits(norm(defaults.withVector(true), ranks, threads));
        assertEquals(off, on, "L2 norm with the vector stencils: " + Double.longBitsToDouble(on) + " against "
                + Double.longBitsToDouble(off));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void thePropertyTurnsTheVectorFormsOffAndOn() {
        String saved = System.getProperty(MgVector.PROPERTY);
        try {
            System.setProperty(MgVector.PROPERTY, "false");
            assertFalse(MgKernel.Tuning.fromProperties().vector());
            System.setProperty(MgVector.PROPERTY, "true");
            assertTrue(MgKernel.Tuning.fromProperties().vector());
            // The report says which form ran.
            KernelResult r = SmpRuns.run(new MgKernel(1), 'S', 1, 1, Duration.ofSeconds(50));
            assertTrue(r.verified(), r.verificationDetail());
            assertTrue(r.verificationDetail().contains("Vector API"), r.verificationDetail());
            System.setProperty(MgVector.PROPERTY, "false");
            r = SmpRuns.run(new MgKernel(1), 'S', 1, 1, Duration.ofSeconds(50));
            assertTrue(r.verificationDetail().contains("resid and psinv: scalar"), r.verificationDetail());
            // A value that is neither: refused by the kernel's check, before any work.
            System.setProperty(MgVector.PROPERTY, "fast");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('S', 1));
            assertTrue(e.getMessage().contains(MgVector.PROPERTY) && e.getMessage().contains("'fast'"), e.getMessage());
        } finally {
            if (saved == null) {
                System.clearProperty(MgVector.PROPERTY);
            } else {
                System.setProperty(MgVector.PROPERTY, saved);
            }
        }
    }

    @Test
    @Timeout(10)
    void theSwitchReadsTrueFalseOnOffAndNothing() {
        assertEquals(Boolean.TRUE, VectorSwitch.parse("true", "p"));
        assertEquals(Boolean.TRUE, VectorSwitch.parse(" ON ", "p"));
        assertEquals(Boolean.TRUE, VectorSwitch.parse("1", "p"));
        assertEquals(Boolean.FALSE, VectorSwitch.parse("False", "p"));
        assertEquals(Boolean.FALSE, VectorSwitch.parse("off", "p"));
        assertEquals(Boolean.FALSE, VectorSwitch.parse("0", "p"));
        assertNull(VectorSwitch.parse(null, "p"));
        assertNull(VectorSwitch.parse("", "p"));
        assertThrows(IllegalArgumentException.class, () -> VectorSwitch.parse("yes please", "p"));
    }

    private static double norm(MgKernel.Tuning tuning, int ranks, int threads) {
        MgKernel kernel = new MgKernel(1, tuning);
        KernelResult r = SmpRuns.run(kernel, 'S', ranks, threads, Duration.ofSeconds(50));
        assertTrue(r.verified(), r.verificationDetail());
        return kernel.lastNorm();
    }

    /**
     * Values of both signs over twenty binary orders of magnitude, a few exact zeros of both
     * signs: sums in another order or a fused multiply-add round differently on most points.
     */
    private static double[] awkward(int n, long seed) {
        Random rnd = new Random(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = Math.scalb(rnd.nextDouble() - 0.5, rnd.nextInt(21) - 10);
        }
        for (int i = 0; i < n; i += 37) {
            x[i] = (i & 1) == 0 ? 0.0 : -0.0;
        }
        return x;
    }

    private static void assertSameBits(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        int differ = 0;
        int first = -1;
        for (int i = 0; i < expected.length; i++) {
            if (Double.doubleToRawLongBits(expected[i]) != Double.doubleToRawLongBits(actual[i])) {
                differ++;
                if (first < 0) {
                    first = i;
                }
            }
        }
        if (differ > 0) {
            throw new AssertionError(differ + " of " + expected.length + " points differ; first: point " + first
                    + ", scalar " + expected[first] + ", vector " + actual[first]);
        }
    }
}
