package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Thread levels: MULTIPLE really is thread-safe; FUNNELED rejects other threads clearly. */
@Timeout(120)
class ThreadLevelConformanceTest {

    @Test
    void multipleThreadsPerRankSendAndReceiveConcurrently() {
        int threads = 4;
        int messages = 500;
        new SmpJobRunner(60, ThreadLevel.MULTIPLE).run(2, world -> {
            assertEquals(ThreadLevel.MULTIPLE, world.threadLevel());
            int peer = 1 - world.rank();
            List<Thread> workers = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int t = 0; t < threads; t++) {
                int tag = t;
                Thread w = new Thread(() -> {
                    try {
                        for (int i = 0; i < messages; i++) {
                            // Each thread talks on its own tag; per-tag order must hold whatever the interleaving.
                            world.send(Buffer.of(new long[] {tag, i}), peer, tag);
                            long[] got = new long[2];
                            world.recv(Buffer.of(got), peer, tag);
                            assertEquals(tag, got[0]);
                            assertEquals(i, got[1]);
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a sending thread failed", failure.get());
            }
        });
    }

    @Test
    void multipleThreadsSendInOrderPerTagToAnySourceReceiver() {
        int threads = 3;
        int messages = 300;
        new SmpJobRunner(60, ThreadLevel.MULTIPLE).run(2, world -> {
            if (world.rank() == 0) {
                List<Thread> senders = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int tag = t;
                    Thread s = new Thread(() -> {
                        for (int i = 0; i < messages; i++) {
                            world.send(Buffer.of(new int[] {i}), 1, tag);
                        }
                    });
                    senders.add(s);
                    s.start();
                }
                for (Thread s : senders) {
                    s.join();
                }
            } else {
                int[] next = new int[threads];
                for (int k = 0; k < threads * messages; k++) {
                    int[] v = new int[1];
                    var st = world.recv(Buffer.of(v), 0, Comm.ANY_TAG);
                    assertEquals(next[st.tag()]++, v[0], "per-tag order");
                }
            }
        });
    }

    @Test
    void funneledRejectsCallsFromOtherThreadsWithAClearError() {
        new SmpJobRunner(30, ThreadLevel.FUNNELED).run(1, world -> {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    world.send(Buffer.of(new int[1]), Comm.PROC_NULL, 0);
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }, "worker-7");
            t.start();
            t.join();
            TesseraException e = assertInstanceOf(TesseraException.class, thrown.get());
            assertEquals(ErrorClass.OTHER, e.errorClass());
            assertTrue(e.getMessage().contains("worker-7") && e.getMessage().contains("FUNNELED"), e.getMessage());
        });
    }
}
