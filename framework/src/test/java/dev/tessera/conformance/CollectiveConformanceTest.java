package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Data-movement collectives, every algorithm, every root, odd rank counts, against sequential references. */
@Timeout(180)
class CollectiveConformanceTest {

    static final List<Integer> RANKS = List.of(1, 2, 3, 4, 7);

    static Stream<Arguments> runnersAndRanks() {
        return Runners.withNativeCollectives().stream().flatMap(r -> RANKS.stream().filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    /** Each runner and rank count with the algorithms it runs, checked one after the other in one job. */
    static Stream<Arguments> cases(String... algorithms) {
        return ForcedAlgorithms.cases(Runners.withNativeCollectives(), RANKS, algorithms);
    }

    static Stream<Arguments> bcastCases() {
        return cases("auto", "binomial", "scatter_allgather");
    }

    static Stream<Arguments> gatherCases() {
        return cases("auto", "binomial", "linear");
    }

    static Stream<Arguments> allgatherCases() {
        return cases("auto", "bruck", "ring");
    }

    static Stream<Arguments> alltoallCases() {
        return cases("auto", "pairwise", "linear");
    }

    static double element(int rank, int i) {
        return rank * 1000.0 + i;
    }

    /** One job checks up to 3 algorithms: the job time limit and this one are 3 times a single job's (90 s). */
    @Timeout(300)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("bcastCases")
    void bcastCopiesTheRootsBufferEverywhere(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("bcast"), algorithm -> {
            for (int root = 0; root < world.size(); root++) {
                for (int n : new int[] {0, 1, 6, 5000}) {
                    double[] data = new double[n];
                    if (world.rank() == root) {
                        for (int i = 0; i < n; i++) {
                            data[i] = element(root, i);
                        }
                    }
                    world.bcast(Buffer.of(data), root);
                    for (int i = 0; i < n; i++) {
                        assertEquals(element(root, i), data[i], "root " + root + " n " + n);
                    }
                }
            }
            boolean[] flags = {world.rank() == 0, true, false};
            world.bcast(Buffer.of(flags), 0);
            assertArrayEquals(new boolean[] {true, true, false}, flags);
        }));
    }

