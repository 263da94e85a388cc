package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** MPI matching rules, checked on the engine alone. */
@Timeout(120)
class MatchingEngineTest {

    private final MatchingEngine engine = new MatchingEngine();

    private static final class Buffered extends IncomingMessage {
        final int payload;

        Buffered(int source, int tag, int context, int payload) {
            super(new Envelope(source, tag, context, 4, 0));
            this.payload = payload;
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            MemorySegment bytes = MemorySegment.ofArray(new int[] {payload});
            MemorySegment.copy(bytes, 0, destination, 0, byteCount);
        }
    }

    private static ReceiveRequest receive(int source, int tag, int context) {
        return new ReceiveRequest(MemorySegment.ofArray(new byte[4]), source, tag, context, 0);
    }

    @Test
    void arrivalTakesTheOldestMatchingPostedReceive() {
        ReceiveRequest any = receive(Device.ANY_SOURCE, Device.ANY_TAG, 0);
        ReceiveRequest specific = receive(1, 5, 0);
        assertNull(engine.post(any));
        assertNull(engine.post(specific));
        assertSame(any, engine.arrive(new Buffered(1, 5, 0, 1)));
        assertSame(specific, engine.arrive(new Buffered(1, 5, 0, 2)));
    }

    @Test
    void receiveTakesTheOldestMatchingUnexpectedMessage() {
        Buffered first = new Buffered(2, 7, 0, 1);
        Buffered second = new Buffered(2, 7, 0, 2);
        assertNull(engine.arrive(first));
        assertNull(engine.arrive(second));
        assertSame(first, engine.post(receive(Device.ANY_SOURCE, 7, 0)));
        assertSame(second, engine.post(receive(2, Device.ANY_TAG, 0)));
    }

    @Test
    void contextsNeverMatchEachOther() {
        assertNull(engine.arrive(new Buffered(0, 1, 3, 1)));
        assertNull(engine.post(receive(Device.ANY_SOURCE, Device.ANY_TAG, 4)));
        assertEquals(1, engine.unexpectedCount(3));
        assertNotNull(engine.post(receive(Device.ANY_SOURCE, Device.ANY_TAG, 3)));
    }

    @Test
    void nonMatchingMessagesAreSkippedNotReordered() {
        Buffered tag1 = new Buffered(0, 1, 0, 1);
        Buffered tag2 = new Buffered(0, 2, 0, 2);
        Buffered tag1again = new Buffered(0, 1, 0, 3);
        engine.arrive(tag1);
        engine.arrive(tag2);
        engine.arrive(tag1again);
        assertSame(tag2, engine.post(receive(0, 2, 0)));
        assertSame(tag1, engine.post(receive(0, 1, 0)));
        assertSame(tag1again, engine.post(receive(0, Device.ANY_TAG, 0)));
        assertEquals(0, engine.unexpectedCount(0));
    }

    @Test
    void probePeeksAndMatchedProbeRemoves() {
        Buffered m = new Buffered(3, 9, 0, 42);
        engine.arrive(m);
        assertEquals(m.envelope(), engine.peek(Device.ANY_SOURCE, Device.ANY_TAG, 0));
        assertEquals(1, engine.unexpectedCount(0));
        assertSame(m, engine.take(3, 9, 0));
        assertNull(engine.peek(Device.ANY_SOURCE, Device.ANY_TAG, 0));
    }

    @Test
    void cancelledReceiveNoLongerMatches() {
        ReceiveRequest r = receive(1, 1, 0);
        engine.post(r);
        assertTrue(engine.cancel(r));
        assertFalse(engine.cancel(r));
        assertNull(engine.arrive(new Buffered(1, 1, 0, 1)));
    }

