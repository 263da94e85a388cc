package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.task.Team;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Whole class S runs of BT-MZ on one rank, checked against the reference's verify.f values. */
class BtMzClassSTest {

    private final ZoneBenchmark bench = new BtMz();

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void classSVerifiesWithOneThread() {
        MzProblem s = bench.problem('S');
        double[] norms;
        try (Team team = Team.create(1)) {
            norms = new SingleRankBtMz(bench, s).run(team, s.iterations());
        }
        ZoneBenchmark.Verification v = bench.verify(s, norms);
        assertTrue(v.verified(), v.detail());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoThreadsGiveTheSameNormsBitForBit() {
        MzProblem s = bench.problem('S');
        double[] one, two;
        try (Team team = Team.create(1)) {
            one = new SingleRankBtMz(bench, s).run(team, 10);
        }
        try (Team team = Team.create(2)) {
            two = new SingleRankBtMz(bench, s).run(team, 10);
        }
        assertArrayEquals(one, two, 0.0);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fewerIterationsFailVerification() {
        MzProblem s = bench.problem('S');
        double[] norms;
        try (Team team = Team.create(1)) {
            norms = new SingleRankBtMz(bench, s).run(team, s.iterations() - 1);
        }
        MzProblem claimed = new MzProblem('S', 24, 24, 6, 2, 2, s.iterations(), s.dt());
        assertFalse(bench.verify(claimed, norms).verified());
    }
}
