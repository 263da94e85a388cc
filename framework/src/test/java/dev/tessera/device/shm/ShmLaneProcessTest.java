package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.runtime.internal.ProcessBootstrap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The small-message lane with real rank processes whose waits all sleep on the doorbell
 * (no spin, sleeps unbounded, so a lost wake-up hangs the test): a lane of 16 lines (entries
 * of up to 480 bytes wrap around it and run into its overflow area every few messages), two
 * senders streaming mixed sizes through lane and cells to a receiver that takes them with
 * ANY_SOURCE, ANY_TAG and probe, checking each sender's order and every element.
 */
@Timeout(150)
class ShmLaneProcessTest {

    /** Elements (longs) of message {@code i}: lane (0-60 longs), one cell, several cells. */
    static int elements(int i) {
        int[] sizes = {1, 0, 4, 7, 59, 60, 61, 1, 200, 5000, 1, 1, 33, 3};
        return sizes[i % sizes.length];
    }

    static final int PER_SENDER = 1500;

    @Test
    void aSleepingReceiverGetsEverySendersMessagesInOrderThroughASmallLane() {
        new ProcessJobRunner("shm", Duration.ofSeconds(120), 0, List.of("-Dtessera.wait=block", "-Dtessera.wait.spins=0",
                "-Dtessera.shm.sleepMillis=600000", "-Dtessera.shm.laneLines=16"))
                .run(3, ShmLaneProcessTest::streams);
    }

    static void streams(Comm world) throws Exception {
        ShmDevice d = (ShmDevice) ProcessBootstrap.currentDevice();
        assertEquals(16, ShmLayout.LANE_LINES, "the rank did not get -Dtessera.shm.laneLines");
        assertTrue(d.blocking());
        int rank = world.rank();
        world.barrier();
        if (rank != 1) {
            List<Request> pending = new ArrayList<>();
            for (int i = 0; i < PER_SENDER; i++) {
                long[] data = new long[elements(i)];
                for (int k = 0; k < data.length; k++) {
                    data[k] = rank * 1_000_000_000L + i * 10_000L + k;
                }
                if (i % 9 == 4) {
                    world.ssend(Buffer.of(data), 1, 10 + rank);
                } else {
                    pending.add(world.isend(Buffer.of(data), 1, 10 + rank));
                }
                if (i % 200 == 199) {
                    Request.waitAll(pending);
                    pending.clear();
                    Thread.sleep(2);   // the receiver runs dry and sleeps
                }
            }
            Request.waitAll(pending);
        } else {
            int[] next = new int[3];
            long[] into = new long[5000];
            for (int m = 0; m < 2 * PER_SENDER; m++) {
                Status s;
                if (m % 4 == 1) {
                    Status p = world.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                    s = world.recv(Buffer.of(into), p.source(), p.tag());
                    assertEquals(p.byteCount(), s.byteCount(), "probe and receive of message " + m);
                } else {
                    s = world.recv(Buffer.of(into), Comm.ANY_SOURCE, Comm.ANY_TAG);
                }
                int src = s.source();
                assertEquals(10 + src, s.tag());
                int i = next[src]++;
                assertEquals(elements(i) * 8L, s.byteCount(), "message " + i + " of rank " + src + " in its order");
                for (int k = 0; k < elements(i); k++) {
                    if (into[k] != src * 1_000_000_000L + i * 10_000L + k) {
                        assertEquals(src * 1_000_000_000L + i * 10_000L + k, into[k], "message " + i + " of rank " + src
                                + ", element " + k);
                    }
                }
            }
            assertEquals(PER_SENDER, next[0]);
            assertEquals(PER_SENDER, next[2]);
            assertTrue(d.sleeps() > 0, "rank 1 never slept: the blocking path was not exercised");
        }
        world.barrier();
    }
}
