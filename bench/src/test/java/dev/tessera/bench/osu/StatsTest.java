package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(3, Stats.of(new double[] {5, 1, 3}).p50());
        assertEquals(2.5, Stats.of(new double[] {4, 1, 3, 2}).p50());
    }

    @Test
    void nearestRankPercentiles() {
        double[] v = new double[100];
        for (int i = 0; i < 100; i++) {
            v[i] = 100 - i; // 1..100, reversed
        }
        Stats s = Stats.of(v);
        assertEquals(90, s.p90());
        assertEquals(99, s.p99());
        assertEquals(1, s.min());
        assertEquals(100, s.max());
        assertEquals(50.5, s.mean(), 1e-12);
        assertEquals(100, s.count());
    }

    @Test
    void fewValuesTailIsTheMaximum() {
        Stats s = Stats.of(new double[] {1, 2, 10});
        assertEquals(10, s.p90());
        assertEquals(10, s.p99());
        Stats one = Stats.of(new double[] {7});
        assertEquals(7, one.p50());
        assertEquals(7, one.p99());
    }

    @Test
    void noValuesIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new double[0]));
    }
}
