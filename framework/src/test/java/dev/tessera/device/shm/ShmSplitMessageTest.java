package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The direct path's split ({@link ShmDevice#SPLIT_MIN}): a standard message of more than
 * {@link ShmDevice#SPLIT_MIN} bytes and at most {@link ShmDevice#DIRECT_MAX} goes straight into
 * the ring as a lead piece of {@link ShmDevice#LEAD_PIECE} bytes in its FIRST cell and the rest in
 * MORE cells, complete at once; with too little room in the ring for all its cells it takes the
 * queue instead, and nothing overtakes. Two ranks' devices on one segment in this process (8
 * cells of 32 KiB per ring), the test driving both ranks' progress.
 */
@Timeout(60)
class ShmSplitMessageTest extends TwoShmRanks {

    static final int CELL_BYTES = ShmFile.DEFAULT_CELL_BYTES;
    static final int CAPACITY = CELL_BYTES - ShmLayout.CELL_HEADER;
    static final int SPLIT = ShmDevice.SPLIT_MIN;
    static final int LEAD = ShmDevice.LEAD_PIECE;
    static final int MAX = ShmDevice.DIRECT_MAX;

    /** Either side of the split size, the lead piece, the direct limit and the cell, and odd sizes between. */
    static final int[] SIZES = {ShmLayout.LANE_MAX + 1, LEAD - 1, LEAD, LEAD + 1, SPLIT - 1, SPLIT, SPLIT + 1, 6 * 1024,
        6 * 1024 + 3, 8 * 1024 - 1, 8 * 1024, 8 * 1024 + 1, 10 * 1024 + 5, 12 * 1024, 12 * 1024 + 7, MAX - 1, MAX,
        MAX + 1, CAPACITY - 1, CAPACITY, CAPACITY + 1};

    ShmSplitMessageTest() {
        super(CELL_BYTES);
    }

    private static byte[] pattern(int n, int seed) {
        return InProcessShmRanks.pattern(n, seed);
    }

    /** The {@code index}-th cell rank 0 wrote into its ring to rank 1 (counting from 0 within one lap). */
    private long cell(int index) {
        return ShmLayout.ringOffset(0, 1, 2, CELL_BYTES, CELLS) + ShmLayout.RING_CELLS + (long) index * CELL_BYTES;
    }

    private int chunkOfCell(int index) {
        return job.file.get(ValueLayout.JAVA_INT, cell(index) + ShmLayout.C_CHUNK);
    }

    private int kindOfCell(int index) {
        return job.file.get(ValueLayout.JAVA_INT, cell(index) + ShmLayout.C_KIND);
    }

    @Test
    void aMessageAboveTheSplitSizeLeadsWithASmallPieceAndIsCompleteAtOnce() {
        int n = 8 * 1024;
        assertTrue(n > SPLIT && n <= MAX && LEAD < n, "8 KiB is split with the defaults");
        byte[] data = pattern(n, 1);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 1, 0, 0, false);
        assertTrue(send.isComplete(), "a direct message is complete once written");
        assertEquals(ShmLayout.FIRST, kindOfCell(0));
        assertEquals(LEAD, chunkOfCell(0));
        int rest = n - LEAD;
        for (int i = 1; rest > 0; i++) {
            assertEquals(ShmLayout.MORE, kindOfCell(i), "cell " + i);
            assertEquals(Math.min(rest, ShmDevice.PIECE_BYTES), chunkOfCell(i), "cell " + i);
            rest -= chunkOfCell(i);
        }
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 1, 0, 0);
        job.untilComplete(recv);
        assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void aMessageOfTheSplitSizeTakesOneCell() {
        byte[] data = pattern(SPLIT, 2);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 2, 0, 0, false);
        assertTrue(send.isComplete());
        assertEquals(ShmLayout.FIRST, kindOfCell(0));
        assertEquals(SPLIT, chunkOfCell(0));
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[SPLIT]), 0, 2, 0, 0);
        job.untilComplete(recv);
        assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void everySizeAroundTheSplitArrivesWholeInAPostedReceive() {
        int seed = 10;
        for (int n : SIZES) {
            byte[] data = pattern(n, ++seed);
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, seed, 0, 0);
            DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, seed, 0, 0, false);
            job.untilComplete(send, recv);
            assertNull(recv.error(), () -> "size " + n + ": " + recv.error());
            assertEquals(n, recv.byteCount(), "size " + n);
            assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE), "payload of " + n + " bytes");
        }
    }

    @Test
    void everySizeAroundTheSplitArrivesWholeWhenTheReceiveIsPostedLate() {
        int seed = 100;
        for (int n : SIZES) {
            byte[] data = pattern(n, ++seed);
            DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, seed, 0, 0, false);
            job.untilComplete(send);
            for (int i = 0; i < 100; i++) {
                rank1.progress();   // buffered as an unexpected message
            }
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, seed, 0, 0);
            job.untilComplete(recv);
            assertNull(recv.error(), () -> "size " + n + ": " + recv.error());
            assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE), "payload of " + n + " bytes");
        }
    }

    @Test
    void aNativeSegmentSplitsAsAnArrayDoes() {
        int n = 12 * 1024 + 7;
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment src = arena.allocate(n);
            MemorySegment.copy(MemorySegment.ofArray(pattern(n, 3)), 0, src, 0, n);
            MemorySegment dst = arena.allocate(n);
            ReceiveRequest recv = rank1.irecv(dst, 0, 3, 0, 0);
            DeviceRequest send = rank0.isend(src, 1, 3, 0, 0, false);
            job.untilComplete(send, recv);
            assertArrayEquals(pattern(n, 3), dst.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * More split messages than the ring of 8 cells holds, sent before the receiver looks: those
     * that find too few free cells take the queue (none is written in part), and every message
     * arrives whole and in send order (one tag for all).
     */
    @Test
    void moreMessagesThanTheRingHoldsArriveWholeAndInOrder() {
        int[] sizes = {8 * 1024, 12 * 1024 + 7, SPLIT + 1, 1500, 6 * 1024 + 3, MAX, 3 * CAPACITY + 5, 8 * 1024 - 1};
        List<DeviceRequest> sends = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            byte[] data = pattern(sizes[i % sizes.length], 1000 + i);
            sent.add(data);
            sends.add(rank0.isend(MemorySegment.ofArray(data), 1, 5, 0, 0, false));
        }
        assertTrue(sends.stream().anyMatch(s -> !s.isComplete()), "the ring filled up: later messages are queued");
        for (int i = 0; i < 40; i++) {
            byte[] expected = sent.get(i);
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[CAPACITY * 4]), 0, 5, 0, 0);
            job.untilComplete(recv);
            assertEquals(expected.length, recv.byteCount(), "message " + i);
            assertArrayEquals(expected, java.util.Arrays.copyOf(recv.buffer().toArray(ValueLayout.JAVA_BYTE),
                    expected.length), "message " + i);
        }
        job.untilComplete(sends.toArray(DeviceRequest[]::new));
    }

    /** Both ranks send split messages to each other before either receives: both complete (buffered in the rings). */
    @Test
    void headToHeadSplitMessagesDoNotWaitForTheReceives() {
        int n = 10 * 1024 + 5;
        DeviceRequest a = rank0.isend(MemorySegment.ofArray(pattern(n, 40)), 1, 6, 0, 0, false);
        DeviceRequest b = rank1.isend(MemorySegment.ofArray(pattern(n, 41)), 0, 6, 0, 0, false);
        job.untilComplete(a, b);
        ReceiveRequest ra = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 6, 0, 0);
        ReceiveRequest rb = rank0.irecv(MemorySegment.ofArray(new byte[n]), 1, 6, 0, 0);
        job.untilComplete(ra, rb);
        assertArrayEquals(pattern(n, 40), ra.buffer().toArray(ValueLayout.JAVA_BYTE));
        assertArrayEquals(pattern(n, 41), rb.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void aTruncatedSplitMessageGivesTheFirstBytesAndAnError() {
        int n = 12 * 1024;
        byte[] data = pattern(n, 9);
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[LEAD + 10]), 0, 9, 0, 0);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 9, 0, 0, false);
        job.untilComplete(send, recv);
        assertEquals(dev.tessera.ErrorClass.TRUNCATE, ((dev.tessera.TesseraException) recv.error()).errorClass());
        assertArrayEquals(java.util.Arrays.copyOf(data, LEAD + 10), recv.buffer().toArray(ValueLayout.JAVA_BYTE));
        // the pair goes on: the next message arrives whole
        byte[] next = pattern(n, 10);
        ReceiveRequest after = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, 10, 0, 0);
        job.untilComplete(rank0.isend(MemorySegment.ofArray(next), 1, 10, 0, 0, false), after);
        assertArrayEquals(next, after.buffer().toArray(ValueLayout.JAVA_BYTE));
    }
}
