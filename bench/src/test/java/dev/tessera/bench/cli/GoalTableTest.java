package dev.tessera.bench.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.bench.osu.ResultParser;
import dev.tessera.bench.osu.Series;
import dev.tessera.bench.osu.Suite;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GoalTableTest {

    /** A series from "size seconds-per-op" pairs (the bench's result lines, one block each). */
    private static Series series(Suite suite, String impl, double... sizeAndSeconds) {
        ResultParser p = new ResultParser();
        for (int i = 0; i < sizeAndSeconds.length; i += 2) {
            long bytes = suite == Suite.BW ? (long) sizeAndSeconds[i] : 0;
            p.accept("TB result " + (int) sizeAndSeconds[i] + " 10 " + bytes + " " + sizeAndSeconds[i + 1]);
        }
        return new Series(suite, impl, "shm", 2, p.points());
    }

    @Test
    void worstRatioIsTheLargestOverTheRangeBothRan() {
        Series t = series(Suite.LATENCY, "tessera", 8, 2e-6, 1024, 1.2e-6, 65536, 3e-6, 1 << 22, 1e-3);
        Series n = series(Suite.LATENCY, "native", 8, 1e-6, 1024, 1e-6, 65536, 2e-6);
        // 8 B is outside [1K, 4M]; 4M has no native point; 64K is the worst of what remains
        assertArrayEquals(new double[] {65536, 1.5}, GoalTable.worstTimeRatio(t, n, 1024, 4 << 20), 1e-12);
        assertNull(GoalTable.worstTimeRatio(t, null, 0, 1 << 20));
        assertNull(GoalTable.worstTimeRatio(t, n, 2048, 4096));
    }

    @Test
    void rowsSayMetNotMetAndNotMeasured() {
        Series t = series(Suite.LATENCY, "tessera", 8, 0.2e-6, 1024, 1.2e-6);
        Series n = series(Suite.LATENCY, "native", 8, 0.1e-6, 1024, 1e-6);
        Series tb = series(Suite.BW, "tessera", 8, 1e-7);
        Series nb = series(Suite.BW, "native", 8, 0.5e-7);
        GoalTable g = new GoalTable();
        g.timeAtMost("smp 8 B", t, 8, 0.25);
        g.worstTimeRatioAtMost("shm 8 B", t, n, 8, 8, 1.1);
        g.worstTimeRatioAtMost("shm 1K", t, n, 1024, 1024, 1.2);
        g.rateRatioAtLeast("rate", tb, nb, 8, 0.9);
        g.rateRatioAtLeast("rate missing", tb, null, 8, 0.9);
        g.ratioAtMost("heat", Double.NaN, "", 1.5);
        String md = g.markdown();
        assertTrue(md.contains("| smp 8 B | at most 0.2500 us | 0.2000 us | met |"), md);
        assertTrue(md.contains("| shm 8 B | at most 1.10 x native | 2.00 x (worst, at 8 B) | **not met** |"), md);
        assertTrue(md.contains("| shm 1K | at most 1.20 x native | 1.20 x (worst, at 1K) | met |"), md);
        assertTrue(md.contains("| rate | at least 0.90 x native | 0.50 x"), md);
        assertTrue(md.contains("| rate missing | at least 0.90 x native | not measured | - |"), md);
        assertTrue(md.contains("| heat | at most 1.50 x | not measured | - |"), md);
        assertTrue(md.endsWith("2 of 6 goals met in this run.\n\n"), md);
    }

    @Test
    void reportGoalsCoverEveryCollectiveAtEveryRankCount() {
        Series t = series(Suite.LATENCY, "tessera", 8, 0.2e-6);
        Map<String, Series[]> p2p = Map.of("latency smp", new Series[] {t, null});
        String md = ReportCommand.goals(p2p, new Series[2], Map.of(), List.of(2, 4), new double[] {0.6, 0.3, 0.3}).markdown();
        for (Suite s : ReportCommand.COLLECTIVES) {
            for (int np : new int[] {2, 4}) {
                assertTrue(md.contains("| " + s.cliName() + ", shm, " + np + " ranks, 8 B-1 MiB | at most 1.20 x native | not measured |"), md);
            }
        }
        assertTrue(md.contains("| smp 8 B half round trip | at most 0.2500 us | 0.2000 us | met |"), md);
        assertTrue(md.contains("| heat example, 4 shm ranks / 4 smp ranks (2 cores) | at most 1.50 x | 2.00 x"), md);
        assertTrue(md.contains("| heat example, 4 shm ranks / 2 shm ranks | at most 2.00 x | 2.00 x (0.6000 s vs 0.3000 s) | met |"), md);
    }
}
