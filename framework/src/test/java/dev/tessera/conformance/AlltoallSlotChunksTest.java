package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Alltoall larger than one slot of the shm device's shared-memory collectives through the slots
 * in chunks, and alltoallv of two ranks through the slots, switched on here
 * (-Dtessera.alltoall.slotChunksMax, -Dtessera.alltoallv.pairSlotsMax): with 64-byte slots,
 * blocks that end inside, at and just past a chunk boundary arrive whole at 2, 3 and 4 ranks,
 * each call counts as one shared-memory call, and slots are reused across many chunks; at the
 * default slot size a 100 KiB-per-rank call of two ranks takes the chunks when asked for, one of
 * four spinning ranks only with -Dtessera.alltoall.slotChunksRanks=4, and without the switches
 * two spinning ranks and ranks whose waits sleep take the chunks up to 4 MiB per rank; alltoallv of two ranks is right whichever direction is longer; blocks
 * or counts the ranks disagree on are a mismatch, not a hang or a wrong answer.
 */
@Timeout(120)
class AlltoallSlotChunksTest {

    private static final String CHUNKS_ON = "-Dtessera.alltoall.slotChunksMax=262144";
    private static final String PAIR_ON = "-Dtessera.alltoallv.pairSlotsMax=262144";
    /** Two spinning ranks send blocks of 16 KiB-2 MiB point to point by single copy unless this keeps them in the slots (PairCopyDecision). */
    private static final String SLOTS = "-Dtessera.shm.coll.singleCopy=off";

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void blocksLargerThanASlotArriveWhole(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll.slotBytes=64",
                CHUNKS_ON, "-Dtessera.alltoall.slotChunksRanks=4"))
                .run(ranks, world -> {
                    for (int block : new int[] {1, 15, 16, 17, 33, 100, 1000}) {
                        transposeAndCheck(world, block, true);
                    }
                });
    }

    @Test
    void aLargeCallAtTheDefaultSlotSizeTakesTheChunksWithTwoRanks() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of(CHUNKS_ON, SLOTS)).run(2, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3, true);
            transposeAndCheck(world, 7, true);
        });
    }

    @Test
    void withFourSpinningRanksALargeCallTakesThePointToPointPathUnlessAskedFor() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of(CHUNKS_ON, "-Dtessera.wait=spin")).run(4, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3, false);
            transposeAndCheck(world, 7, true);
        });
    }

    @Test
    void ranksWhoseWaitsSleepTakeTheChunksByDefaultUpToFourMiB() {
        // -Dtessera.wait=block: what an oversubscribed node chooses by itself (more ranks than cores)
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=block")).run(4, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3, true);
            transposeAndCheck(world, (4 << 20) / 4 / world.size(), true);        // 4 MiB per rank: the limit
            transposeAndCheck(world, (4 << 20) / 4 / world.size() + 1, false);   // past it: point to point
        });
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=block")).run(2, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3, true);
        });
    }

    @Test
    void byDefaultTwoSpinningRanksTakeTheChunksUpToFourMiBPerRank() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=spin", SLOTS)).run(2, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3, true);
            transposeAndCheck(world, (4 << 20) / 4 / world.size(), true);        // 4 MiB per rank: the limit
            transposeAndCheck(world, (4 << 20) / 4 / world.size() + 1, false);   // past it: point to point
            transposeAndCheck(world, 7, true);
            int[] counts = {5000, 5000};
            int[] displs = {0, 5000};
            long before = world.sharedMemoryCollectiveCalls();
            world.alltoallv(Buffer.of(new int[10_000]), counts, displs, Buffer.of(new int[10_000]), counts, displs);
            assertEquals(before, world.sharedMemoryCollectiveCalls(), "a 20 KB alltoallv of two ranks takes the point-to-point path");
        });
    }

    @Test
    void blocksOfDifferentSizesAreAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.shm.coll.slotBytes=64", CHUNKS_ON)).launch(2, world -> {
                    int block = world.rank() == 0 ? 40 : 41;
                    world.alltoall(Buffer.of(new int[2 * block]), Buffer.of(new int[2 * block]));
                    world.barrier();
                }, List.of());
        assertMismatchNaming(r, "Comm.alltoall");
    }

    @Test
    void alltoallvOfTwoRanksGoesThroughTheSlotsInEitherDirectionsLength() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll.slotBytes=64", PAIR_ON))
                .run(2, world -> {
                    int me = world.rank();
                    // {rank 0 -> 1, rank 1 -> 0} element counts: longer one way, the other, equal, empty, one empty
                    int[][] cases = {{100, 37}, {5, 64}, {16, 16}, {0, 0}, {0, 33}, {1, 0}};
                    for (int[] c : cases) {
                        int own = 3 + me;
                        int toOther = c[me];
                        int fromOther = c[1 - me];
                        int[] send = new int[own + toOther];
                        int[] sendCounts = new int[2];
                        int[] sendDispls = new int[2];
                        int[] recvCounts = new int[2];
                        int[] recvDispls = new int[2];
                        // own block first, the other's block after it, on the send side; the other way round on the receive side
                        sendCounts[me] = own;
                        sendCounts[1 - me] = toOther;
                        sendDispls[me] = 0;
                        sendDispls[1 - me] = own;
                        recvCounts[me] = own;
                        recvCounts[1 - me] = fromOther;
                        recvDispls[1 - me] = 0;
                        recvDispls[me] = fromOther;
                        for (int i = 0; i < own; i++) {
                            send[i] = me * 1000 + i;
                        }
                        for (int i = 0; i < toOther; i++) {
                            send[own + i] = 500_000 + me * 100_000 + i;
                        }
                        int[] recv = new int[own + fromOther];
                        long before = world.sharedMemoryCollectiveCalls();
                        world.alltoallv(Buffer.of(send), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
                        assertEquals(before + 1, world.sharedMemoryCollectiveCalls(), "one shared-memory call");
                        for (int i = 0; i < fromOther; i++) {
                            assertEquals(500_000 + (1 - me) * 100_000 + i, recv[i], "element " + i + " from the other rank, case "
                                    + c[0] + "/" + c[1] + " on rank " + me);
                        }
                        for (int i = 0; i < own; i++) {
                            assertEquals(me * 1000 + i, recv[fromOther + i], "own element " + i);
                        }
                    }
                });
    }

    @Test
    void alltoallvCountsThatDisagreeAreAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.shm.coll.slotBytes=64", PAIR_ON)).launch(2, world -> {
                    // rank 0 sends 20 and expects 20; rank 1 sends 20 but expects 30: the directions disagree
                    int expect = world.rank() == 0 ? 20 : 30;
                    int[] sc = {0, 0};
                    int[] rc = {0, 0};
                    sc[1 - world.rank()] = 20;
                    rc[1 - world.rank()] = expect;
                    world.alltoallv(Buffer.of(new int[20]), sc, new int[2], Buffer.of(new int[30]), rc, new int[2]);
                    world.barrier();
                }, List.of());
        assertMismatchNaming(r, "Comm.alltoallv");
    }

    /** The job failed with the agreement check's error naming {@code call}, every rank stopping by itself. */
    private static void assertMismatchNaming(ProcessJobRunner.Result r, String call) {
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        assertTrue(r.output().contains(call), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /**
     * One alltoall of {@code block} ints per rank pair, checked element by element, counted as one
     * shared-memory call if {@code slots}, else as none.
     */
    static void transposeAndCheck(Comm world, int block, boolean slots) {
        int p = world.size();
        int me = world.rank();
        int[] send = new int[p * block];
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < block; i++) {
                send[j * block + i] = me * 10_000_000 + j * 100_000 + i;   // to rank j
            }
        }
        int[] recv = new int[p * block];
        long before = world.sharedMemoryCollectiveCalls();
        world.alltoall(Buffer.of(send), Buffer.of(recv));
        assertEquals(before + (slots ? 1 : 0), world.sharedMemoryCollectiveCalls(),
                "block of " + block + " ints: shared-memory calls");
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < block; i++) {
                assertEquals(j * 10_000_000 + me * 100_000 + i, recv[j * block + i],
                        "block of " + block + " ints, element " + i + " from rank " + j + " on rank " + me);
            }
        }
    }
}
