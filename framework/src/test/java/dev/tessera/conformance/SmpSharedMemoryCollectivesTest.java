package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The smp device's shared-memory collectives (docs/collectives.md, "Shared-memory collectives"):
 * ranks that are threads of one JVM run the same slot protocol as shm ranks, in a region of the
 * JVM's memory. The covered collectives take it and give the right answers (with more ranks than
 * cores, as on a two-core machine at 3 and 4 ranks, the waits park and publishers unpark them);
 * {@code tessera.smp.coll=off} restores the point-to-point algorithms; two-rank reduce (from 128 KiB),
 * allgather and alltoall (from 32 KiB blocks) go point to point (one copy on smp) while bcast stays in the
 * slots; and a rank that ends without the call another waits in is a mismatch, not a hang.
 */
@Timeout(120)
class SmpSharedMemoryCollectivesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void everyCoveredCollectiveTakesTheSharedMemoryPath(int ranks) {
        new SmpJobRunner().run(ranks, world -> SharedMemoryCollectivesTest.everyCollective(world, true));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void smallAndSlotReductionsFoldInTheSameOrder(int ranks) {
        new SmpJobRunner().run(ranks, SharedMemoryCollectivesTest::foldOrder);
    }

    @Test
    void withTheSwitchOffTheSameCallsTakeThePointToPointPath() {
        String before = System.getProperty("tessera.smp.coll");
        System.setProperty("tessera.smp.coll", "off");   // read when a job's first collective creates its region
        try {
            new SmpJobRunner().run(3, world -> SharedMemoryCollectivesTest.everyCollective(world, false));
        } finally {
            if (before == null) {
                System.clearProperty("tessera.smp.coll");
            } else {
                System.setProperty("tessera.smp.coll", before);
            }
        }
    }

    /** Two ranks: reduce of 256 KiB, allgather and alltoall of 64 KiB blocks go point to point; a 256 KiB bcast through the slots. */
    @Test
    void twoRanksGoPointToPointExceptBcast() {
        new SmpJobRunner().run(2, world -> {
            int me = world.rank();
            int n = 16 * 1024;   // 64 KiB of floats or ints
            long single = world.singleCopyCollectiveCalls();
            long shared = world.sharedMemoryCollectiveCalls();

            float[] x = new float[4 * n];   // 256 KiB: reduce goes point to point from 128 KiB
            float[] r = new float[4 * n];
            for (int i = 0; i < x.length; i++) {
                x[i] = me == 0 ? i : 0.5f;
            }
            world.reduce(Buffer.of(x), Buffer.of(r), Op.SUM, 1);
            for (int i = 0; me == 1 && i < r.length; i++) {
                assertEquals(i + 0.5f, r[i], "reduce element " + i);
            }
            assertEquals(single + 1, world.singleCopyCollectiveCalls(), "reduce of 256 KiB point to point");

            int[] mine = new int[n];
            java.util.Arrays.fill(mine, 7 + me);
            int[] all = new int[2 * n];
            world.allgather(Buffer.of(mine), Buffer.of(all));
            for (int i = 0; i < 2 * n; i++) {
                assertEquals(7 + i / n, all[i], "allgather element " + i);
            }
            int[] out = new int[2 * n];
            int[] in = new int[2 * n];
            for (int i = 0; i < 2 * n; i++) {
                out[i] = 1000 * me + i / n;   // block j to rank j
            }
            world.alltoall(Buffer.of(out), Buffer.of(in));
            for (int i = 0; i < 2 * n; i++) {
                assertEquals(1000 * (i / n) + me, in[i], "alltoall element " + i);
            }
            assertEquals(single + 3, world.singleCopyCollectiveCalls(), "allgather and alltoall of 64 KiB blocks");

            int[] big = new int[64 * 1024];
            for (int i = 0; me == 0 && i < big.length; i++) {
                big[i] = i * 3 + 1;
            }
            world.bcast(Buffer.of(big), 0);
            for (int i = 0; i < big.length; i++) {
                assertEquals(i * 3 + 1, big[i], "bcast element " + i);
            }
            assertEquals(single + 3, world.singleCopyCollectiveCalls(), "a bcast does not go point to point on smp");
            assertEquals(shared + 1, world.sharedMemoryCollectiveCalls(), "the bcast went through the slots, the others not");
        });
    }

