package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shm device's shared-memory collective path (docs/collectives.md, "Shared-memory
 * collectives"), with real rank processes: the covered collectives really take it (its call
 * counter rises by one per call) and give the right answers, through many more calls than
 * it has slots; calls too large for a slot, and jobs with TESSERA_SHM_COLL=off, take the
 * point-to-point algorithms; a rank killed while the others wait in a shared-memory
 * collective ends the job with an error naming it; and the agreement check, carried by the
 * slots, still catches a rank that makes another kind of call or none at all.
 */
@Timeout(120)
class SharedMemoryCollectivesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void everyCoveredCollectiveTakesTheSharedMemoryPath(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(90)).run(ranks, world -> everyCollective(world, true));
    }

    @Test
    void withTheSwitchOffTheSameCallsTakeThePointToPointPath() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.shm.coll=off"))
                .run(3, world -> everyCollective(world, false));
    }

    /** One call of each covered collective, checked; {@code shared}: each must count as a shared-memory call. */
    static void everyCollective(Comm world, boolean shared) {
        int p = world.size();
        int me = world.rank();
        long[] count = {world.sharedMemoryCollectiveCalls()};
        Runnable took = () -> {
            long now = world.sharedMemoryCollectiveCalls();
            assertEquals(shared ? count[0] + 1 : 0, now, "calls through shared memory on rank " + me);
            count[0] = now;
        };

        world.barrier();
        took.run();

        long[] v = {me == p - 1 ? 0x1234_5678_9abcL : -1};
        world.bcast(Buffer.of(v), p - 1);
        took.run();
        assertEquals(0x1234_5678_9abcL, v[0]);

        byte[] kib = new byte[1024];
        if (me == 0) {
            for (int i = 0; i < kib.length; i++) {
                kib[i] = (byte) (i * 7 + 3);
            }
        }
        world.bcast(Buffer.of(kib), 0);
        took.run();
        for (int i = 0; i < kib.length; i++) {
            assertEquals((byte) (i * 7 + 3), kib[i], "byte " + i);
        }

        double[] x = {me + 1, 10.0 * (me + 1)};
        double[] r = {-1, -1};
        world.reduce(Buffer.of(x), Buffer.of(r), Op.SUM, 1 % p);
        took.run();
        if (me == 1 % p) {
            assertArrayEquals(new double[] {p * (p + 1) / 2.0, 10.0 * p * (p + 1) / 2}, r);
        } else {
            assertArrayEquals(new double[] {-1, -1}, r, "a non-root's receive buffer is not written");
        }

        int[] a = {me * 3, -me};
        world.allreduce(Buffer.of(a), Op.MAX);
        took.run();
        assertArrayEquals(new int[] {(p - 1) * 3, 0}, a);

        int[] all = new int[2 * p];
        int[] mine = {100 + me, 200 + me};
        world.allgather(Buffer.of(mine), Buffer.of(all));
        took.run();
        for (int j = 0; j < p; j++) {
            assertEquals(100 + j, all[2 * j]);
            assertEquals(200 + j, all[2 * j + 1]);
        }

        int[] out = new int[p];
        int[] in = new int[p];
        for (int j = 0; j < p; j++) {
            out[j] = 1000 * me + j;   // to rank j
        }
        world.alltoall(Buffer.of(out), Buffer.of(in));
        took.run();
        for (int j = 0; j < p; j++) {
            assertEquals(1000 * j + me, in[j], "block from rank " + j);
        }

        // many more calls than slots, with rotating roots and a rank running ahead: slots are reused safely
        for (int i = 0; i < 100; i++) {
            long[] s = {me == i % p ? i * 31L : -1};
            world.bcast(Buffer.of(s), i % p);
            assertEquals(i * 31L, s[0], "bcast " + i);
            if (i % 7 == 0) {
                assertEquals((long) i * p, world.allreduce((long) i, Op.SUM), "allreduce " + i);
            }
        }
        count[0] = world.sharedMemoryCollectiveCalls();

        // larger than a slot (16 KiB by default): the point-to-point algorithms, checked through the slots
        int[] big = new int[64 * 1024];
        if (me == 0) {
            for (int i = 0; i < big.length; i++) {
                big[i] = i ^ 0x5a5a;
            }
        }
        world.bcast(Buffer.of(big), 0);
        for (int i = 0; i < big.length; i++) {
            assertEquals(i ^ 0x5a5a, big[i], "element " + i);
        }
        assertEquals(count[0], world.sharedMemoryCollectiveCalls(), "a 256 KiB bcast does not fit a slot");

        // more point-to-point calls in a row than there are slots, then shared-memory ones again: the
        // agreement check of each call reads the right neighbour's slot before it is reused (no false mismatch)
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 10; i++) {
                int[] b = new int[8 * 1024];
                b[i] = me == 0 ? i + 1 : 0;
                world.bcast(Buffer.of(b), 0);
                assertEquals(i + 1, b[i], "32 KiB bcast " + i);
            }
            for (int i = 0; i < 10; i++) {
                world.barrier();
                assertEquals((long) p * i, world.allreduce((long) i, Op.SUM));
                long[] s = {me == 0 ? i : -1};
                world.bcast(Buffer.of(s), 0);
                assertEquals(i, s[0]);
            }
        }
        assertEquals(count[0] + (shared ? 90 : 0), world.sharedMemoryCollectiveCalls());
    }

    /** A rank killed while the others wait for its slot in a shared-memory allreduce; spinning and sleeping waiters. */
    @ParameterizedTest(name = "wait {0}")
    @ValueSource(strings = {"spin", "block"})
    void aRankKilledDuringASharedMemoryCollectiveEndsTheJobNamingIt(String wait) {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60), 0, List.of("-Dtessera.wait=" + wait))
                .launch(3, world -> {
                    world.barrier();
                    long before = world.sharedMemoryCollectiveCalls();
                    assertEquals(1, world.allreduce(1L, Op.MAX));
                    assertEquals(before + 1, world.sharedMemoryCollectiveCalls(), "the allreduce took the shared-memory path");
                    if (world.rank() == 1) {
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(60_000);
                    }
                    world.allreduce(2L, Op.SUM);
                    System.out.println("rank " + world.rank() + " passed an allreduce without rank 1");
                }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 1 exited with status 137"), r.output());
        for (int rank : new int[] {0, 2}) {
            // the rank's own liveness check ("died or was killed") or the launcher's notice, whichever came first
            assertTrue(r.output().lines().anyMatch(l -> l.startsWith("[" + rank + "] tessera: rank " + rank + " failed")
                    && l.contains("rank 1") && (l.contains("died or was killed") || l.contains("exited with status 137"))),
                    "rank " + rank + " must fail naming rank 1:\n" + r.output());
        }
        assertFalse(r.output().contains("passed an allreduce without rank 1"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** Rank 1 starts a nonblocking bcast where rank 0 makes a blocking one: a mismatch error, not a hang. */
    @Test
    void aNonblockingCallAgainstASharedMemoryOneIsAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(2, world -> {
            int[] v = {7};
            if (world.rank() == 0) {
                world.bcast(Buffer.of(v), 0);
            } else {
                Thread.sleep(300);   // makes it likely that rank 0 has returned from its bcast first (passes either way)
                world.ibcast(Buffer.of(v), 0).await();
            }
            world.barrier();
        }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call"), r.output());
        assertTrue(r.output().contains("another kind of collective call") || r.output().contains("Comm.ibcast"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    /** Rank 1 closes without the bcast rank 0 waits in: a mismatch error naming both ranks, not a hang. */
    @Test
    void aRankThatClosesWithoutTheCallIsAMismatch() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(60)).launch(2, world -> {
            world.barrier();
            if (world.rank() == 0) {
                world.bcast(Buffer.of(new int[1]), 1);
            }
        }, List.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("ranks disagree on the collective call: rank 0 made Comm.bcast"), r.output());
        assertTrue(r.output().contains("but rank 1 made no such call before it closed"), r.output());
    }
}
