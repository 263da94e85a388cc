package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

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

/**
 * Every nonblocking collective gives what its blocking twin gives, on every device, with
 * all of them in flight at once on one communicator (started in the same order on every
 * rank, completed in another order), with an odd and an even number of ranks and a root
 * that is not rank 0.
 */
@Timeout(180)
class NonblockingCollectiveConformanceTest {

    static Stream<Arguments> runnersAndRanks() {
        return Runners.everyLibrary().stream().flatMap(r -> Stream.of(1, 3, 4).filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    /** Element i of rank r's contribution: distinct per rank and element, exact in double. */
    static double v(int r, int i) {
        return 1000.0 * (r + 1) + i;
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void everyNonblockingCollectiveMatchesItsBlockingTwin(JobRunner runner, int ranks) {
        runner.run(ranks, NonblockingCollectiveConformanceTest::allAtOnce);
    }

    static void allAtOnce(Comm world) {
        int p = world.size();
        int me = world.rank();
        int root = p - 1;
        int n = 5;
        double[] mine = new double[n];
        for (int i = 0; i < n; i++) {
            mine[i] = v(me, i);
        }
        double[] all = new double[n * p];
        for (int r = 0; r < p; r++) {
            for (int i = 0; i < n; i++) {
                all[r * n + i] = v(r, i);
            }
        }
        List<Request> requests = new ArrayList<>();
        double[] bcast = me == root ? mine.clone() : new double[n];
        requests.add(world.ibcast(Buffer.of(bcast), root));
        double[] gathered = new double[n * p];
        requests.add(world.igather(Buffer.of(mine), Buffer.of(gathered), root));
        double[] scattered = new double[n];
        requests.add(world.iscatter(Buffer.of(all), Buffer.of(scattered), root));
        double[] allgathered = new double[n * p];
        requests.add(world.iallgather(Buffer.of(mine), Buffer.of(allgathered)));
        // alltoall: block j of rank r's send holds r*100+j
        int[] out = new int[p];
        for (int j = 0; j < p; j++) {
            out[j] = me * 100 + j;
        }
        int[] in = new int[p];
        requests.add(world.ialltoall(Buffer.of(out), Buffer.of(in)));
        double[] reduced = new double[n];
        requests.add(world.ireduce(Buffer.of(mine), Buffer.of(reduced), Op.SUM, root));
        double[] allreduced = new double[n];
        requests.add(world.iallreduce(Buffer.of(mine), Buffer.of(allreduced), Op.MAX));
        double[] scanned = new double[n];
        requests.add(world.iscan(Buffer.of(mine), Buffer.of(scanned), Op.SUM));
        double[] exscanned = new double[n];
        requests.add(world.iexscan(Buffer.of(mine), Buffer.of(exscanned), Op.SUM));
        double[] rsBlock = new double[2];
        double[] rsSend = new double[2 * p];
        for (int i = 0; i < rsSend.length; i++) {
            rsSend[i] = me + i;
        }
        requests.add(world.ireduceScatterBlock(Buffer.of(rsSend), Buffer.of(rsBlock), Op.SUM));
        // v-variants: rank r contributes r+1 elements
        int[] counts = new int[p];
        int[] displs = new int[p];
        int total = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = r + 1;
            displs[r] = total;
            total += counts[r];
        }
        double[] vmine = new double[me + 1];
        java.util.Arrays.fill(vmine, me);
        double[] vgathered = new double[total];
        requests.add(world.igatherv(Buffer.of(vmine), Buffer.of(vgathered), counts, displs, root));
        double[] vallgathered = new double[total];
        requests.add(world.iallgatherv(Buffer.of(vmine), Buffer.of(vallgathered), counts, displs));
        double[] vscattered = new double[me + 1];
        double[] vsource = new double[total];
        for (int r = 0; r < p; r++) {
            java.util.Arrays.fill(vsource, displs[r], displs[r] + counts[r], 10 + r);
        }
        requests.add(world.iscatterv(Buffer.of(vsource), counts, displs, Buffer.of(vscattered), root));
        requests.add(world.ibarrier());
        // complete in reverse order: schedules must advance independently of each other
        for (int i = requests.size() - 1; i >= 0; i--) {
            requests.get(i).await();
        }

        assertArrayEquals(rootRow(root), bcast, "ibcast");
        if (me == root) {
            assertArrayEquals(all, gathered, "igather");
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(all, me * n, me * n + n), scattered, "iscatter");
        assertArrayEquals(all, allgathered, "iallgather");
        for (int j = 0; j < p; j++) {
            assertEquals(j * 100 + me, in[j], "ialltoall block " + j);
        }
        for (int i = 0; i < n; i++) {
            double sum = 0;
            double prefix = 0;
            double exclusive = 0;
            for (int r = 0; r < p; r++) {
                sum += v(r, i);
                if (r <= me) {
                    prefix += v(r, i);
                }
                if (r < me) {
                    exclusive += v(r, i);
                }
            }
            if (me == root) {
                assertEquals(sum, reduced[i], "ireduce");
            }
            assertEquals(v(p - 1, i), allreduced[i], "iallreduce MAX");
            assertEquals(prefix, scanned[i], "iscan");
            if (me > 0) {
                assertEquals(exclusive, exscanned[i], "iexscan");
            }
        }
        for (int k = 0; k < 2; k++) {
            double expected = 0;
            for (int r = 0; r < p; r++) {
                expected += r + me * 2 + k;
            }
            assertEquals(expected, rsBlock[k], "ireduceScatterBlock");
        }
        double[] vexpected = new double[total];
        for (int r = 0; r < p; r++) {
            java.util.Arrays.fill(vexpected, displs[r], displs[r] + counts[r], r);
        }
        if (me == root) {
            assertArrayEquals(vexpected, vgathered, "igatherv");
        }
        assertArrayEquals(vexpected, vallgathered, "iallgatherv");
        double[] vscatterExpected = new double[me + 1];
        java.util.Arrays.fill(vscatterExpected, 10 + me);
        assertArrayEquals(vscatterExpected, vscattered, "iscatterv");
    }

    private static double[] rootRow(int root) {
        double[] row = new double[5];
        for (int i = 0; i < 5; i++) {
            row[i] = v(root, i);
        }
        return row;
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void anAlltoallOverlapsComputationAndCompletesByTesting(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int p = world.size();
            long[] out = new long[p * 1000];
            for (int i = 0; i < out.length; i++) {
                out[i] = world.rank() * 1_000_000L + i;
            }
            long[] in = new long[out.length];
            Request r = world.ialltoall(Buffer.of(out), Buffer.of(in));
            double[] work = new double[1000];
            while (!r.test()) {
                for (int i = 0; i < work.length; i++) {
                    work[i] += Math.sqrt(i);   // the computation the transpose overlaps
                }
            }
            for (int j = 0; j < p; j++) {
                for (int i = 0; i < 1000; i++) {
                    assertEquals(j * 1_000_000L + world.rank() * 1000L + i, in[j * 1000 + i]);
                }
            }
        });
    }
}