    /**
     * Four ranks: an alltoall of 64 KiB blocks (256 KiB per rank) goes through the slots in chunks where
     * the waits block (more ranks than cores, as on a two-core machine), one of 128 KiB blocks goes
     * pairwise point to point, where smp copies each block once (AlltoallDecision.ONE_COPY_CHUNKS_MAX).
     */
    @Test
    void fourRanksAlltoallInChunksOnlyUpTo256KiBPerRank() {
        boolean blocking = Runtime.getRuntime().availableProcessors() < 4;   // TESSERA_WAIT=auto
        new SmpJobRunner().run(4, world -> {
            int me = world.rank();
            for (int block : new int[] {16 * 1024, 32 * 1024}) {   // ints: 64 KiB and 128 KiB
                int[] out = new int[4 * block];
                int[] in = new int[4 * block];
                for (int i = 0; i < out.length; i++) {
                    out[i] = 1_000_000 * me + i;   // block i / block to rank i / block
                }
                long shared = world.sharedMemoryCollectiveCalls();
                world.alltoall(Buffer.of(out), Buffer.of(in));
                for (int j = 0; j < 4; j++) {
                    for (int i = 0; i < block; i++) {
                        assertEquals(1_000_000 * j + me * block + i, in[j * block + i], "block from rank " + j);
                    }
                }
                boolean chunks = blocking && block == 16 * 1024;
                assertEquals(shared + (chunks ? 1 : 0), world.sharedMemoryCollectiveCalls(),
                        (4 * block) + " B blocks through the slots in chunks");
            }
        });
    }

    /** Calls in the lane entries, middle slots, data slots and chunks, mixed, on the smp device's region. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 4})
    void everyTierMixed(int ranks) {
        new SmpJobRunner().run(ranks, SharedMemoryCollectivesTest::mixedTiers);
    }

    /** Many small calls with rotating roots on every rank count: the lanes are reused in order. */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void manySmallCallsInOrder(int ranks) {
        new SmpJobRunner().run(ranks, world -> {
            int p = world.size();
            int me = world.rank();
            for (int i = 0; i < 2000; i++) {
                long[] v = {me == i % p ? i : -1};
                world.bcast(Buffer.of(v), i % p);
                assertEquals(i, v[0], "bcast " + i);
                double[] s = {me + i};
                double[] t = {-1};
                world.reduce(Buffer.of(s), Buffer.of(t), Op.SUM, (i + 1) % p);
                if (me == (i + 1) % p) {
                    assertEquals((double) p * i + p * (p - 1) / 2.0, t[0], "reduce " + i);
                }
            }
        });
    }

    /**
     * A rank that aborts the job while the others sleep in a collective wait (three ranks on a
     * two-core machine park for up to 100 ms at a time), and stays in its call without closing, ends
     * the job with its error, not a hang: the waits check the job's state (after every park). The
     * aborting rank returns only once both others have left their bcast, so no closed session tells
     * them. (Without any check in the wait the job hangs to its 15 s limit.)
     */
    @Test
    void aRankThatAbortsWhileOthersSleepInACollectiveEndsTheJob() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() < 3,
                "three smp ranks park in their waits only where they outnumber the cores");
        java.util.concurrent.CountDownLatch left = new java.util.concurrent.CountDownLatch(2);
        AssertionError e = assertThrows(AssertionError.class, () -> new SmpJobRunner(15, dev.tessera.comm.ThreadLevel.FUNNELED)
                .run(3, (Comm world) -> {
                    world.barrier();
                    if (world.rank() == 2) {
                        Thread.sleep(500);   // the others are asleep in the bcast by then (passes either way)
                        RuntimeException abort = RankSessions.current().abort(3, "rank 2 gives up");
                        left.await();
                        throw abort;
                    }
                    try {
                        world.bcast(Buffer.of(new int[1]), 2);
                    } finally {
                        left.countDown();
                    }
                }));
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        assertTrue(text.toString().contains("rank 2 gives up"), text.toString());
        assertTrue(!text.toString().contains("did not finish"), text.toString());
    }

    /** Rank 1 ends without the bcast rank 0 waits in: a mismatch error naming both ranks, not a hang. */
    @Test
    void aRankThatEndsWithoutTheCallIsAMismatch() {
        AssertionError e = assertThrows(AssertionError.class, () -> new SmpJobRunner(60, dev.tessera.comm.ThreadLevel.FUNNELED)
                .run(2, (Comm world) -> {
                    world.barrier();
                    if (world.rank() == 0) {
                        world.bcast(Buffer.of(new int[1]), 1);
                    }
                }));
        StringWriter text = new StringWriter();
        e.printStackTrace(new PrintWriter(text));
        assertTrue(text.toString().contains("ranks disagree on the collective call: rank 0 made Comm.bcast"), text.toString());
        assertTrue(text.toString().contains("but rank 1 made no such call before it closed"), text.toString());
    }
}