    @Test
    void deliveryChecksTypeAndSize() {
        ReceiveRequest small = new ReceiveRequest(MemorySegment.ofArray(new byte[2]), 0, 0, 0, 0);
        new Buffered(0, 0, 0, 7).deliver(small);
        assertTrue(small.isComplete());
        assertEquals(dev.tessera.ErrorClass.TRUNCATE, ((dev.tessera.TesseraException) small.error()).errorClass());
        ReceiveRequest otherType = new ReceiveRequest(MemorySegment.ofArray(new byte[4]), 0, 0, 0, 5);
        new Buffered(0, 0, 0, 7).deliver(otherType);
        assertEquals(dev.tessera.ErrorClass.TYPE, ((dev.tessera.TesseraException) otherType.error()).errorClass());
        ReceiveRequest ok = receive(0, 0, 0);
        new Buffered(0, 0, 0, 7).deliver(ok);
        assertNull(ok.error());
        assertEquals(7, ok.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }

    @Test
    void aDeadSendersRingMessagesAreReceivedBeforeItsReceivesFail() {
        ReceiveRequest posted = new ReceiveRequest(MemorySegment.ofArray(new int[1]), 3, 1, 0, ReceiveRequest.ANY_TYPE);
        ReceiveRequest later = new ReceiveRequest(MemorySegment.ofArray(new int[1]), 3, 1, 0, ReceiveRequest.ANY_TYPE);
        assertNull(engine.post(posted));
        assertNull(engine.post(later));
        SmallMessageRing.Producer ring = engine.openRing(3, 4);
        assertTrue(ring.offer(1, 0, ReceiveRequest.ANY_TYPE, MemorySegment.ofArray(new int[] {77}), 4));
        // rank 3 dies now: what it published before is still delivered; only the receive nothing will match fails
        java.util.List<ReceiveRequest> failed = engine.removeReceivesFrom(3);
        assertEquals(java.util.List.of(later), failed);
        assertTrue(posted.isComplete());
        assertEquals(77, posted.buffer().get(ValueLayout.JAVA_INT, 0));
    }

    @Test
    void aFullRingRefusesUntilTheEngineDrainsIt() {
        SmallMessageRing.Producer ring = engine.openRing(2, 4);
        for (int i = 0; i < 4; i++) {
            assertTrue(ring.offer(9, 0, 0, MemorySegment.ofArray(new int[] {i}), 4));
        }
        assertFalse(ring.offer(9, 0, 0, MemorySegment.ofArray(new int[] {4}), 4), "four slots, four messages");
        assertEquals(4, engine.unexpectedCount(0), "any engine operation drains the ring");
        assertTrue(ring.offer(9, 0, 0, MemorySegment.ofArray(new int[] {4}), 4));
        for (int i = 0; i < 4; i++) {
            ReceiveRequest r = receive(2, 9, 0);
            IncomingMessage m = engine.post(r);
            assertNotNull(m, "the drained messages wait as unexpected, oldest first");
            m.deliver(r);
            assertEquals(i, r.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        }
        // the fifth is still on the ring: the receive takes it straight from its slot
        ReceiveRequest last = receive(2, 9, 0);
        assertNull(engine.post(last));
        assertTrue(last.isComplete());
        assertEquals(4, last.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertEquals(0, engine.unexpectedCount(0));
    }

    @Test
    void aPostedReceiveDrainsTheRingOnlyUntilItMatches() {
        SmallMessageRing.Producer ring = engine.openRing(2, 8);
        int[] tags = {4, 9, 4, 4, 9};
        for (int i = 0; i < tags.length; i++) {
            assertTrue(ring.offer(tags[i], 0, 0, MemorySegment.ofArray(new int[] {10 + i}), 4));
        }
        // the receive for tag 9 passes the first message (queued aside) and takes the second from its slot
        ReceiveRequest nine = receive(2, 9, 0);
        assertNull(engine.post(nine));
        assertTrue(nine.isComplete(), "matched inside post");
        assertEquals(11, nine.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertEquals(9, nine.tag());
        assertEquals(2, nine.source());
        assertEquals(4, nine.byteCount());
        // the oldest message is the one passed over, now unexpected
        ReceiveRequest first = receive(Device.ANY_SOURCE, Device.ANY_TAG, 0);
        IncomingMessage m = engine.post(first);
        assertNotNull(m, "the message passed over waits as unexpected");
        m.deliver(first);
        assertEquals(10, first.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        // the third was left on the ring: the next receive takes it straight from its slot, no copy aside
        ReceiveRequest third = receive(2, Device.ANY_TAG, 0);
        assertNull(engine.post(third), "the slots after the match stayed on the ring");
        assertTrue(third.isComplete());
        assertEquals(12, third.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        // a receive completed inside post completes once, and a callback added later runs at once
        int[] ran = new int[1];
        third.whenComplete(() -> ran[0]++);
        assertEquals(1, ran[0]);
        // any other operation drains the rest: two left, in order
        assertEquals(2, engine.unexpectedCount(0));
        ReceiveRequest fourth = receive(2, 4, 0);
        engine.post(fourth).deliver(fourth);
        assertEquals(13, fourth.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        ReceiveRequest fifth = receive(2, 9, 0);
        engine.post(fifth).deliver(fifth);
        assertEquals(14, fifth.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }

    @Test
    void aRingMessageGoesToAnOlderPostedReceiveBeforeTheOneBeingPosted() {
        SmallMessageRing.Producer ring = engine.openRing(2, 8);
        ReceiveRequest older = receive(2, 4, 0);
        assertNull(engine.post(older));
        assertFalse(older.isComplete(), "nothing on the ring yet: queued");
        assertTrue(ring.offer(4, 1, 0, MemorySegment.ofArray(new int[] {20}), 4));   // another context
        assertTrue(ring.offer(4, 0, 0, MemorySegment.ofArray(new int[] {21}), 4));   // fits both receives
        assertTrue(ring.offer(4, 0, 0, MemorySegment.ofArray(new int[] {22}), 4));
        assertTrue(ring.offer(4, 0, 0, MemorySegment.ofArray(new int[] {23}), 4));
        ReceiveRequest newer = receive(Device.ANY_SOURCE, 4, 0);
        assertNull(engine.post(newer));
        assertTrue(older.isComplete());
        assertEquals(21, older.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "the older receive matches first");
        assertTrue(newer.isComplete(), "matched inside post");
        assertEquals(22, newer.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        assertFalse(engine.cancel(newer), "a receive matched while posting was never queued");
        // the other context's message was passed over (aside), the last one stayed on the ring
        assertEquals(1, engine.unexpectedCount(1));
        assertEquals(1, engine.unexpectedCount(0), "the last message matched no receive: nothing queued took it");
        ReceiveRequest last = receive(2, 4, 0);
        engine.post(last).deliver(last);
        assertEquals(23, last.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
        ReceiveRequest other = receive(2, 4, 1);
        engine.post(other).deliver(other);
        assertEquals(20, other.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0));
    }

    @Test
    void aRingMessageMatchedWhilePostingChecksTypeAndSize() {
        SmallMessageRing.Producer ring = engine.openRing(1, 4);
        assertTrue(ring.offer(3, 0, 7, MemorySegment.ofArray(new int[] {1, 2}), 8));
        assertTrue(ring.offer(3, 0, 7, MemorySegment.ofArray(new int[] {5, 6}), 8));
        ReceiveRequest wrongType = new ReceiveRequest(MemorySegment.ofArray(new int[2]), 1, 3, 0, 8);
        assertNull(engine.post(wrongType));
        assertTrue(wrongType.isComplete());
        assertEquals(dev.tessera.ErrorClass.TYPE, ((dev.tessera.TesseraException) wrongType.error()).errorClass());
        assertEquals(0, wrongType.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "nothing copied on a type mismatch");
        ReceiveRequest small = new ReceiveRequest(MemorySegment.ofArray(new int[1]), 1, 3, 0, 7);
        assertNull(engine.post(small));
        assertEquals(dev.tessera.ErrorClass.TRUNCATE, ((dev.tessera.TesseraException) small.error()).errorClass());
        assertEquals(5, small.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0), "the prefix that fits");
        assertEquals(8, small.byteCount(), "the message's size");
    }

    @Test
    void theEngineLockIsReentrantAndKeepsOtherThreadsOut() throws Exception {
        engine.lock();
        engine.lock();   // a device's run of arrivals holds it around each arrive
        assertTrue(engine.heldByCurrentThread());
        java.util.concurrent.atomic.AtomicBoolean posted = new java.util.concurrent.atomic.AtomicBoolean();
        Thread other = new Thread(() -> {
            engine.post(receive(1, 1, 0));
            posted.set(true);
        });
        other.start();
        engine.unlock();
        other.join(200);
        assertFalse(posted.get(), "another thread got in while the lock was still held once");
        assertTrue(engine.heldByCurrentThread());
        engine.unlock();
        other.join(30_000);
        assertTrue(posted.get(), "the other thread got in once the lock was given back");
        assertFalse(engine.heldByCurrentThread());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalMonitorStateException.class, engine::unlock,
                "giving back a lock this thread does not hold");
    }

    @Test
    void aRunOfArrivalsUnderTheCallersLockMatchesAsSingleArrivalsDo() {
        ReceiveRequest posted = receive(1, 5, 0);
        assertNull(engine.post(posted));
        MemorySegment lane = MemorySegment.ofArray(new int[] {11, 22, 33});
        engine.lock();
        try {
            // a device's run: one lock, then one held arrival per message, in the lane's order
            assertSame(posted, engine.arriveHeld(1, 5, 0, 4, 0, lane, 0), "the posted receive matches");
            assertNull(engine.arriveHeld(1, 5, 0, 4, 0, lane, 4), "no receive: queued as unexpected");
            assertNull(engine.arriveHeld(1, 6, 0, 4, 0, lane, 8));
            assertTrue(engine.heldByCurrentThread(), "the held arrivals leave the lock to the caller");
        } finally {
            engine.unlock();
        }
        assertFalse(engine.heldByCurrentThread());
        lane.fill((byte) 0);   // the lane entries are reused: the unexpected ones were copied
        IncomingMessage tag6 = engine.post(receive(1, 6, 0));
        IncomingMessage tag5 = engine.post(receive(1, Device.ANY_TAG, 0));
        assertNotNull(tag6);
        assertNotNull(tag5);
        assertEquals(6, tag6.envelope().tag());
        assertEquals(5, tag5.envelope().tag(), "the older of the two queued messages first");
        int[] got = new int[1];
        tag5.copyTo(MemorySegment.ofArray(got), 4);
        assertEquals(22, got[0]);
        org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> engine.arriveHeld(1, 5, 0, 4, 0, lane, 0), "a held arrival without the lock");
    }

    @Test
    void manyThreadsMatchingAtOnceLoseNoMessageAndNoReceive() throws Exception {
        // 4 threads each post 2000 receives and deliver 2000 messages on one engine; every receive
        // gets exactly one message (lost updates of the queues under a broken lock show as hangs or misses)
        int threads = 4;
        int each = 2000;
        java.util.concurrent.atomic.AtomicInteger completed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<Thread> all = new java.util.ArrayList<>();
        java.util.List<ReceiveRequest> receives = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int source = t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    ReceiveRequest r = receive(Device.ANY_SOURCE, 3, 0);
                    receives.add(r);
                    IncomingMessage m = engine.post(r);
                    if (m != null) {
                        m.deliver(r);
                    }
                    ReceiveRequest matched = engine.arrive(new Buffered(source, 3, 0, i));
                    if (matched != null) {
                        new Buffered(source, 3, 0, i).deliver(matched);
                    }
                }
            });
            all.add(th);
            th.start();
        }
        for (Thread th : all) {
            th.join(60_000);
            assertFalse(th.isAlive(), "a thread is stuck");
        }
        for (ReceiveRequest r : receives) {
            if (r.isComplete()) {
                completed.incrementAndGet();
            }
        }
        assertEquals(threads * each, completed.get(), "every receive got a message");
        assertEquals(0, engine.unexpectedCount(0), "and no message was left over");
    }
}
