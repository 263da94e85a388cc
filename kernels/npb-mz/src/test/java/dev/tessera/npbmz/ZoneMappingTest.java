package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** map_zones with the zone balancer: every zone once, loads and imbalance from the zone sizes, threads by load. */
class ZoneMappingTest {

    private static final MzProblem BT_A = new MzProblem('A', 128, 128, 16, 4, 4, 200, 0.0008);
    private static final MzProblem SP_C = new MzProblem('C', 480, 320, 28, 16, 16, 400, 0.00067);

    private static int[] ones(int ranks) {
        int[] t = new int[ranks];
        Arrays.fill(t, 1);
        return t;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 16, 20})
    void everyZoneIsMappedToExactlyOneRank(int ranks) {
        for (ZoneLayout layout : new ZoneLayout[] {ZoneLayout.of(BT_A, 4.5), ZoneLayout.of(SP_C, 1.0)}) {
            ZoneMapping m = ZoneMapping.map(layout, ranks, ones(ranks), true);
            int[] seen = new int[layout.zones()];
            for (int r = 0; r < ranks; r++) {
                for (int z : m.zonesOf(r)) {
                    seen[z]++;
                    assertEquals(r, m.rankOf(z));
                }
            }
            int[] once = new int[layout.zones()];
            Arrays.fill(once, 1);
            assertArrayEquals(once, seen, "zones per rank count for " + ranks + " ranks");
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 5, 6})
    void btMzClassAImbalanceIsWhatTheZoneSizesGive(int ranks) {
        ZoneLayout layout = ZoneLayout.of(BT_A, 4.5);
        ZoneMapping m = ZoneMapping.map(layout, ranks, ones(ranks), true);
        double[] load = new double[ranks];
        double total = 0;
        for (int z = 0; z < layout.zones(); z++) {
            double points = (double) layout.nx(z) * layout.ny(z) * layout.nz(z);
            load[m.rankOf(z)] += points;
            total += points;
        }
        assertEquals(128.0 * 128 * 16, total);
        double max = Arrays.stream(load).max().orElseThrow();
        assertEquals(max / (total / ranks), m.imbalance(), 1e-12);
        for (int r = 0; r < ranks; r++) {
            assertEquals(load[r], m.load(r), 0.0);
        }
        // greedy largest-first never exceeds the mean by more than the largest zone (53824 points)
        assertTrue(max <= total / ranks + 58.0 * 58 * 16, "max load " + max);
    }

    @Test
    void btMzClassAOnTwoRanksIsNearlyBalanced() {
        ZoneMapping m = ZoneMapping.map(ZoneLayout.of(BT_A, 4.5), 2, ones(2), true);
        // the reference's bt-mz.A.x on 2 processes: 132336 and 129808 points
        assertEquals(132336.0, Math.max(m.load(0), m.load(1)));
        assertEquals(129808.0, Math.min(m.load(0), m.load(1)));
        assertEquals(2.0 / m.imbalance(), m.calculatedSpeedup(), 1e-12);
    }

    @Test
    void threadsFollowLoadWhenBalancingIsOn() {
        // 3 ranks, 6 threads: the rank with the largest zone set gets more threads than the lightest
        ZoneLayout layout = ZoneLayout.of(BT_A, 4.5);
        ZoneMapping balanced = ZoneMapping.map(layout, 3, new int[] {2, 2, 2}, true);
        assertEquals(6, balanced.totalThreads());
        ZoneMapping fixed = ZoneMapping.map(layout, 3, new int[] {1, 2, 3}, false);
        assertEquals(1, fixed.threads(0));
        assertEquals(2, fixed.threads(1));
        assertEquals(3, fixed.threads(2));
        // BT-MZ class S zones: 216, 648, 648 and 1944 points; on 3 ranks the loads are 1944, 864, 648
        ZoneMapping uneven = ZoneMapping.map(ZoneLayout.of(new MzProblem('S', 24, 24, 6, 2, 2, 60, 0.01), 3.0), 3,
                new int[] {2, 2, 2}, true);
        assertEquals(6, uneven.totalThreads());
        int heavy = uneven.rankOf(3);
        assertEquals(1944.0, uneven.load(heavy));
        assertEquals(3, uneven.threads(heavy));
        for (int r = 0; r < 3; r++) {
            if (uneven.load(r) == 648.0) {
                assertEquals(1, uneven.threads(r));
            }
        }
        // per-thread work 648, 432, 648: the reference's calculated speedup is 3456 / 648
        assertEquals(3456.0 / 648.0, uneven.calculatedSpeedup(), 1e-12);
    }

    @Test
    void printsTheMappingTableAndTheCalculatedSpeedupAsTheReference() {
        ZoneMapping m = ZoneMapping.map(ZoneLayout.of(new MzProblem('S', 24, 24, 6, 2, 2, 100, 0.015), 1.0), 2, ones(2),
                true);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        m.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), true);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("  proc  nzones  zone_size nthreads size_per_thread"), text);
        assertTrue(text.contains("     0      2       1728.      1        1728."), text);
        assertTrue(text.contains("   zone      1       864."), text);
        assertTrue(text.contains(" Calculated speedup =      2.00"), text);
    }
}
