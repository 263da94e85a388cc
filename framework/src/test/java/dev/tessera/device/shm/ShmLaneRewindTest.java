package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lane's rewind ({@link ShmLane}): a producer that finds the lane empty after its window
 * starts the next entry at the lane's first line, so a request-reply exchange stays in the first
 * lines, while a stream that keeps entries waiting goes round the whole lane; either way the
 * consumer reads every entry once, in order, with its payload, and never takes an old lap's
 * payload word for an entry or a rewind mark. One producer and one consumer over one lane in
 * this thread.
 */
@Timeout(60)
class ShmLaneRewindTest {

    static final int WINDOW = 64;
    static final int LINES = ShmLayout.LANE_LINES;

    private Arena arena;
    private ShmLane producer;
    private ShmLane consumer;
    /** Lines of each entry published and not yet read, in order, with its first payload word. */
    private final ArrayDeque<long[]> inFlight = new ArrayDeque<>();
    private long sent;
    private long received;
    private long highestLine;

    @BeforeEach
    void lane() {
        arena = Arena.ofConfined();
        MemorySegment file = arena.allocate(ShmLayout.laneBytes() + 64, 64);
        producer = new ShmLane(file, 64, true, WINDOW);
        consumer = new ShmLane(file, 64, false, WINDOW);
    }

    @AfterEach
    void free() {
        arena.close();
    }

    /** Publishes an entry of {@code payload} bytes whose words all carry its number; false if the lane is full. */
    private boolean send(int payload) {
        long at = producer.claimAt(payload);
        if (at < 0) {
            return false;
        }
        MemorySegment s = producer.segment();
        int k = ShmLane.linesFor(payload);
        highestLine = Math.max(highestLine, (at - ShmLayout.LANE_LINE) / ShmLayout.LANE_LINE + k - 1);
        s.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH, payload);
        for (int b = 0; b + 8 <= payload; b += 8) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, at + ShmLayout.L_PAYLOAD + b, sent);
        }
        producer.publish();
        inFlight.add(new long[] {k, sent});
        sent++;
        return true;
    }

    /** Reads the next entry if there is one and checks it is the one sent next. */
    private boolean receive() {
        long at = consumer.peekAt();
        if (at < 0) {
            return false;
        }
        long[] expected = inFlight.poll();
        assertTrue(expected != null, "an entry read that was never sent (after " + received + ")");
        MemorySegment s = consumer.segment();
        int payload = s.get(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH);
        assertEquals(expected[0], ShmLane.linesFor(payload), "entry " + received + ": its length");
        for (int b = 0; b + 8 <= payload; b += 8) {
            assertEquals(expected[1], s.get(ValueLayout.JAVA_LONG_UNALIGNED, at + ShmLayout.L_PAYLOAD + b),
                    "entry " + received + ", payload byte " + b);
        }
        consumer.release((int) expected[0]);
        received++;
        return true;
    }

    @Test
    void aRequestReplyExchangeStaysInTheLanesFirstLines() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20 * LINES; i++) {
            assertTrue(send(random.nextInt(ShmLayout.LANE_MAX + 1)), "an empty lane took no entry");
            assertTrue(receive(), "entry " + i + " not there after its publication");
            assertTrue(!consumer.ready() && consumer.peekAt() < 0, "a second entry where one was sent");
        }
        int most = WINDOW + ShmLane.linesFor(ShmLayout.LANE_MAX) - 1;
        assertTrue(highestLine < most, "entries reached line " + highestLine + " of " + LINES
                + ", the rewind keeps them below " + most);
    }

    @Test
    void aStreamThatKeepsEntriesWaitingGoesRoundTheWholeLane() {
        // two sent for each one read while the lane has room: it is never empty when the producer looks
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 10 * LINES; i++) {
            int payload = random.nextInt(3) == 0 ? random.nextInt(ShmLayout.LANE_MAX + 1) : 8;
            while (!send(payload)) {
                assertTrue(receive(), "a full lane with nothing to read");
            }
            if (i % 2 == 0) {
                receive();
            }
        }
        while (receive()) {
            // drain
        }
        assertEquals(sent, received, "entries lost");
        assertTrue(highestLine >= LINES - 1, "a stream used lines up to " + highestLine + " only");
    }

    @Test
    void anOldLapsPayloadWordNeverPassesForARewindMarkOrAnEntry() {
        // every payload word of lap 0 holds, for each line it lies on, the sequence number or the rewind mark
        // a consumer would wait for there on lap 1 (published before any is read, so the producer never
        // finds the lane empty and the entries cover the lap); then entries of one line, one read after
        // each: the producer goes on into lap 1's first lines (by the lap's end or a rewind), where the
        // forged words lie; the consumer must see only the real entries
        long lap1 = LINES;
        int payload = ShmLayout.LANE_MAX;
        int k = ShmLane.linesFor(payload);
        MemorySegment s = producer.segment();
        int entries = 0;
        for (long line = 0; line + 2L * k < LINES; line += k, entries++) {
            long at = producer.claimAt(payload);
            assertEquals(ShmLayout.LANE_LINE + line * ShmLayout.LANE_LINE, at, "entry " + entries + " of lap 0");
            for (int b = 0; b + 8 <= payload; b += 8) {
                long word = at + ShmLayout.L_PAYLOAD + b;
                long onLine = (word - ShmLayout.LANE_LINE) / ShmLayout.LANE_LINE;
                if ((word - ShmLayout.LANE_LINE) % ShmLayout.LANE_LINE == ShmLayout.L_SEQ) {
                    long seq = lap1 + onLine + 1;
                    s.set(ValueLayout.JAVA_LONG_UNALIGNED, word, (onLine & 1) == 0 ? seq : -seq);
                }
            }
            s.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH, payload);
            producer.publish();
        }
        for (int i = 0; i < entries; i++) {
            assertTrue(consumer.peekAt() >= 0, "entry " + i + " of lap 0 not there");
            consumer.release(k);
        }
        // one-line entries, each read: the producer rewinds after the window and goes on in lap 1's first lines,
        // where the forged words lie
        for (int i = 0; i < 4 * WINDOW; i++) {
            long at = producer.claimAt(0);
            s.set(ValueLayout.JAVA_INT, at + ShmLayout.L_LENGTH, 0);
            producer.publish();
            assertTrue(consumer.peekAt() >= 0, "entry " + i + " not there");
            consumer.release(1);
            assertTrue(!consumer.ready() && consumer.peekAt() < 0, "after entry " + i
                    + ", an old lap's payload word passed for an entry or a rewind mark");
        }
    }
}
