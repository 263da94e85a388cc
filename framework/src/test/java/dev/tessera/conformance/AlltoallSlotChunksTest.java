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
 * Alltoall larger than one slot of the shm device's shared-memory collectives goes through the
 * slots in chunks (up to 256 KiB per rank by default): with 64-byte slots, blocks that end
 * inside, at and just past a chunk boundary arrive whole at 2, 3 and 4 ranks, each call counts
 * as one shared-memory call, and slots are reused across many chunks; at the default slot size a
 * 100 KiB-per-rank call takes the chunks too; blocks of different sizes on different ranks are a
 * mismatch, not a hang or a wrong answer.
 */
@Timeout(120)
class AlltoallSlotChunksTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    void blocksLargerThanASlotArriveWhole(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll.slotBytes=64"))
                .run(ranks, world -> {
                    for (int block : new int[] {1, 15, 16, 17, 33, 100, 1000}) {
                        transposeAndCheck(world, block);
                    }
                });
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void aLargeCallAtTheDefaultSlotSizeTakesTheChunks(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90)).run(ranks, world -> {
            transposeAndCheck(world, 100 * 1024 / 4 / world.size() + 3);
            transposeAndCheck(world, 7);
        });
    }

    @Test
    void blocksOfDifferentSizesAreAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0,
                List.of("-Dtessera.shm.coll.slotBytes=64")).launch(2, world -> {
                    int block = world.rank() == 0 ? 40 : 41;
                    world.alltoall(Buffer.of(new int[2 * block]), Buffer.of(new int[2 * block]));
                    world.barrier();
                }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        assertTrue(r.output().contains("Comm.alltoall"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** One alltoall of {@code block} ints per rank pair, checked element by element, counted as one shared-memory call. */
    static void transposeAndCheck(Comm world, int block) {
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
        assertEquals(before + 1, world.sharedMemoryCollectiveCalls(), "block of " + block + " ints: one shared-memory call");
        for (int j = 0; j < p; j++) {
            for (int i = 0; i < block; i++) {
                assertEquals(j * 10_000_000 + me * 100_000 + i, recv[j * block + i],
                        "block of " + block + " ints, element " + i + " from rank " + j + " on rank " + me);
            }
        }
    }
}
