package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.task.Team;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A whole LU-MZ class S run (16 zones on one rank, exchange through the faces) against verify.f's values. */
class LuMzClassSTest {

    private final LuMz bench = new LuMz();
    private final MzProblem classS = bench.problem('S');

    private SequentialZones.Result run(int threads, int steps) {
        try (Team team = Team.create(threads)) {
            return new SequentialZones(bench, classS).run(team, steps, true);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void classSVerifiesOnOneThread() {
        SequentialZones.Result r = run(1, -1);
        assertTrue(r.verification().verified(), r.verification().detail());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void classSVerifiesWithTheSweepsPipelinedOverTwoThreads() {
        SequentialZones.Result r = run(2, -1);
        assertTrue(r.verification().verified(), r.verification().detail());
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void threadCountDoesNotChangeASingleBitOfTheNorms() {
        // Every point sees the same operations in the same order whatever the row blocks;
        // 5 threads for 4 interior rows also gives one member an empty block.
        double[] one = run(1, 6).norms();
        assertArrayEquals(one, run(2, 6).norms(), 0.0);
        assertArrayEquals(one, run(5, 6).norms(), 0.0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRunOfTheWrongLengthFailsVerification() {
        SequentialZones.Result r = run(1, 10);
        assertFalse(r.verification().verified());
        assertTrue(r.verification().detail().contains("FAILURE"), r.verification().detail());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void withoutTheBoundaryExchangeTheRunDoesNotVerify() {
        // The exchange matters: zones that keep their own exact boundary values converge elsewhere.
        SequentialZones zones = new SequentialZones(bench, classS) {
            @Override
            void exchange() {
            }
        };
        try (Team team = Team.create(1)) {
            assertFalse(zones.run(team, -1, true).verification().verified());
        }
    }
}
