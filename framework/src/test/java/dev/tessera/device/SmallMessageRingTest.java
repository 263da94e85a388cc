package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Variable-length ring entries on the engine alone: entries of one to many slots, entries that
 * run past the ring's end into the overflow area, a ring too full for a long entry, and a
 * payload word that would pass for a later entry's sequence number.
 */
@Timeout(60)
class SmallMessageRingTest {

    private final MatchingEngine engine = new MatchingEngine();

    /** {@code bytes} bytes, each a function of (seq, index), so a wrong or shifted byte shows. */
    private static byte[] payload(int seq, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (seq * 31 + i * 7 + 1);
        }
        return b;
    }

    private ReceiveRequest take(int source, int tag, int capacity) {
        ReceiveRequest r = new ReceiveRequest(MemorySegment.ofArray(new byte[capacity]), source, tag, 0,
                ReceiveRequest.ANY_TYPE);
        IncomingMessage m = engine.post(r);
        if (m != null) {
            m.deliver(r);
        }
        assertTrue(r.isComplete(), "a message waits for the receive");
        return r;
    }

    private static byte[] received(ReceiveRequest r) {
        return r.buffer().asSlice(0, r.byteCount()).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void theEntrySizeFollowsThePayloadAndTheRingCapsIt() {
        assertEquals(1, SmallMessageRing.entrySlots(0));
        assertEquals(1, SmallMessageRing.entrySlots(SmallMessageRing.FIRST_SLOT_PAYLOAD));
        assertEquals(2, SmallMessageRing.entrySlots(SmallMessageRing.FIRST_SLOT_PAYLOAD + 1));
        assertEquals((24 + 2048 + SmallMessageRing.SLOT_BYTES - 1) / SmallMessageRing.SLOT_BYTES, SmallMessageRing.entrySlots(2048));
        assertEquals(4 * SmallMessageRing.SLOT_BYTES - 24, SmallMessageRing.maxPayload(8), "half of 8 slots");
        assertEquals(SmallMessageRing.DEFAULT_MAX_PAYLOAD, engine.openRing(0, 128).maxPayload);
        assertEquals(2048, engine.openRing(5, 256, 2048).maxPayload);
        assertEquals(SmallMessageRing.maxPayload(16), engine.openRing(1, 16).maxPayload);
        SmallMessageRing.Producer small = engine.openRing(2, 16, 100);
        assertEquals(100, small.maxPayload);
        assertThrows(IllegalArgumentException.class,
                () -> small.offer(1, 0, 0, MemorySegment.ofArray(new byte[101]), 101));
    }

    /**
     * Every size from 0 to the largest entry, many laps of a 16-slot ring: entries start at
     * every slot, so many run past the ring's end into the overflow area; receives alternate
     * between posted before (taken from the slot) and after (drained into unexpected copies).
     */
    @Test
    void everySizeArrivesWholeAndInOrderAcrossManyLaps() {
        SmallMessageRing.Producer ring = engine.openRing(4, 16);
        int max = ring.maxPayload;
        int seq = 0;
        for (int bytes = 0; bytes <= max; bytes++) {
            for (int rep = 0; rep < 2; rep++, seq++) {
                byte[] sent = payload(seq, bytes);
                boolean postFirst = (seq & 1) == 0;
                ReceiveRequest r = null;
                if (postFirst) {
                    r = new ReceiveRequest(MemorySegment.ofArray(new byte[max]), 4, seq, 0, ReceiveRequest.ANY_TYPE);
                    assertNull(engine.post(r));
                }
                assertTrue(ring.offer(seq, 0, 0, MemorySegment.ofArray(sent), bytes), "size " + bytes);
                if (postFirst) {
                    assertTrue(engine.poll() || r.isComplete());
                    assertTrue(r.isComplete());
                } else {
                    r = take(4, seq, max);
                }
                assertEquals(bytes, r.byteCount(), "size " + bytes);
                assertArrayEquals(sent, received(r), "payload of size " + bytes + ", message " + seq);
            }
        }
        assertFalse(engine.poll(), "nothing left on the ring");
        assertEquals(0, engine.unexpectedCount(0));
    }

    /** The largest payload of an entry of {@code slots} slots. */
    private static int fits(int slots) {
        return slots * SmallMessageRing.SLOT_BYTES - 24;
    }

    /** A run of mixed sizes fills the ring; the refused one fits once the engine has drained it. */
    @Test
    void aRingWithoutRoomForALongEntryRefusesItUntilDrained() {
        SmallMessageRing.Producer ring = engine.openRing(2, 8);   // entries of at most 4 slots
        int[] sizes = {fits(4), fits(1), fits(2), fits(1)};         // 4 + 1 + 2 + 1 = 8 slots: full
        for (int i = 0; i < sizes.length; i++) {
            assertTrue(ring.offer(i, 0, 0, MemorySegment.ofArray(payload(i, sizes[i])), sizes[i]));
        }
        assertFalse(ring.offer(4, 0, 0, MemorySegment.ofArray(payload(4, 0)), 0), "not even one slot left");
        ReceiveRequest first = take(2, 0, 256);   // the post drains up to its match: four slots free again
        assertArrayEquals(payload(0, fits(4)), received(first));
        assertTrue(ring.offer(4, 0, 0, MemorySegment.ofArray(payload(4, fits(4))), fits(4)), "slots 0-3 of the next lap");
        assertFalse(ring.offer(5, 0, 0, MemorySegment.ofArray(payload(5, 8)), 8), "full again");
        assertEquals(4, engine.unexpectedCount(0), "a complete drain leaves the rest as unexpected copies");
        // the whole ring is free: positions 12, 13-14, then 15-18, which runs past the ring's end
        assertTrue(ring.offer(5, 0, 0, MemorySegment.ofArray(payload(5, fits(1))), fits(1)));
        assertTrue(ring.offer(6, 0, 0, MemorySegment.ofArray(payload(6, fits(2))), fits(2)));
        assertTrue(ring.offer(7, 0, 0, MemorySegment.ofArray(payload(7, fits(4))), fits(4)));
        assertFalse(ring.offer(8, 0, 0, MemorySegment.ofArray(payload(8, fits(2))), fits(2)), "two slots needed, one free");
        assertTrue(ring.offer(8, 0, 0, MemorySegment.ofArray(payload(8, fits(1))), fits(1)), "one slot needed, one free");
        int[] all = {fits(4), fits(1), fits(2), fits(1), fits(4), fits(1), fits(2), fits(4), fits(1)};
        for (int i = 1; i < all.length; i++) {
            assertArrayEquals(payload(i, all[i]), received(take(2, i, 256)), "message " + i);
        }
        assertFalse(engine.poll());
        assertEquals(0, engine.unexpectedCount(0));
    }

    /**
     * A payload whose word at the start of its second slot equals the sequence number a later
     * entry starting in that slot will carry. Left there, the word would pass for a published
     * entry once the consumer gets to that position: a phantom message. The producer clears it
     * before it publishes the entry that ends at that position.
     */
    @Test
    void aPayloadWordThatLooksLikeALaterSequenceNumberNeverPassesForAnEntry() {
        SmallMessageRing.Producer ring = engine.openRing(3, 8);
        int secondSlotWord = SmallMessageRing.SLOT_BYTES - 24;   // payload offset of slot 1's sequence word
        byte[] forged = payload(0, fits(2));   // two slots
        // slot 1 next starts an entry at position 9, which publishes sequence number 10
        MemorySegment.ofArray(forged).set(ValueLayout.JAVA_LONG_UNALIGNED, secondSlotWord, 10L);
        assertTrue(ring.offer(0, 0, 0, MemorySegment.ofArray(forged), forged.length));
        assertArrayEquals(forged, received(take(3, 0, 128)));
        // one-slot entries at positions 2..8: none covers slot 1, whose next entry starts at position 9
        byte[] harmless = payload(1, fits(2));
        MemorySegment.ofArray(harmless).set(ValueLayout.JAVA_LONG_UNALIGNED, secondSlotWord, 2L);   // a position already past
        assertTrue(ring.offer(1, 0, 0, MemorySegment.ofArray(payload(1, 8)), 8));
        assertArrayEquals(payload(1, 8), received(take(3, 1, 8)));
        for (int i = 2; i <= 7; i++) {
            assertTrue(ring.offer(i, 0, 0, MemorySegment.ofArray(payload(i, 8)), 8));
            assertArrayEquals(payload(i, 8), received(take(3, i, 8)));
        }
        assertFalse(engine.poll(), "no phantom entry at position 9");
        assertEquals(0, engine.unexpectedCount(0));
        // a real entry there is read normally
        assertTrue(ring.offer(8, 0, 0, MemorySegment.ofArray(harmless), harmless.length));
        assertArrayEquals(harmless, received(take(3, 8, 128)));
    }
}
