package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.CartComm;
import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The ghost exchange (comm3) on real rank grids: after one exchange every ghost of every
 * rank's block, faces, edges and corners, holds the value of the interior point it
 * mirrors under periodic wrap-around. Covers the local periodic copies (one rank along an
 * axis) and the two-direction swap with neighbours (two ranks along an axis, where the
 * neighbour above and below is the same rank, and four, where they differ).
 */
class GhostExchangeTest {

    @ParameterizedTest(name = "level {1} on {0} ranks: every ghost holds its periodic image")
    @CsvSource({"1, 3", "2, 3", "2, 1", "4, 3", "8, 3", "16, 4"})
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyGhostHoldsItsPeriodicImage(int ranks, int k) {
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicInteger checked = new AtomicInteger();
        SmpJob.run(ranks, new String[] {"--threads", "1"}, Duration.ofSeconds(50), session -> {
            CartComm grid = session.world().createCart(MgKernel.gridDims(ranks), new boolean[] {true, true, true}, false);
            boolean replicated = (1 << k) < 2 * maxDim(grid.dims());
            MgLevel level = new MgLevel(grid, k, replicated);
            int n = 1 << k;
            double[] x = new double[level.length()];
            java.util.Arrays.fill(x, Double.NaN);
            for (int i3 = 1; i3 < level.m3 - 1; i3++) {
                for (int i2 = 1; i2 < level.m2 - 1; i2++) {
                    for (int i1 = 1; i1 < level.m1 - 1; i1++) {
                        x[(i3 * level.m2 + i2) * level.m1 + i1] =
                                value(level.o1 + i1 - 1, level.o2 + i2 - 1, level.o3 + i3 - 1);
                    }
                }
            }
            level.exchange(x);
            level.exchange(x); // a second exchange finds the same buffers and tags in use
            for (int i3 = 0; i3 < level.m3; i3++) {
                for (int i2 = 0; i2 < level.m2; i2++) {
                    for (int i1 = 0; i1 < level.m1; i1++) {
                        double expected = value(Math.floorMod(level.o1 + i1 - 1, n), Math.floorMod(level.o2 + i2 - 1, n),
                                Math.floorMod(level.o3 + i3 - 1, n));
                        double got = x[(i3 * level.m2 + i2) * level.m1 + i1];
                        if (got != expected && wrong.size() < 10) {
                            wrong.add("rank " + session.rank() + " point (" + i1 + ", " + i2 + ", " + i3 + "): " + got
                                    + ", expected " + expected);
                        }
                        checked.incrementAndGet();
                    }
                }
            }
            grid.free();
        });
        assertEquals(List.of(), List.copyOf(wrong));
        int n = 1 << k;
        assertTrue(checked.get() >= n * n * n, "points checked: " + checked.get());
    }

    private static double value(int x, int y, int z) {
        return x + 1000.0 * y + 1_000_000.0 * z;
    }

    private static int maxDim(int[] dims) {
        return Math.max(dims[0], Math.max(dims[1], dims[2]));
    }
}
