package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.fail;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every reducing collective with vectors above each switch of the decision table and of the
 * devices (allreduce: 8 KiB to Rabenseifner, 1 MiB to the ring; ring and Rabenseifner blocks
 * of 64 KiB and more; the devices' eager limits and the shm single-copy threshold) up to
 * 3 MiB, checking every element, on every device and library. Each element's contributions
 * differ by rank and by index, so a skipped, repeated or misplaced combining step shows.
 */
@Timeout(180)
class LargeReductionConformanceTest {

    /** Element counts of longs: just above 8 KiB, blocks above 64 KiB at 4 ranks, just above 1 MiB, about 3 MiB (all odd). */
    static final int[] COUNTS = {1027, 40_003, 131_077, 393_223};

    static Stream<Arguments> cases() {
        return Runners.everyLibrary().stream().flatMap(r -> Stream.of(3, 4).filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    static long[] contribution(int rank, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = (rank + 1L) * (i % 1009 + 1) + i;
        }
        return v;
    }

    /** The sum over ranks [0, ranks) of {@link #contribution} at index i. */
    static long sum(int ranks, int i) {
        return (long) (i % 1009 + 1) * ranks * (ranks + 1) / 2 + (long) ranks * i;
    }

    static void check(String what, long[] got, int from, int ranks) {
        for (int i = 0; i < got.length; i++) {
            long want = sum(ranks, from + i);
            if (got[i] != want) {
                fail(what + ": element " + i + " of " + got.length + " is " + got[i] + ", expected " + want);
            }
        }
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("cases")
    void everyReductionIsRightInEveryElementAboveEverySwitch(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            for (String alg : new String[] {"auto", "recursive_doubling", "rabenseifner", "ring"}) {
                world.tuning().force("allreduce", alg.equals("auto") ? null : alg);
                for (int n : COUNTS) {
                    if (!alg.equals("auto") && n < 40_000) {
                        continue;
                    }
                    long[] out = new long[n];
                    world.allreduce(Buffer.of(contribution(me, n)), Buffer.of(out), Op.SUM);
                    check("allreduce " + alg + " n=" + n, out, 0, p);
                    long[] inPlace = contribution(me, n);
                    world.allreduce(Buffer.of(inPlace), Op.SUM);
                    check("in-place allreduce " + alg + " n=" + n, inPlace, 0, p);
                }
            }
            world.tuning().force("allreduce", null);
            for (int n : new int[] {40_003, 393_223}) {
                for (int root : new int[] {0, p - 1}) {
                    long[] out = new long[n];
                    world.reduce(Buffer.of(contribution(me, n)), Buffer.of(out), Op.SUM, root);
                    if (me == root) {
                        check("reduce to " + root + " n=" + n, out, 0, p);
                    }
                }
                long[] prefix = new long[n];
                world.scan(Buffer.of(contribution(me, n)), Buffer.of(prefix), Op.SUM);
                check("scan n=" + n, prefix, 0, me + 1);
                long[] exclusive = new long[n];
                world.exscan(Buffer.of(contribution(me, n)), Buffer.of(exclusive), Op.SUM);
                if (me > 0) {
                    check("exscan n=" + n, exclusive, 0, me);
                }
            }
            for (String alg : new String[] {"ring", "reduce_scatter"}) {
                world.tuning().force("reduce_scatter_block", alg);
                for (int block : new int[] {10_001, 98_307}) {
                    long[] mine = new long[block];
                    world.reduceScatterBlock(Buffer.of(contribution(me, block * p)), Buffer.of(mine), Op.SUM);
                    check("reduceScatterBlock " + alg + " block=" + block, mine, me * block, p);
                }
            }
            world.tuning().force("reduce_scatter_block", null);
            int[] counts = new int[p];
            int total = 0;
            int before = 0;
            for (int r = 0; r < p; r++) {
                counts[r] = 60_000 + 7 * r;
                if (r < me) {
                    before += counts[r];
                }
                total += counts[r];
            }
            long[] mine = new long[counts[me]];
            world.reduceScatter(Buffer.of(contribution(me, total)), Buffer.of(mine), counts, Op.SUM);
            check("reduceScatter", mine, before, p);
            nonCommutativeLongVector(world);
        });
    }

    /** A non-commutative operation (2x2 matrix product) over about 1.3 MiB keeps rank order in every element. */
    static void nonCommutativeLongVector(Comm world) {
        int p = world.size();
        int count = 41_000;
        long[] out = new long[4 * count];
        world.allreduce(Buffer.of(ReductionConformanceTest.matrices(world.rank(), count)), Buffer.of(out),
                ReductionConformanceTest.MATMUL);
        long[] want = ReductionConformanceTest.orderedProduct(0, p, count);
        for (int i = 0; i < want.length; i++) {
            if (want[i] != out[i]) {
                fail("non-commutative allreduce: element " + i + " is " + out[i] + ", expected " + want[i]);
            }
        }
        long[] prefix = new long[4 * count];
        world.scan(Buffer.of(ReductionConformanceTest.matrices(world.rank(), count)), Buffer.of(prefix),
                ReductionConformanceTest.MATMUL);
        want = ReductionConformanceTest.orderedProduct(0, world.rank() + 1, count);
        for (int i = 0; i < want.length; i++) {
            if (want[i] != prefix[i]) {
                fail("non-commutative scan: element " + i + " is " + prefix[i] + ", expected " + want[i]);
            }
        }
    }
}
