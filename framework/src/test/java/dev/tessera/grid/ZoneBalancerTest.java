package dev.tessera.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ZoneBalancerTest {

    static List<ZoneBalancer.Zone> randomZones(long seed, int n) {
        Random r = new Random(seed);
        List<ZoneBalancer.Zone> zones = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            zones.add(new ZoneBalancer.Zone(i, 1 + r.nextInt(100), new int[] {(i + 1) % n, (i + n - 1) % n}));
        }
        return zones;
    }

    @Test
    void neverLosesOrDuplicatesAZoneAndReportsItsImbalance() {
        for (long seed = 0; seed < 50; seed++) {
            List<ZoneBalancer.Zone> zones = randomZones(seed, 5 + (int) seed);
            int ranks = 1 + (int) (seed % 7);
            ZoneBalancer.Assignment a = new ZoneBalancer(seed % 2 == 0 ? 0.0 : 0.1).assign(zones, ranks, ranks * 3);
            double[] load = new double[ranks];
            int[] seen = new int[zones.size()];
            for (int r = 0; r < ranks; r++) {
                for (int z : a.zonesOf(r)) {
                    seen[z]++;
                    load[r] += zones.get(z).weight();
                }
            }
            for (int z = 0; z < zones.size(); z++) {
                assertEquals(1, seen[z], "zone " + z + " assigned once");
            }
            assertTrue(Arrays.equals(load, a.load()), "loads add up");
            double mean = Arrays.stream(load).sum() / ranks;
            assertEquals(Arrays.stream(load).max().getAsDouble() / mean, a.imbalance(), 1e-12);
            assertEquals(ranks * 3, Arrays.stream(a.threads()).sum());
            assertTrue(Arrays.stream(a.threads()).allMatch(t -> t >= 1));
            double perThread = 0;
            for (int r = 0; r < ranks; r++) {
                perThread = Math.max(perThread, load[r] / a.threads()[r]);
            }
            assertEquals(perThread / (Arrays.stream(load).sum() / (ranks * 3)), a.threadImbalance(), 1e-12);
        }
    }

    @Test
    void largestFirstBalancesEqualZonesPerfectly() {
        List<ZoneBalancer.Zone> zones = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            zones.add(new ZoneBalancer.Zone(i, 10));
        }
        ZoneBalancer.Assignment a = new ZoneBalancer().assign(zones, 4, 4);
        assertEquals(1.0, a.imbalance(), 1e-12);
        assertEquals(List.of(4, 4, 4, 4), Arrays.stream(a.rankOfZone()).boxed()
                .collect(java.util.stream.Collectors.groupingBy(r -> r, java.util.TreeMap::new,
                        java.util.stream.Collectors.counting())).values().stream().map(Long::intValue).toList());
    }

    @Test
    void threadsFollowLoad() {
        int[] threads = ZoneBalancer.spreadThreads(new double[] {300, 100}, 8);
        assertEquals(6, threads[0]);
        assertEquals(2, threads[1]);
    }

    @Test
    void neighboursArePreferredWhenLoadsTie() {
        // Zones 0..3 in a line, equal weights: with tolerance, each new zone joins a rank holding a neighbour
        // as long as that rank is not ahead by more than the tolerance.
        List<ZoneBalancer.Zone> zones = List.of(new ZoneBalancer.Zone(0, 10, new int[] {1}),
                new ZoneBalancer.Zone(1, 10, new int[] {0, 2}), new ZoneBalancer.Zone(2, 10, new int[] {1, 3}),
                new ZoneBalancer.Zone(3, 10, new int[] {2}));
        ZoneBalancer.Assignment a = new ZoneBalancer(1.0).assign(zones, 2, 2);
        assertEquals(a.rankOfZone()[0], a.rankOfZone()[1]);
        assertEquals(a.rankOfZone()[2], a.rankOfZone()[3]);
        assertEquals(1.0, a.imbalance(), 1e-12);
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new ZoneBalancer().assign(randomZones(1, 4), 3, 2));
        assertThrows(IllegalArgumentException.class, () -> new ZoneBalancer.Zone(0, -1));
        assertThrows(IllegalArgumentException.class, () -> new ZoneBalancer().assign(
                List.of(new ZoneBalancer.Zone(1, 1), new ZoneBalancer.Zone(1, 2)), 1, 1));
    }
}
