package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import dev.tessera.task.Team;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MG's tuning (serial coarse levels, replicated coarse levels at two or more ranks, ghosts
 * filled by the operators, the z exchange overlapped with the inner planes) changes no bit of the result: the final L2 norm of class S is
 * the same double with every switch off and with each on, at each layout.
 */
class MgTuningTest {

    private static double norm(MgKernel.Tuning tuning, int ranks, int threads) {
        MgKernel kernel = new MgKernel(1, tuning);
        KernelResult r = SmpRuns.run(kernel, 'S', ranks, threads, Duration.ofSeconds(50));
        assertTrue(r.verified(), r.verificationDetail());
        return kernel.lastNorm();
    }

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads: same bits with every switch")
    @CsvSource({"1, 1", "1, 2", "2, 1", "2, 2", "4, 1", "8, 1"})
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everySwitchGivesTheSameBits(int ranks, int threads) {
        long none = Double.doubleToRawLongBits(norm(MgKernel.Tuning.NONE, ranks, threads));
        // Every level on the first thread alone (class S's finest is 34^3 doubles).
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(1 << 10, 0, false), ranks, threads)),
                "serial levels");
        // Levels up to 16^3 held whole by every rank (at one rank: nothing to replicate).
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(0, 16, false), ranks, threads)),
                "replicated levels");
        // Levels up to the finest's half replicated, beyond class S's levels.
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(0, 1 << 12, false), ranks, threads)),
                "replicated up to below the finest");
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(0, 0, true), ranks, threads)),
                "fused ghosts");
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(8, 8, true), ranks, threads)),
                "all three");
        // The z exchange overlapped with the inner planes (where z alone is split: 2 ranks), with
        // the coarse levels replicated (the finest alone overlapped) and split (restrict's too,
        // down to blocks of two planes).
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(0, 16, true, true), ranks, threads)),
                "overlapped z exchange");
        assertEquals(none, Double.doubleToRawLongBits(norm(new MgKernel.Tuning(0, 0, true, true), ranks, threads)),
                "overlapped z exchange, every level split");
    }

    @Test
    @Timeout(30)
    void defaultsAndBadValues() {
        MgKernel.Tuning t = MgKernel.Tuning.fromProperties();
        assertEquals(0, t.serialSide());
        assertEquals(16, t.replicateSide());
        assertEquals(true, t.fusedGhosts());
        assertEquals(false, t.overlapZ());
        assertEquals(34 * 34 * 34, new MgKernel.Tuning(32, 0, false).serialPoints());
        assertEquals(0, MgKernel.Tuning.NONE.serialPoints());
        assertThrows(IllegalArgumentException.class, () -> new MgKernel.Tuning(-1, 0, false));
        assertThrows(IllegalArgumentException.class, () -> new MgKernel.Tuning(0, -1, false));
    }

    /**
     * Each operator with its output's ghosts filled plane by plane (on one thread and on
     * two) leaves the block exactly as the operator followed by the in-place exchange, for
     * every number of leading periodic axes, on blocks with odd and even plane counts.
     */
    @ParameterizedTest(name = "{0} members, fine block {1} x {2} x {3}")
    @CsvSource({"1, 18, 10, 6", "2, 18, 10, 6", "2, 10, 6, 4", "2, 6, 6, 10", "3, 34, 18, 18"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void operatorsFillGhostsAsTheExchange(int members, int n1, int n2, int n3) {
        Random random = new Random(n1 * 1000 + n2 * 10 + n3);
        int j1 = n1 / 2 + 1;
        int j2 = n2 / 2 + 1;
        int j3 = n3 / 2 + 1;
        double[] u = randomBlock(random, n1 * n2 * n3);
        double[] v = randomBlock(random, n1 * n2 * n3);
        GhostExchange fine = new GhostExchange(null, n1, n2, n3);
        GhostExchange coarse = new GhostExchange(null, j1, j2, j3);
        fine.exchange(u);
        try (Team team = Team.create(members)) {
            for (int serial : new int[] {0, 1 << 20}) {
                MgOperators ops = new MgOperators(team, serial);
                for (int axes = 0; axes <= 3; axes++) {
                    String what = "axes " + axes + ", serial " + serial;
                    double[] expected = v.clone();
                    ops.resid(u, v, expected, n1, n2, n3, MgProblem.OPERATOR);
                    fine.exchange(expected);
                    double[] got = v.clone();
                    ops.resid(u, v, got, n1, n2, n3, MgProblem.OPERATOR, axes);
                    fine.exchange(got, axes);
                    assertArrayEquals(expected, got, "resid, " + what);

                    expected = u.clone();
                    ops.psinv(v, expected, n1, n2, n3, MgProblem.of('S').smoother());
                    fine.exchange(expected);
                    got = u.clone();
                    ops.psinv(v, got, n1, n2, n3, MgProblem.of('S').smoother(), axes);
                    fine.exchange(got, axes);
                    assertArrayEquals(expected, got, "psinv, " + what);

                    expected = randomBlock(new Random(axes), j1 * j2 * j3);
                    got = expected.clone();
                    ops.restrict(u, n1, n2, n3, expected, j1, j2, j3);
                    coarse.exchange(expected);
                    ops.restrict(u, n1, n2, n3, got, j1, j2, j3, axes);
                    coarse.exchange(got, axes);
                    assertArrayEquals(expected, got, "restrict, " + what);
                }
                double[] expected = u.clone();
                double[] got = u.clone();
                double[] z = randomBlock(random, j1 * j2 * j3);
                new MgOperators(team, 0).interpolate(z, j1, j2, j3, expected, n1, n2, n3);
                ops.interpolate(z, j1, j2, j3, got, n1, n2, n3);
                assertArrayEquals(expected, got, "interp, serial " + serial);
            }
        }
    }

    private static double[] randomBlock(Random random, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = random.nextDouble() - 0.5;
        }
        return x;
    }
}
