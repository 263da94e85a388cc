package dev.tessera.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.comm.CartComm;
import dev.tessera.conformance.SmpJobRunner;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ghost cells hold the neighbours' values (wrapped when periodic) and nothing else changes. */
@Timeout(120)
class HaloExchangeTest {

    static final double SENTINEL = -1;

    static Stream<Arguments> cases() {
        return Stream.of(1, 2, 3).flatMap(dims -> Stream.of(1, 2, 4).flatMap(ranks ->
                Stream.of(true, false).flatMap(periodic -> Stream.of(true, false).map(corners ->
                        Arguments.of(dims, ranks, periodic, corners)))));
    }

    static double value(int[] g) {
        double v = 1;
        for (int x : g) {
            v = v * 1000 + x;
        }
        return v;
    }

    @ParameterizedTest(name = "{0}D, {1} ranks, periodic {2}, corners {3}")
    @MethodSource("cases")
    void ghostsHoldNeighbourValues(int ndims, int ranks, boolean periodic, boolean corners) {
        new SmpJobRunner().run(ranks, world -> {
            int[] dims = CartComm.dimsCreate(world.size(), new int[ndims]);
            boolean[] periods = new boolean[ndims];
            java.util.Arrays.fill(periods, periodic);
            CartComm grid = world.createCart(dims, periods, false);
            int[] global = new int[ndims];
            for (int d = 0; d < ndims; d++) {
                global[d] = 9 + 2 * d;
            }
            BlockDecomposition block = BlockDecomposition.of(global, grid);
            int ghost = ndims == 1 ? 2 : 1;
            HaloExchange halo = HaloExchange.create(grid, block.extent(), ghost, corners);
            double[] field = new double[halo.length()];
            int[] pad = halo.paddedExtents();
            forEachCell(pad, c -> {
                boolean inside = true;
                for (int d = 0; d < ndims; d++) {
                    inside &= c[d] >= ghost && c[d] < pad[d] - ghost;
                }
                field[halo.index(c)] = inside ? value(globalOf(c, block, ghost)) : SENTINEL;
            });
            for (int round = 0; round < 2; round++) {
                halo.exchange(field);
            }
            int[] off = block.offset();
            forEachCell(pad, c -> {
                int[] g = globalOf(c, block, ghost);
                int outside = 0;
                boolean valid = true;
                for (int d = 0; d < ndims; d++) {
                    boolean out = c[d] < ghost || c[d] >= pad[d] - ghost;
                    if (out) {
                        outside++;
                    }
                    if (g[d] < 0 || g[d] >= global[d]) {
                        if (!periodic) {
                            valid = false;
                        }
                        g[d] = Math.floorMod(g[d], global[d]);
                    }
                }
                boolean filled = outside == 0 || (valid && (outside == 1 || corners));
                double expected = filled ? value(g) : SENTINEL;
                assertEquals(expected, field[halo.index(c)], "cell " + java.util.Arrays.toString(c) + " offset "
                        + java.util.Arrays.toString(off));
            });
        });
    }

    static int[] globalOf(int[] c, BlockDecomposition block, int ghost) {
        int[] off = block.offset();
        int[] g = new int[off.length];
        for (int d = 0; d < off.length; d++) {
            g[d] = off[d] + c[d] - ghost;
        }
        return g;
    }

    static void forEachCell(int[] extents, java.util.function.Consumer<int[]> visit) {
        int[] c = new int[extents.length];
        int total = 1;
        for (int e : extents) {
            total *= e;
        }
        for (int n = 0; n < total; n++) {
            int rest = n;
            for (int d = extents.length - 1; d >= 0; d--) {
                c[d] = rest % extents[d];
                rest /= extents[d];
            }
            visit.accept(c.clone());
        }
    }
}
