package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Op;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reductions: every op on every type, every algorithm, against a sequential reference in rank order. */
@Timeout(180)
class ReductionConformanceTest {

    static final List<Integer> RANKS = List.of(1, 2, 3, 4, 7);

    /** Every allreduce algorithm each runner runs, checked one after the other in one job per runner and rank count. */
    static Stream<Arguments> allreduceCases() {
        return ForcedAlgorithms.cases(Runners.withNativeCollectives(), RANKS, "auto", "recursive_doubling", "rabenseifner", "ring")
                .filter(a -> runs((JobRunner) a.get()[0], (Integer) a.get()[1]));
    }

    static Stream<Arguments> runnersAndRanks() {
        return Runners.withNativeCollectives().stream().flatMap(r -> RANKS.stream().filter(n -> runs(r, n)).map(n -> Arguments.of(r, n)));
    }

    /**
     * Seven ranks only where the ranks share memory (smp, shm): over tcp and auto a seven-process
     * job of this suite took 50 s of the CI's two cores (stop 50: 96 s of the suite's 328), and the
     * reduction algorithms are the same code on every device; seven tcp and auto ranks stay in
     * {@link CollectiveConformanceTest} and {@link CommunicatorConformanceTest}.
     */
    static boolean runs(JobRunner r, int ranks) {
        return r.runs(ranks) && (ranks < 7 || !(r.device().equals("tcp") || r.device().equals("auto")));
    }

    /** Vector lengths: empty, shorter than p, odd, and long enough for the long-vector algorithms. */
    static final int[] LENGTHS = {0, 1, 5, 1000, 3000};

