package dev.tessera.device.smp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.Device;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import dev.tessera.device.SmallMessageRing;
import dev.tessera.device.WaitMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The smp device's small-message rings: MPI order across the ring and the locked path
 * (ring full, large messages, a second sending thread), any-source receives, cancel,
 * truncation, and a sleeping receiver woken by a ring send.
 */
@Timeout(60)
class SmpRingTest {

    private static final int TAG = 5;

    /** A message whose first int is {@code seq}: {@code bytes} long (8: ring, 1024: locked path). */
    private static MemorySegment message(int seq, int bytes) {
        int[] a = new int[bytes / 4];
        a[0] = seq;
        a[a.length - 1] = -seq;
        return MemorySegment.ofArray(a);
    }

    private static int sizeOf(int i) {
        return i % 7 == 3 ? 1024 : 8;
    }

    @Test
    void oneSendersOrderHoldsAcrossTheRingTheFullRingAndLargeMessages() {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        int n = 3 * SmallMessageRing.DEFAULT_SLOTS + 17;
        // the first few receives are posted before anything is sent, the rest find unexpected messages
        List<ReceiveRequest> early = new ArrayList<>();
        List<int[]> earlyBuffers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            int[] into = new int[256];
            earlyBuffers.add(into);
            early.add(receiver.irecv(MemorySegment.ofArray(into), 0, Device.ANY_TAG, 0, ReceiveRequest.ANY_TYPE));
        }
        for (int i = 0; i < n; i++) {
            DeviceRequest s = sender.isend(message(i, sizeOf(i)), 1, TAG + (i & 1), 0, ReceiveRequest.ANY_TYPE, false);
            assertTrue(s.isComplete(), "a standard send up to the eager limit completes inside isend");
        }
        for (int i = 0; i < n; i++) {
            int[] into;
            ReceiveRequest r;
            if (i < early.size()) {
                into = earlyBuffers.get(i);
                r = early.get(i);
            } else {
                into = new int[256];
                r = receiver.irecv(MemorySegment.ofArray(into), Device.ANY_SOURCE, Device.ANY_TAG, 0, ReceiveRequest.ANY_TYPE);
            }
            receiver.await(r);
            assertEquals(i, into[0], "message " + i + " in send order");
            assertEquals(-i, into[sizeOf(i) / 4 - 1]);
            assertEquals(sizeOf(i), r.byteCount());
            assertEquals(TAG + (i & 1), r.tag());
            assertEquals(0, r.source());
        }
        assertFalse(receiver.progress(), "nothing left on the ring");
    }

    /** Sizes at the edges of ring entries (one slot, two, the largest entry) and just past the ring's limit. */
    private static final int M = SmallMessageRing.DEFAULT_MAX_PAYLOAD;
    private static final int[] EDGE_SIZES = {0, 1, 8, 9, 40, 41, 72, 73, 104, 105, M - 24, M - 1, M, M + 1, 2 * M, 4096, 0, 8, M, M};

    private static byte[] edgeMessage(int seq, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (seq * 13 + i * 5 + 3);
        }
        return b;
    }

    @Test
    void sizesAtTheRingsEntryLimitsKeepOrderAndContentAcrossBothPaths() {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        assertEquals(M, fabric.ringMax(), "M and smaller on the ring, M + 1 locked");
        int n = 20 * EDGE_SIZES.length;   // many laps of the ring, and full rings (each batch takes more slots than it has)
        int batch = 7;
        int received = 0;
        for (int sent = 0; sent < n; ) {
            // a batch of sends with no receive in between: early ones fill the ring, later ones find it full
            List<ReceiveRequest> posted = new ArrayList<>();
            List<byte[]> into = new ArrayList<>();
            for (int i = 0; i < batch / 2; i++) {   // some receives posted before their messages are sent
                byte[] b = new byte[4096];
                into.add(b);
                posted.add(receiver.irecv(MemorySegment.ofArray(b), 0, Device.ANY_TAG, 0, ReceiveRequest.ANY_TYPE));
            }
            for (int i = 0; i < batch * 5 && sent < n; i++, sent++) {
                int size = EDGE_SIZES[sent % EDGE_SIZES.length];
                DeviceRequest s = sender.isend(MemorySegment.ofArray(edgeMessage(sent, size)), 1, sent, 0,
                        ReceiveRequest.ANY_TYPE, false);
                assertTrue(s.isComplete());
            }
            while (received < sent) {
                ReceiveRequest r;
                byte[] b;
                if (!posted.isEmpty()) {
                    r = posted.remove(0);
                    b = into.remove(0);
                } else {
                    b = new byte[4096];
                    r = receiver.irecv(MemorySegment.ofArray(b), Device.ANY_SOURCE, Device.ANY_TAG, 0, ReceiveRequest.ANY_TYPE);
                }
                receiver.await(r);
                int size = EDGE_SIZES[received % EDGE_SIZES.length];
                assertEquals(received, r.tag(), "message " + received + " in send order");
                assertEquals(size, r.byteCount());
                assertArrayEquals(edgeMessage(received, size), java.util.Arrays.copyOf(b, size), "payload of " + received);
                received++;
            }
            batch = batch % 11 + 3;
        }
        assertFalse(receiver.progress(), "nothing left on the ring");
    }

    @Test
    void anySourceReceivesKeepEachSendersOrder() throws Exception {
        SmpFabric fabric = new SmpFabric(3);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        int n = 2000;
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> senders = new ArrayList<>();
        for (int rank : new int[] {0, 2}) {
            SmpDevice d = new SmpDevice(fabric, rank, WaitMode.SPIN);
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        d.await(d.isend(message(i, sizeOf(i)), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false));
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "sender-" + rank);
            senders.add(t);
            t.start();
        }
        int[] next = new int[3];
        for (int k = 0; k < 2 * n; k++) {
            int[] into = new int[256];
            ReceiveRequest r = receiver.irecv(MemorySegment.ofArray(into), Device.ANY_SOURCE, TAG, 0, ReceiveRequest.ANY_TYPE);
            receiver.await(r);
            int from = r.source();
            assertTrue(from == 0 || from == 2, "source " + from);
            assertEquals(next[from], into[0], "rank " + from + "'s messages in its send order");
            next[from]++;
        }
        for (Thread t : senders) {
            t.join();
        }
        assertEquals(null, failed.get());
        assertEquals(n, next[0]);
        assertEquals(n, next[2]);
    }

    @Test
    void aSecondSendingThreadOfTheRankTakesTheLockedPathAfterTheRingsMessages() throws Exception {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        Thread owner = new Thread(() -> {
            for (int i = 0; i < 3; i++) {
                sender.isend(message(i, 8), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
            }
        });
        owner.start();
        owner.join();
        // this thread is not the ring's owner: its small sends go through the receiver's lock
        for (int i = 3; i < 6; i++) {
            sender.isend(message(i, 8), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
        }
        for (int i = 0; i < 6; i++) {
            int[] into = new int[2];
            receiver.await(receiver.irecv(MemorySegment.ofArray(into), 0, TAG, 0, ReceiveRequest.ANY_TYPE));
            assertEquals(i, into[0]);
        }
    }

    @Test
    void aCancelledReceiveLeavesTheRingsMessageForTheNextReceive() {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        int[] first = new int[2];
        ReceiveRequest cancelled = receiver.irecv(MemorySegment.ofArray(first), 0, TAG, 0, ReceiveRequest.ANY_TYPE);
        assertTrue(receiver.cancel(cancelled));
        assertTrue(cancelled.isComplete() && cancelled.isCancelled());
        sender.isend(message(41, 8), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
        int[] second = new int[2];
        ReceiveRequest r = receiver.irecv(MemorySegment.ofArray(second), 0, TAG, 0, ReceiveRequest.ANY_TYPE);
        assertTrue(r.isComplete(), "posting the receive drains the ring and matches the waiting message");
        assertEquals(41, second[0]);
        assertEquals(0, first[0], "the cancelled receive got nothing");
        assertFalse(receiver.cancel(r), "a completed receive cannot be cancelled");
    }

    @Test
    void aPostedReceiveCompletesWhenTheReceiverPollsAndOnlyOnce() {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        int[] into = new int[2];
        ReceiveRequest r = receiver.irecv(MemorySegment.ofArray(into), Device.ANY_SOURCE, Device.ANY_TAG, 0,
                ReceiveRequest.ANY_TYPE);
        sender.isend(message(7, 8), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
        assertTrue(receiver.progress(), "the poll moves the message off the ring");
        assertTrue(r.isComplete());
        assertEquals(7, into[0]);
        assertFalse(receiver.progress(), "and it is consumed once");
        assertEquals(null, receiver.iprobe(Device.ANY_SOURCE, Device.ANY_TAG, 0), "no second copy is queued");
    }

    @Test
    void aRingMessageLongerThanTheReceiveIsTruncatedWithAnError() {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.SPIN);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.SPIN);
        int[] into = new int[1];
        ReceiveRequest r = receiver.irecv(MemorySegment.ofArray(into), 0, TAG, 0, ReceiveRequest.ANY_TYPE);
        sender.isend(MemorySegment.ofArray(new int[] {9, 10, 11, 12}), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
        receiver.await(r);
        assertEquals(9, into[0]);
        assertEquals(16, r.byteCount());
        assertTrue(r.error() instanceof TesseraException te && te.errorClass() == ErrorClass.TRUNCATE, String.valueOf(r.error()));
    }

    @Test
    void aReceiverParkedWithoutTimeoutIsWokenByARingSend() throws Exception {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.BLOCK);
        dev.tessera.device.MatchingEngine engine = fabric.engine(1);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.BLOCK);
        int[] into = new int[2];
        ReceiveRequest r = receiver.irecv(MemorySegment.ofArray(into), 0, TAG, 0, ReceiveRequest.ANY_TYPE);
        Thread waiter = new Thread(() -> {
            // the device's protocol with an unbounded park: register, poll once more, park until woken
            engine.sleeping(Thread.currentThread());
            try {
                while (!r.isComplete()) {
                    if (!engine.poll()) {
                        java.util.concurrent.locks.LockSupport.park();
                    }
                }
            } finally {
                engine.awake(Thread.currentThread());
            }
        }, "parked-receiver");
        waiter.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait(); // until it is parked (no time involved: it parks for ever unless woken)
        }
        sender.isend(message(3, 8), 1, TAG, 0, ReceiveRequest.ANY_TYPE, false);
        waiter.join(); // hangs (and the @Timeout fails the test) if the send does not wake it
        assertEquals(3, into[0]);
    }

    @Test
    void aBadRingSwitchIsRejectedNamingTheProperty() {
        String old = System.getProperty("tessera.smp.ring");
        System.setProperty("tessera.smp.ring", "sometimes");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SmpFabric(2));
            assertTrue(e.getMessage().contains("tessera.smp.ring") && e.getMessage().contains("sometimes"), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty("tessera.smp.ring");
            } else {
                System.setProperty("tessera.smp.ring", old);
            }
        }
    }
}
