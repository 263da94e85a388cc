package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A receiver that parks between smp ring messages gets every one: the sleeper registers
 * before its last poll and each ring message is published with a full fence before the
 * sender looks for sleepers. (Named for the membarrier variant of stop 37, removed in stop 38;
 * the park test guards the fenced protocol that stayed.)
 */
@Timeout(120)
class ProcessBarrierTest {

    @Test
    void aReceiverThatParksBetweenRingMessagesGetsEachOne() throws Exception {
        // the receiver registers as a sleeper before its last poll; the sender
        // publishes only once it sees that registration, so each message lands while the receiver parks
        // or is about to: 300 rounds, and the receiver's park has no timeout, so a lost wake-up hangs
        // the round (the class's timeout interrupts it and the test fails)
        MatchingEngine engine = new MatchingEngine();
        SmallMessageRing.Producer[] ring = new SmallMessageRing.Producer[1];
        java.util.concurrent.CountDownLatch opened = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger registered = new java.util.concurrent.atomic.AtomicInteger(-1);
        int rounds = 300;
        Thread sender = new Thread(() -> {
            ring[0] = engine.openRing(0, 8);
            opened.countDown();
            MemorySegment one = MemorySegment.ofArray(new int[1]);
            for (int i = 0; i < rounds; i++) {
                while (registered.get() < i) {
                    Thread.onSpinWait();
                    if (Thread.currentThread().isInterrupted()) {
                        return;
                    }
                }
                one.set(ValueLayout.JAVA_INT, 0, i);
                while (!ring[0].offer(5, 0, 0, one, 4)) {
                    Thread.onSpinWait();
                }
                ring[0].wakeReceiver();
            }
        }, "ring-sender");
        sender.setDaemon(true);
        sender.start();
        opened.await();
        Thread me = Thread.currentThread();
        try {
            for (int i = 0; i < rounds; i++) {
                ReceiveRequest r = new ReceiveRequest(MemorySegment.ofArray(new int[1]), 0, 5, 0, 0);
                engine.post(r);
                engine.sleeping(me);
                registered.set(i);
                try {
                    engine.poll();
                    while (!r.isComplete()) {
                        r.registerWaiter();
                        if (!engine.poll() && !r.isComplete()) {
                            java.util.concurrent.locks.LockSupport.park();   // no timeout: only the sender's wake ends it
                            if (Thread.interrupted()) {
                                throw new AssertionError("round " + i + ": the receiver was never woken");
                            }
                        }
                    }
                } finally {
                    engine.awake(me);
                    r.clearWaiter();
                }
                assertTrue(r.buffer().get(ValueLayout.JAVA_INT, 0) == i, "round " + i);
            }
        } finally {
            sender.interrupt();
        }
        sender.join(60_000);
    }
}