    /** One job checks up to 3 algorithms: the job time limit and this one are 3 times a single job's (90 s). */
    @Timeout(300)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("gatherCases")
    void gatherAndScatterMoveBlockIToAndFromRankI(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("gather", "scatter"), algorithm -> {
            int p = world.size();
            int block = 3;
            for (int root = 0; root < p; root++) {
                int[] mine = {world.rank(), world.rank() * 10, root};
                int[] all = new int[p * block];
                world.gather(Buffer.of(mine), world.rank() == root ? Buffer.of(all) : null, root);
                if (world.rank() == root) {
                    for (int r = 0; r < p; r++) {
                        assertArrayEquals(new int[] {r, r * 10, root}, java.util.Arrays.copyOfRange(all, r * block, r * block + block));
                    }
                }
                int[] source = new int[p * block];
                if (world.rank() == root) {
                    for (int i = 0; i < source.length; i++) {
                        source[i] = i * 7 + root;
                    }
                }
                int[] got = new int[block];
                world.scatter(world.rank() == root ? Buffer.of(source) : null, Buffer.of(got), root);
                for (int i = 0; i < block; i++) {
                    assertEquals((world.rank() * block + i) * 7 + root, got[i]);
                }
            }
        }));
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void vVariantsHonourCountsAndDisplacementsAndLeaveGapsAlone(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            int[] counts = new int[p];
            int[] displs = new int[p];
            int offset = 0;
            for (int r = 0; r < p; r++) {
                counts[r] = r + 1;
                displs[r] = offset + 1;          // one-element gap before each block
                offset += counts[r] + 1;
            }
            long[] mine = new long[me + 1];
            java.util.Arrays.fill(mine, me + 100);
            int root = p - 1;
            long[] gathered = new long[offset];
            java.util.Arrays.fill(gathered, -1);
            world.gatherv(Buffer.of(mine), me == root ? Buffer.of(gathered) : null, counts, displs, root);
            long[] everywhere = new long[offset];
            java.util.Arrays.fill(everywhere, -1);
            world.allgatherv(Buffer.of(mine), Buffer.of(everywhere), counts, displs);
            for (int r = 0; r < p; r++) {
                assertEquals(-1, everywhere[displs[r] - 1], "gap before block " + r);
                for (int i = 0; i < counts[r]; i++) {
                    assertEquals(r + 100, everywhere[displs[r] + i]);
                    if (me == root) {
                        assertEquals(r + 100, gathered[displs[r] + i]);
                    }
                }
            }
            long[] back = new long[me + 1];
            world.scatterv(me == root ? Buffer.of(everywhere) : null, counts, displs, Buffer.of(back), root);
            assertArrayEquals(mine, back);
            // alltoallv: rank i sends (i + j + 1) elements to rank j.
            int[] sc = new int[p];
            int[] sd = new int[p];
            int[] rc = new int[p];
            int[] rd = new int[p];
            int so = 0;
            int ro = 0;
            for (int j = 0; j < p; j++) {
                sc[j] = me + j + 1;
                sd[j] = so;
                so += sc[j];
                rc[j] = j + me + 1;
                rd[j] = ro;
                ro += rc[j];
            }
            int[] send = new int[so];
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < sc[j]; i++) {
                    send[sd[j] + i] = me * 10_000 + j * 100 + i;
                }
            }
            int[] recv = new int[ro];
            world.alltoallv(Buffer.of(send), sc, sd, Buffer.of(recv), rc, rd);
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < rc[j]; i++) {
                    assertEquals(j * 10_000 + me * 100 + i, recv[rd[j] + i]);
                }
            }
        });
    }

    /** One job checks up to 3 algorithms: the job time limit and this one are 3 times a single job's (90 s). */
    @Timeout(300)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("allgatherCases")
    void allgatherAssemblesEveryBlockEverywhere(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("allgather"), algorithm -> {
            int p = world.size();
            for (int block : new int[] {0, 1, 4, 3000}) {
                double[] mine = new double[block];
                for (int i = 0; i < block; i++) {
                    mine[i] = element(world.rank(), i);
                }
                double[] all = new double[p * block];
                world.allgather(Buffer.of(mine), Buffer.of(all));
                double[] inPlace = new double[p * block];
                System.arraycopy(mine, 0, inPlace, world.rank() * block, block);
                world.allgather(Buffer.of(inPlace));
                for (int r = 0; r < p; r++) {
                    for (int i = 0; i < block; i++) {
                        assertEquals(element(r, i), all[r * block + i]);
                        assertEquals(element(r, i), inPlace[r * block + i]);
                    }
                }
            }
        }));
    }

    /** One job checks up to 3 algorithms: the job time limit and this one are 3 times a single job's (90 s). */
    @Timeout(300)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("alltoallCases")
    void alltoallTransposesBlocks(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("alltoall"), algorithm -> {
            int p = world.size();
            for (int block : new int[] {1, 2, 500}) {
                long[] send = new long[p * block];
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < block; i++) {
                        send[j * block + i] = world.rank() * 1_000_000L + j * 1000L + i;
                    }
                }
                long[] recv = new long[p * block];
                world.alltoall(Buffer.of(send), Buffer.of(recv));
                for (int j = 0; j < p; j++) {
                    for (int i = 0; i < block; i++) {
                        assertEquals(j * 1_000_000L + world.rank() * 1000L + i, recv[j * block + i]);
                    }
                }
            }
        }));
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void noRankLeavesTheBarrierBeforeAllEntered(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int after = 77;
            for (int round = 0; round < 20; round++) {
                if (world.rank() == 0) {
                    for (int k = 0; k < 200; k++) {
                        assertTrue(world.iprobe(Comm.ANY_SOURCE, after).isEmpty(), "a rank left the barrier early");
                    }
                    world.barrier();
                    for (int r = 1; r < world.size(); r++) {
                        world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, after);
                    }
                } else {
                    world.barrier();
                    world.send(Buffer.of(new int[1]), 0, after);
                }
                world.barrier();
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void nonblockingCollectivesOverlapWithPointToPoint(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            double[] data = new double[1000];
            if (world.rank() == 0) {
                java.util.Arrays.fill(data, 3.5);
            }
            Request b = world.ibcast(Buffer.of(data), 0);
            long[] sum = new long[1];
            Request a = world.iallreduce(Buffer.of(new long[] {world.rank()}), Buffer.of(sum), Op.SUM);
            Request bar = world.ibarrier();
            int[] in = new int[1];
            world.sendrecv(Buffer.of(new int[] {world.rank()}), (world.rank() + 1) % p, 5,
                    Buffer.of(in), (world.rank() - 1 + p) % p, 5);
            Request.waitAll(b, a, bar);
            assertEquals((world.rank() - 1 + p) % p, in[0]);
            assertEquals(3.5, data[999]);
            assertEquals(p * (p - 1L) / 2, sum[0]);
            assertTrue(a.toFuture().get().source() == Comm.PROC_NULL);
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void objectCollectivesCarrySerializableValues(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            String hello = world.bcastObject(world.rank() == 0 ? "hello" : null, 0);
            assertEquals("hello", hello);
            List<String> names = world.gatherObject("r" + world.rank(), p - 1);
            if (world.rank() == p - 1) {
                List<String> expected = new ArrayList<>();
                for (int r = 0; r < p; r++) {
                    expected.add("r" + r);
                }
                assertEquals(expected, names);
            } else {
                assertNull(names);
            }
            List<Integer> all = world.allgatherObject(world.rank() * 2);
            assertEquals(p, all.size());
            assertEquals(2 * (p - 1), all.get(p - 1));
            List<List<Integer>> parts = new ArrayList<>();
            for (int r = 0; r < p; r++) {
                parts.add(List.of(r, r));
            }
            assertEquals(List.of(world.rank(), world.rank()), world.scatterObject(world.rank() == 0 ? parts : null, 0));
            String concatenated = world.allreduceObject(Integer.toString(world.rank()), String::concat);
            StringBuilder expected = new StringBuilder();
            for (int r = 0; r < p; r++) {
                expected.append(r);
            }
            assertEquals(expected.toString(), concatenated);
            String atRoot = world.reduceObject("x", String::concat, 0);
            assertEquals(world.rank() == 0 ? "x".repeat(p) : null, atRoot);
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void badArgumentsAreClearErrors(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            TesseraException e = assertThrows(TesseraException.class, () -> world.bcast(Buffer.of(new int[1]), world.size()));
            assertEquals(ErrorClass.ROOT, e.errorClass());
            assertTrue(e.getMessage().contains("rank " + world.rank() + ": Comm.bcast"), e.getMessage());
            e = assertThrows(TesseraException.class, () -> world.allreduce(Buffer.of(new int[2]), Buffer.of(new int[3]), Op.SUM));
            assertEquals(ErrorClass.COUNT, e.errorClass());
            e = assertThrows(TesseraException.class, () -> world.allreduce(Buffer.of(new double[2]), Buffer.of(new double[2]), Op.BAND));
            assertEquals(ErrorClass.OP, e.errorClass());
            if (world.size() > 1) {
                e = assertThrows(TesseraException.class, () -> world.allgather(Buffer.of(new int[world.size() + 1])));
                assertEquals(ErrorClass.COUNT, e.errorClass());
                world.tuning().force("allreduce", "no_such_algorithm");
                e = assertThrows(TesseraException.class, () -> world.allreduce(Buffer.of(new int[1]), Op.SUM));
                assertEquals(ErrorClass.ARG, e.errorClass());
                assertTrue(e.getMessage().contains("no_such_algorithm"), e.getMessage());
                world.tuning().force("allreduce", null);
            }
            world.barrier();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.tessera.conformance.PointToPointConformanceTest#runners")
    void ranksThatDisagreeOnCountsGetAnErrorNotAHang(JobRunner runner) {
        AssertionError e = assertThrows(AssertionError.class, () -> runner.run(3, world -> {
            int n = world.rank() == 0 ? 8 : 4;
            world.allreduce(Buffer.of(new int[n]), Buffer.of(new int[n]), Op.SUM);
        }));
        assertTrue(String.valueOf(e.getMessage()).contains("disagree") || String.valueOf(e.getCause()).contains("disagree"),
                String.valueOf(e));
    }
}
