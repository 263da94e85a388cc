package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.device.ThreadCpu;
import dev.tessera.runtime.internal.ProcessBootstrap;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shm device's blocking wait (TESSERA_WAIT=block), with real rank processes: a waiting
 * rank sleeps on its doorbell instead of burning its core, and every wake-up arrives (a lost
 * one would hang the job: the sleeps here are not bounded by the usual 100 ms liveness
 * timeout, so the test's timeout would fail it).
 */
@Timeout(150)
class ShmBlockingWaitTest {

    private static ShmDevice device() {
        return (ShmDevice) ProcessBootstrap.currentDevice();
    }

    /** A rank blocked in recv for about two seconds uses far less CPU time than wall time, and slept. */
    @Test
    void aWaitingRankSleepsInsteadOfSpinning() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=block"))
                .run(2, ShmBlockingWaitTest::sleepWhileWaiting);
    }

    static void sleepWhileWaiting(Comm world) throws Exception {
        int[] value = new int[1];
        world.barrier();
        if (world.rank() == 0) {
            Thread.sleep(2_000);
            value[0] = 42;
            world.send(Buffer.of(value), 1, 7);
        } else {
            ShmDevice d = device();
            assertTrue(d.blocking(), "rank 1: -Dtessera.wait=block did not select the blocking wait");
            // watch this thread's scheduler state from another thread while it waits: asleep (S), not R
            java.nio.file.Path me = ThreadCpu.self();
            java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger asleep = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean waiting = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread watcher = new Thread(() -> {
                while (waiting.get()) {
                    char s = ThreadCpu.state(me);
                    samples.incrementAndGet();
                    if (s == 'S') {
                        asleep.incrementAndGet();
                    }
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            long cpu0 = ThreadCpu.nanos();
            long wall0 = System.nanoTime();
            watcher.start();
            world.recv(Buffer.of(value), 0, 7);
            waiting.set(false);
            long cpu = ThreadCpu.nanos() - cpu0;
            long wall = System.nanoTime() - wall0;
            watcher.join();
            assertEquals(42, value[0]);
            assertTrue(d.sleeps() > 0, "rank 1 never slept on its doorbell");
            if (ShmDevice.WAIT_YIELD_NANOS > 0) {
                assertTrue(d.yields() > 0, "rank 1 slept without yielding first, but its wait has a yield phase of "
                        + ShmDevice.WAIT_YIELD_NANOS / 1000 + " us");
            } else {
                assertEquals(0, d.yields(), "rank 1 yielded, but -Dtessera.wait.yieldMicros=0 leaves the yield phase out");
            }
            assertTrue(asleep.get() > samples.get() / 2, "rank 1 was asleep in only " + asleep.get() + " of "
                    + samples.get() + " looks at its state while it waited: it spun");
            assertTrue(cpu < wall / 2, "rank 1 used " + cpu / 1_000_000 + " ms of CPU in a wait of "
                    + wall / 1_000_000 + " ms: it spun instead of sleeping");
        }
        world.barrier();
    }

    /** With -Dtessera.wait.yieldMicros=0 a waiting rank goes from its polls straight to sleep: no yield at all. */
    @Test
    void noYieldPhaseWhenItIsTurnedOff() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=block", "-Dtessera.wait.yieldMicros=0"))
                .run(2, ShmBlockingWaitTest::sleepWhileWaiting);
    }

    /**
     * By default a blocking request wait yields its core for a while before it sleeps (the
     * other rank of an oversubscribed core runs at once, and this rank stays on its core):
     * rank 1 waits 300 ms for a message, yields first, and still sleeps after.
     */
    @Test
    void aBlockingWaitYieldsBeforeItSleepsByDefault() {
        assertTrue(ShmDevice.WAIT_YIELD_NANOS > 0, "the test JVM's own default has no yield phase");
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0, List.of("-Dtessera.wait=block"))
                .run(2, ShmBlockingWaitTest::yieldThenSleep);
    }

    /**
     * With -Dtessera.wait.yieldMicros a blocking request wait yields its core for that long
     * before it sleeps: rank 1 waits 300 ms for a message, yields first, and still sleeps after.
     */
    @Test
    void aBlockingWaitYieldsBeforeItSleepsWhenAskedTo() {
        new ProcessJobRunner("shm", Duration.ofSeconds(90), 0,
                List.of("-Dtessera.wait=block", "-Dtessera.wait.yieldMicros=2000"))
                .run(2, ShmBlockingWaitTest::yieldThenSleep);
    }

    static void yieldThenSleep(Comm world) throws Exception {
        int[] value = new int[1];
        // a rank starved by other load may find the message already there and not wait at all:
        // then it neither yields nor sleeps, and the round is repeated (at most 10 times)
        boolean waited = false;
        for (int round = 0; round < 10 && !waited; round++) {
            world.barrier();
            if (world.rank() == 0) {
                Thread.sleep(300);
                value[0] = 43 + round;
                world.send(Buffer.of(value), 1, 8);
            } else {
                ShmDevice d = device();
                int yields = d.yields();
                int sleeps = d.sleeps();
                world.recv(Buffer.of(value), 0, 8);
                assertEquals(43 + round, value[0]);
                if (d.sleeps() > sleeps) {
                    assertTrue(d.yields() > yields, "rank 1 slept without yielding first");
                    waited = true;
                }
            }
            waited = world.allreduce(waited ? 1 : 0, dev.tessera.comm.Op.MAX) == 1;
        }
        assertTrue(waited, "rank 1 never slept in 10 waits of 300 ms: it yielded for the whole wait, or never waited");
        world.barrier();
    }

    /**
     * Every wait sleeps at once (no spin) and sleeps are unbounded: ping-pong of small
     * messages, large ones that fill the ring (the sender sleeps for room), synchronous sends
     * (sleeping for the ACK) and a three-rank shift all complete with the right data.
     */
    @Test
    void noWakeUpIsLostWhenEveryWaitSleeps() {
        new ProcessJobRunner("shm", Duration.ofSeconds(120), 0,
                List.of("-Dtessera.wait=block", "-Dtessera.wait.spins=0", "-Dtessera.shm.sleepMillis=600000"))
                .run(3, ShmBlockingWaitTest::pingPongAsleep);
    }

    static void pingPongAsleep(Comm world) {
        int rank = world.rank();
        long[] one = new long[1];
        if (rank < 2) {
            int peer = 1 - rank;
            for (int i = 0; i < 2_000; i++) {
                if (rank == 0) {
                    one[0] = i;
                    world.send(Buffer.of(one), peer, 1);
                    world.recv(Buffer.of(one), peer, 2);
                    assertEquals(i + 1, one[0]);
                } else {
                    world.recv(Buffer.of(one), peer, 1);
                    assertEquals(i, one[0]);
                    one[0]++;
                    world.send(Buffer.of(one), peer, 2);
                }
            }
            double[] big = new double[300_000];   // 2.4 MB: more than a ring holds
            for (int round = 0; round < 5; round++) {
                if (rank == 0) {
                    java.util.Arrays.fill(big, round);
                    world.ssend(Buffer.of(big), peer, 3);
                } else {
                    world.recv(Buffer.of(big), peer, 3);
                    assertEquals(round, big[0]);
                    assertEquals(round, big[big.length - 1]);
                }
            }
        }
        int size = world.size();
        int[] out = new int[64];
        int[] in = new int[64];
        for (int step = 0; step < 200; step++) {
            java.util.Arrays.fill(out, rank * 1000 + step);
            world.sendrecv(Buffer.of(out), (rank + 1) % size, 5, Buffer.of(in), (rank + size - 1) % size, 5);
            int[] expected = new int[64];
            java.util.Arrays.fill(expected, ((rank + size - 1) % size) * 1000 + step);
            assertArrayEquals(expected, in);
        }
        world.barrier();
        assertTrue(device().sleeps() > 0, "rank " + rank + " never slept: the blocking path was not exercised");
    }

    /**
     * Shared-memory collectives where every wait sleeps at once (no spin, no yield) and sleeps
     * are unbounded: a published call must ring every member that may sleep
     * ({@code Region.wake}: one fence, then each sleeping peer's doorbell), or a member left
     * asleep hangs the job and the runner's limit fails the test. Three and four ranks, 1500
     * rounds of 8-byte bcast, reduce and allreduce with rotating roots: exact results, every
     * call through the slots, and every rank slept.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0} ranks")
    @org.junit.jupiter.params.provider.ValueSource(ints = {3, 4})
    void noWakeUpIsLostInSharedMemoryCollectives(int ranks) {
        new ProcessJobRunner("shm", Duration.ofSeconds(100), 0,
                List.of("-Dtessera.wait=block", "-Dtessera.wait.spins=0", "-Dtessera.shm.coll.yieldMicros=0",
                        "-Dtessera.shm.sleepMillis=600000"))
                .run(ranks, ShmBlockingWaitTest::collectivesAsleep);
    }

    static void collectivesAsleep(Comm world) {
        int p = world.size();
        int me = world.rank();
        long before = world.sharedMemoryCollectiveCalls();
        for (int i = 0; i < 1500; i++) {
            int root = i % p;
            long[] v = {me == root ? 7L * i + 3 : -1};
            world.bcast(Buffer.of(v), root);
            assertEquals(7L * i + 3, v[0], "bcast " + i + " on rank " + me);
            long[] x = {(long) i * (me + 1)};
            long[] s = {-1};
            world.reduce(Buffer.of(x), Buffer.of(s), dev.tessera.comm.Op.SUM, (i + 1) % p);
            assertEquals(me == (i + 1) % p ? (long) i * p * (p + 1) / 2 : -1, s[0], "reduce " + i + " on rank " + me);
            assertEquals((long) i * p, world.allreduce((long) i, dev.tessera.comm.Op.SUM), "allreduce " + i + " on rank " + me);
        }
        assertEquals(3 * 1500, world.sharedMemoryCollectiveCalls() - before, "calls through shared memory on rank " + me);
        assertTrue(device().sleeps() > 0, "rank " + me + " never slept: the blocking path was not exercised");
    }
}
