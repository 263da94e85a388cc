package dev.tessera.gpu.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorSpec;
import dev.tessera.gpu.Accelerators;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.ElementType;
import dev.tessera.grid.BlockDecomposition;
import dev.tessera.grid.HaloExchange;
import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The device halo exchange fills each ghost cell with the value of the global cell it
 * stands for (periodic in x, not in y and z: boundary ghosts keep their value; edges and
 * corners only with corners), on 1, 2 and 4 ranks, with faces cut into many chunks; and
 * device buffers travel between ranks in pipelined chunks.
 */
@Timeout(120)
class DeviceHaloExchangeTest {

    static Stream<Arguments> cases() {
        return Stream.of(Backend.OPENCL, Backend.CPU).flatMap(b -> Stream.of(1, 2, 4)
                .flatMap(r -> Stream.of(Arguments.of(b, r, false), Arguments.of(b, r, true))));
    }

    private static void requireBackend(Backend b) {
        assumeTrue(Accelerators.probe(b).isAvailable(), () -> b.id() + " unavailable here: "
                + Accelerators.probe(b).unavailableReason());
    }

    @ParameterizedTest(name = "{0}, {1} ranks, corners {2}")
    @MethodSource("cases")
    void ghostsHoldTheirNeighboursCells(Backend backend, int ranks, boolean corners) {
        requireBackend(backend);
        SmpJob.run(ranks, new String[] {"--threads", "1"}, Duration.ofSeconds(90), session -> {
            Comm world = session.world();
            CartComm grid = world.createCart(CartComm.dimsCreate(world.size(), new int[3]), new boolean[] {true, false, false},
                    false);
            BlockDecomposition block = BlockDecomposition.of(new int[] {10, 9, 13}, grid);
            int[] e = block.extent();
            int[] off = block.offset();
            int g = 2;
            int[] p = {e[0] + 2 * g, e[1] + 2 * g, e[2] + 2 * g};
            int[] global = {10, 9, 13};
            boolean[] periodic = {true, false, false};
            double[] field = new double[p[0] * p[1] * p[2]];
            double[] expected = new double[field.length];
            Random r = new Random(17 + world.rank());
            for (int i = 0; i < p[0]; i++) {
                for (int j = 0; j < p[1]; j++) {
                    for (int k = 0; k < p[2]; k++) {
                        int c = (i * p[1] + j) * p[2] + k;
                        int[] local = {i, j, k};
                        int[] gc = new int[3];
                        int ghostDims = 0;
                        boolean outside = false;
                        for (int d = 0; d < 3; d++) {
                            boolean ghostHere = local[d] < g || local[d] >= g + e[d];
                            ghostDims += ghostHere ? 1 : 0;
                            gc[d] = off[d] + local[d] - g;
                            if (gc[d] < 0 || gc[d] >= global[d]) {
                                if (periodic[d]) {
                                    gc[d] = Math.floorMod(gc[d], global[d]);
                                } else {
                                    outside = true;
                                }
                            }
                        }
                        if (ghostDims == 0) {
                            field[c] = value(gc);
                            expected[c] = field[c];
                        } else {
                            field[c] = -1 - r.nextDouble();
                            boolean filled = !outside && (corners || ghostDims == 1);
                            expected[c] = filled ? value(gc) : field[c];
                        }
                    }
                }
            }
            try (Accelerator acc = Accelerators.forRank(session, new AcceleratorSpec(backend, null));
                 // 40-byte chunks: every face travels in many pipelined pieces.
                 DeviceHaloExchange halo = DeviceHaloExchange.create(grid, acc, e, 2,
                         corners ? HaloExchange.Shape.FACES_EDGES_CORNERS : HaloExchange.Shape.FACES, 40)) {
                DeviceBuffer u = acc.copyOf(field);
                for (int step = 0; step < 2; step++) {
                    Event ghosts = halo.begin(u).finish();
                    ghosts.await();
                }
                double[] got = new double[field.length];
                acc.defaultQueue().read(u, got);
                assertArrayEquals(expected, got, 0.0, "rank " + world.rank());
            }
        });
    }

    /** The field's value at global cell gc: distinct for every cell. */
    private static double value(int[] gc) {
        return gc[0] * 10_000 + gc[1] * 100 + gc[2] + 0.5;
    }

    static Stream<Arguments> messaging() {
        return Stream.of(Arguments.of(Backend.OPENCL, 40L), Arguments.of(Backend.OPENCL, 1L << 20),
                Arguments.of(Backend.CPU, 4096L));
    }

    @ParameterizedTest(name = "{0}, chunks of {1} B")
    @MethodSource("messaging")
    void deviceBuffersTravelBetweenRanksInChunks(Backend backend, long chunk) {
        requireBackend(backend);
        int n = 50_001;
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(90), session -> {
            Comm world = session.world();
            try (Accelerator acc = Accelerators.forRank(session, new AcceleratorSpec(backend, null));
                 DeviceMessaging m = new DeviceMessaging(world, acc, chunk)) {
                DeviceBuffer b = acc.allocate(ElementType.DOUBLE, n);
                if (world.rank() == 0) {
                    double[] data = new double[n];
                    for (int i = 0; i < n; i++) {
                        data[i] = i * 1.25;
                    }
                    acc.defaultQueue().write(data, b);
                    m.send(b, 1, 7);
                    m.send(b, 10, 5, 1, 8);
                } else {
                    m.recv(b, 0, 7);
                    double[] got = new double[n];
                    acc.defaultQueue().read(b, got);
                    for (int i = 0; i < n; i++) {
                        if (got[i] != i * 1.25) {
                            throw new AssertionError("element " + i + " is " + got[i]);
                        }
                    }
                    m.recv(b, 0, 5, 0, 8);
                    double[] head = new double[5];
                    acc.defaultQueue().read(b, 0, head, 0, 5);
                    assertArrayEquals(new double[] {12.5, 13.75, 15, 16.25, 17.5}, head);
                }
            }
        });
    }
}