    /** One job checks up to 4 algorithms: the job time limit and this one are 4 times a single job's (90 s). */
    @Timeout(400)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("allreduceCases")
    void allreduceMatchesReferenceForEveryOpAndType(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("allreduce"), algorithm -> {
            for (String op : TypedValues.OPS) {
                for (Datatype t : TypedValues.TYPES) {
                    if (!TypedValues.applicable(op, t)) {
                        continue;
                    }
                    for (int n : LENGTHS) {
                        Object out = TypedValues.array(t, n);
                        world.allreduce(TypedValues.buffer(t, TypedValues.contribution(op, world.rank(), n)),
                                TypedValues.wrap(out), TypedValues.op(op));
                        long[] got = TypedValues.read(out);
                        for (int i = 0; i < n; i++) {
                            assertEquals(TypedValues.reference(op, t, 0, world.size(), i), got[i],
                                    algorithm + ": " + op + " " + t + " n=" + n + " i=" + i);
                        }
                    }
                }
            }
        }));
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void reduceToEveryRootMatchesReference(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            for (int root = 0; root < world.size(); root++) {
                for (String op : new String[] {"SUM", "PROD", "MAX", "BXOR", "LOR"}) {
                    for (Datatype t : new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.BYTE, Datatype.LONG}) {
                        if (!TypedValues.applicable(op, t)) {
                            continue;
                        }
                        int n = 17;
                        Object out = TypedValues.array(t, n);
                        world.reduce(TypedValues.buffer(t, TypedValues.contribution(op, world.rank(), n)),
                                world.rank() == root ? TypedValues.wrap(out) : null, TypedValues.op(op), root);
                        if (world.rank() == root) {
                            long[] got = TypedValues.read(out);
                            for (int i = 0; i < n; i++) {
                                assertEquals(TypedValues.reference(op, t, 0, world.size(), i), got[i], op + " " + t);
                            }
                        }
                    }
                }
            }
        });
    }

    /** 2x2 integer matrices (4 longs each), multiplied mod 1000003: associative, not commutative. */
    static final Op MATMUL = Op.create((in, inout, count, type) -> {
        for (int m = 0; m < count; m += 4) {
            long[] a = new long[4];
            long[] b = new long[4];
            for (int k = 0; k < 4; k++) {
                a[k] = in.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, m + k);
                b[k] = inout.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, m + k);
            }
            long[] c = multiply(a, b);
            for (int k = 0; k < 4; k++) {
                inout.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, m + k, c[k]);
            }
        }
    }, false);

    static long[] multiply(long[] a, long[] b) {
        long mod = 1_000_003L;
        return new long[] {(a[0] * b[0] + a[1] * b[2]) % mod, (a[0] * b[1] + a[1] * b[3]) % mod,
            (a[2] * b[0] + a[3] * b[2]) % mod, (a[2] * b[1] + a[3] * b[3]) % mod};
    }

    static long[] matrices(int rank, int count) {
        long[] v = new long[4 * count];
        for (int m = 0; m < count; m++) {
            v[4 * m] = rank + m + 1;
            v[4 * m + 1] = 2 * rank + 1;
            v[4 * m + 2] = m % 3;
            v[4 * m + 3] = rank + 2;
        }
        return v;
    }

    static long[] orderedProduct(int from, int to, int count) {
        long[] acc = matrices(from, count);
        for (int r = from + 1; r < to; r++) {
            long[] next = matrices(r, count);
            for (int m = 0; m < count; m++) {
                long[] c = multiply(java.util.Arrays.copyOfRange(acc, 4 * m, 4 * m + 4),
                        java.util.Arrays.copyOfRange(next, 4 * m, 4 * m + 4));
                System.arraycopy(c, 0, acc, 4 * m, 4);
            }
        }
        return acc;
    }

    /** One job checks up to 4 algorithms: the job time limit and this one are 4 times a single job's (90 s). */
    @Timeout(400)
    @ParameterizedTest(name = "{0}: {1} ranks, {2}")
    @MethodSource("allreduceCases")
    void nonCommutativeOperationsCombineInRankOrder(JobRunner runner, int ranks, List<String> algorithms) {
        runner.withTimeLimitTimes(algorithms.size()).run(ranks, world -> ForcedAlgorithms.each(world, algorithms, List.of("allreduce"), algorithm -> {
            int p = world.size();
            int count = 300;
            long[] all = new long[4 * count];
            world.allreduce(Buffer.of(matrices(world.rank(), count)), Buffer.of(all), MATMUL);
            assertArrayEquals(orderedProduct(0, p, count), all, "allreduce");
            for (int root : new int[] {0, p - 1}) {
                long[] atRoot = new long[4 * count];
                world.reduce(Buffer.of(matrices(world.rank(), count)), Buffer.of(atRoot), MATMUL, root);
                if (world.rank() == root) {
                    assertArrayEquals(orderedProduct(0, p, count), atRoot, "reduce to " + root);
                }
            }
            long[] prefix = new long[4 * count];
            world.scan(Buffer.of(matrices(world.rank(), count)), Buffer.of(prefix), MATMUL);
            assertArrayEquals(orderedProduct(0, world.rank() + 1, count), prefix, "scan");
            long[] exclusive = new long[4 * count];
            world.exscan(Buffer.of(matrices(world.rank(), count)), Buffer.of(exclusive), MATMUL);
            if (world.rank() > 0) {
                assertArrayEquals(orderedProduct(0, world.rank(), count), exclusive, "exscan");
            } else {
                assertArrayEquals(new long[4 * count], exclusive, "exscan leaves rank 0 untouched");
            }
            long[] scattered = new long[4 * 2];
            world.reduceScatterBlock(Buffer.of(matrices(world.rank(), 2 * p)), Buffer.of(scattered), MATMUL);
            long[] full = orderedProduct(0, p, 2 * p);
            assertArrayEquals(java.util.Arrays.copyOfRange(full, 8 * world.rank(), 8 * world.rank() + 8), scattered,
                    "reduceScatterBlock");
        }));
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void scanAndExscanMatchPrefixSums(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            for (Datatype t : new Datatype[] {Datatype.INT, Datatype.DOUBLE, Datatype.SHORT}) {
                int n = 9;
                Object inclusive = TypedValues.array(t, n);
                world.scan(TypedValues.buffer(t, TypedValues.contribution("SUM", world.rank(), n)),
                        TypedValues.wrap(inclusive), Op.SUM);
                Object exclusive = TypedValues.array(t, n);
                world.exscan(TypedValues.buffer(t, TypedValues.contribution("SUM", world.rank(), n)),
                        TypedValues.wrap(exclusive), Op.SUM);
                long[] in = TypedValues.read(inclusive);
                long[] ex = TypedValues.read(exclusive);
                for (int i = 0; i < n; i++) {
                    assertEquals(TypedValues.reference("SUM", t, 0, world.rank() + 1, i), in[i]);
                    if (world.rank() > 0) {
                        assertEquals(TypedValues.reference("SUM", t, 0, world.rank(), i), ex[i]);
                    }
                }
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void minlocAndMaxlocKeepTheSmallestIndexOnTies(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int r = world.rank();
            double[] pairs = {r % 2, r, 10 - r, r};
            double[] min = new double[4];
            world.allreduce(Buffer.of(pairs), Buffer.of(min), Op.MINLOC);
            assertArrayEquals(new double[] {0, 0, 10 - (world.size() - 1), world.size() - 1}, min);
            int[] ipairs = {r % 2, r};
            int[] max = new int[2];
            world.allreduce(Buffer.of(ipairs), Buffer.of(max), Op.MAXLOC);
            assertArrayEquals(world.size() > 1 ? new int[] {1, 1} : new int[] {0, 0}, max);
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void reduceScatterVariantsMatchReference(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            for (String alg : new String[] {"ring", "reduce_scatter"}) {
                world.tuning().force("reduce_scatter_block", alg);
                int block = 3;
                int[] mine = new int[block];
                world.reduceScatterBlock(TypedValues.buffer(Datatype.INT, TypedValues.contribution("SUM", world.rank(), block * p)),
                        Buffer.of(mine), Op.SUM);
                for (int i = 0; i < block; i++) {
                    assertEquals(TypedValues.reference("SUM", Datatype.INT, 0, p, world.rank() * block + i), mine[i], alg);
                }
            }
            int[] counts = new int[p];
            int total = 0;
            for (int i = 0; i < p; i++) {
                counts[i] = i + 1;
                total += counts[i];
            }
            long[] mine = new long[world.rank() + 1];
            world.reduceScatter(Buffer.of(TypedValues.contribution("SUM", world.rank(), total)), Buffer.of(mine), counts, Op.SUM);
            int offset = world.rank() * (world.rank() + 1) / 2;
            for (int i = 0; i < mine.length; i++) {
                assertEquals(TypedValues.reference("SUM", Datatype.LONG, 0, p, offset + i), mine[i]);
            }
        });
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void inPlaceFormsAndScalarsWork(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            assertEquals(p * (p - 1) / 2.0, world.allreduce((double) world.rank(), Op.SUM));
            assertEquals(p - 1L, world.allreduce((long) world.rank(), Op.MAX));
            assertEquals(0, world.allreduce(world.rank(), Op.MIN));
            int[] v = {world.rank(), 1};
            world.allreduce(Buffer.of(v), Op.SUM);
            assertArrayEquals(new int[] {p * (p - 1) / 2, p}, v);
            long[] atRoot = {world.rank() + 1};
            world.reduce(Buffer.of(atRoot), Op.PROD, 0);
            if (world.rank() == 0) {
                long f = 1;
                for (int i = 1; i <= p; i++) {
                    f *= i;
                }
                assertEquals(f, atRoot[0]);
            }
            MemorySegment native1 = java.lang.foreign.Arena.ofAuto().allocate(8L * 4);
            for (int i = 0; i < 4; i++) {
                native1.setAtIndex(ValueLayout.JAVA_DOUBLE, i, world.rank() + i);
            }
            world.allreduce(Buffer.of(native1, Datatype.DOUBLE), Op.SUM);
            assertEquals(p * (p - 1) / 2.0 + 3.0 * p, native1.getAtIndex(ValueLayout.JAVA_DOUBLE, 3));
        });
    }
}
