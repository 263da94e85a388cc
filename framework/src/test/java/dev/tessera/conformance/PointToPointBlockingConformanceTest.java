package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.smp.SmpFabric;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The blocking send and receive, which make no {@link Request} object, next to the
 * nonblocking calls: one sender's order across both kinds of call and every protocol, with
 * any-source receives; and a request that several threads finish at once (its outcome is
 * computed without a lock).
 */
@Timeout(120)
class PointToPointBlockingConformanceTest {

    static final int EAGER = (int) SmpFabric.DEFAULT_EAGER_LIMIT;

    static Stream<JobRunner> runners() {
        return Runners.all().stream();
    }

    /** Bytes of message {@code i}: a ring slot's worth (smp) or less, just above it, 1 KiB, and above the eager limit. */
    static int bytes(int i) {
        return switch (i % 5) {
            case 0 -> 8;
            case 1 -> 40;
            case 2 -> 44;
            case 3 -> 1024;
            default -> i % 25 == 4 ? EAGER + 8 : 16;
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void blockingAndNonblockingCallsKeepEachSendersOrder(JobRunner runner) {
        runner.run(3, world -> {
            int n = 300;
            if (world.rank() != 1) {
                int me = world.rank();
                for (int i = 0; i < n; i++) {
                    int[] msg = new int[bytes(i) / 4];
                    msg[0] = i;
                    msg[msg.length - 1] = me + 100;
                    Buffer b = Buffer.of(msg);
                    int tag = 5 + (i & 1);
                    switch (i % 3) {
                        case 0 -> world.send(b, 1, tag);
                        case 1 -> world.isend(b, 1, tag).await();
                        default -> {
                            if (i % 30 == 2) {
                                world.ssend(b, 1, tag);
                            } else {
                                world.send(b, 1, tag);
                            }
                        }
                    }
                }
            } else {
                int[] next = new int[3];
                for (int k = 0; k < 2 * n; k++) {
                    int[] into = new int[EAGER / 4 + 8];
                    Status s;
                    if (k % 4 == 1) {
                        s = world.irecv(Buffer.of(into), Comm.ANY_SOURCE, Comm.ANY_TAG).await();
                    } else if (k % 4 == 2) {
                        Request r = world.irecv(Buffer.of(into), Comm.ANY_SOURCE, Comm.ANY_TAG);
                        s = r.await();
                        assertEquals(s, r.status(), "a request's status, asked again");
                    } else {
                        s = world.recv(Buffer.of(into), Comm.ANY_SOURCE, Comm.ANY_TAG);
                    }
                    int from = s.source();
                    assertTrue(from == 0 || from == 2, "source " + from);
                    int i = next[from]++;
                    assertEquals(i, into[0], "rank " + from + "'s message " + i + " in its send order");
                    assertEquals(from + 100, into[bytes(i) / 4 - 1], "rank " + from + "'s message " + i);
                    assertEquals(bytes(i), s.byteCount(), "rank " + from + "'s message " + i);
                    assertEquals(bytes(i) / 4, s.count());
                    assertEquals(5 + (i & 1), s.tag());
                }
                assertEquals(n, next[0]);
                assertEquals(n, next[2]);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void aRequestFinishedByManyThreadsAtOnceGivesEachTheSameOutcome(JobRunner runner) {
        runner.run(2, ThreadLevel.MULTIPLE, world -> {
            int rounds = 40;
            int threads = 4;
            for (int i = 0; i < rounds; i++) {
                boolean truncated = i % 2 == 1;   // odd rounds: a message too long for its receive
                if (world.rank() == 0) {
                    world.send(Buffer.of(new int[] {i, i, i}), 1, truncated ? 2 : 1);
                    continue;
                }
                int[] into = new int[truncated ? 2 : 3];
                Request r = world.irecv(Buffer.of(into), 0, Comm.ANY_TAG);
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Object> outcomes = Collections.synchronizedList(new ArrayList<>());
                List<Thread> finishers = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    Thread f = new Thread(() -> {
                        try {
                            start.await();
                            while (true) {
                                try {
                                    if (r.test()) {
                                        outcomes.add(r.status());
                                        return;
                                    }
                                } catch (TesseraException e) {
                                    outcomes.add(e.errorClass());
                                    return;
                                }
                            }
                        } catch (Exception e) {
                            outcomes.add(e);
                        }
                    });
                    finishers.add(f);
                    f.start();
                }
                for (Thread f : finishers) {
                    f.join();
                }
                assertEquals(threads, outcomes.size());
                Object expected = truncated ? ErrorClass.TRUNCATE : new Status(0, 1, 3, 12, false);
                for (Object o : outcomes) {
                    assertEquals(expected, o, "round " + i + ": every thread sees the same outcome");
                }
                if (truncated) {
                    TesseraException e = assertThrows(TesseraException.class, r::status, "the error, asked again");
                    assertTrue(e.getMessage().contains("rank 1") && e.getMessage().contains("Comm.irecv"), e.getMessage());
                } else {
                    assertEquals(expected, r.status());
                    assertEquals(i, into[2]);
                }
            }
        });
    }
}
