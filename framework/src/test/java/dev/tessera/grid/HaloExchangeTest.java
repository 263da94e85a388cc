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
            HaloExchange halo = HaloExchange.create(grid, block.extent(), ghost,
                    corners ? HaloExchange.Shape.FACES_EDGES_CORNERS : HaloExchange.Shape.FACES);
            double[] field = new double[halo.length()];
            int[] pad = halo.paddedExtents();
            forEachCell(pad, c -> {
                boolean inside = true;
                for (int d = 0; d < ndims; d++) {
                    inside &= c[d] >= ghost && c[d] < pad[d] - ghost;
                }
                field[at(halo, c)] = inside ? value(globalOf(c, block, ghost)) : SENTINEL;
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
                assertEquals(expected, field[at(halo, c)], "cell " + java.util.Arrays.toString(c) + " offset "
                        + java.util.Arrays.toString(off));
            });
        });
    }

    /** The flat index of padded coordinates c through the fixed-arity index methods. */
    static int at(HaloExchange halo, int[] c) {
        return switch (c.length) {
            case 1 -> halo.index(c[0]);
            case 2 -> halo.index(c[0], c[1]);
            default -> halo.index(c[0], c[1], c[2]);
        };
    }

    @ParameterizedTest(name = "{0} ranks")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 4})
    void severalFieldsOfEveryKindTravelInOneExchange(int ranks) {
        new SmpJobRunner().run(ranks, world -> {
            CartComm grid = world.createCart(3, true);
            int[] global = {6, 5, 4};
            BlockDecomposition block = BlockDecomposition.of(global, grid);
            HaloExchange halo = HaloExchange.create(grid, block.extent(), 1, HaloExchange.Shape.FACES);
            int n = halo.length();
            double[] a = new double[n];
            float[] b = new float[n];
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                java.lang.foreign.MemorySegment c = arena.allocate((long) n * Double.BYTES, 8);
                int[] pad = halo.paddedExtents();
                forEachCell(pad, x -> {
                    boolean inside = x[0] >= 1 && x[0] < pad[0] - 1 && x[1] >= 1 && x[1] < pad[1] - 1 && x[2] >= 1 && x[2] < pad[2] - 1;
                    double v = inside ? value(globalOf(x, block, 1)) : SENTINEL;
                    int i = at(halo, x);
                    a[i] = v;
                    b[i] = inside ? (float) (v % 100_000) : -1f;
                    c.setAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, i, inside ? -v : SENTINEL);
                });
                halo.exchange(HaloExchange.Field.of(a), HaloExchange.Field.of(b), HaloExchange.Field.ofDoubles(c));
                forEachCell(pad, x -> {
                    int outside = 0;
                    for (int d = 0; d < 3; d++) {
                        outside += x[d] < 1 || x[d] >= pad[d] - 1 ? 1 : 0;
                    }
                    if (outside > 1) {
                        return;   // faces only: edges and corners are not filled
                    }
                    int[] g = globalOf(x, block, 1);
                    for (int d = 0; d < 3; d++) {
                        g[d] = Math.floorMod(g[d], global[d]);
                    }
                    int i = at(halo, x);
                    assertEquals(value(g), a[i], "double field");
                    assertEquals((float) (value(g) % 100_000), b[i], "float field");
                    assertEquals(-value(g), c.getAtIndex(java.lang.foreign.ValueLayout.JAVA_DOUBLE, i), "native field");
                });
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 4})
    void theExchangeNeverMatchesTheUsersReceivesOnTheGrid(int ranks) {
        new SmpJobRunner().run(ranks, world -> {
            CartComm grid = world.createCart(1, true);
            HaloExchange halo = HaloExchange.create(grid, new int[] {4}, 1, HaloExchange.Shape.FACES);
            java.util.List<dev.tessera.comm.Request> mine = new java.util.ArrayList<>();
            for (int tag = 0; tag < 4; tag++) {
                mine.add(grid.irecv(dev.tessera.comm.Buffer.of(new byte[1 << 10]), dev.tessera.comm.Comm.ANY_SOURCE, tag));
            }
            halo.exchange(new double[halo.length()]);
            grid.barrier();
            for (dev.tessera.comm.Request r : mine) {
                org.junit.jupiter.api.Assertions.assertFalse(r.test(), "a user receive on the grid matched a halo message");
                org.junit.jupiter.api.Assertions.assertTrue(r.cancel());
            }
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
