package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A message that takes the queue and is larger than {@link ShmDevice#FIRST_PIECE} (8 KiB; so
 * one above {@link ShmDevice#DIRECT_MAX}, or one queued behind another) starts with a FIRST cell of
 * that many bytes, so the receiver starts copying it out while the sender copies the rest in;
 * the MORE cells after it are filled. Cells of the default 32 KiB, two ranks' devices sharing
 * one mapped segment in this process, the test driving both ranks' progress.
 */
@Timeout(60)
class ShmFirstPieceTest extends TwoShmRanks {

    static final int CELL_BYTES = ShmFile.DEFAULT_CELL_BYTES;
    static final int CAPACITY = CELL_BYTES - ShmLayout.CELL_HEADER;
    static final int PIECE = ShmDevice.FIRST_PIECE;

    ShmFirstPieceTest() {
        super(CELL_BYTES);
    }

    private static byte[] pattern(int n, int seed) {
        return InProcessShmRanks.pattern(n, seed);
    }

    private void untilComplete(DeviceRequest... requests) {
        job.untilComplete(requests);
    }

    /** Payload bytes of the {@code index}-th cell rank 0 wrote into its ring to rank 1. */
    private int chunkOfCell(int index) {
        long cell = ShmLayout.ringOffset(0, 1, 2, CELL_BYTES, CELLS) + ShmLayout.RING_CELLS + (long) index * CELL_BYTES;
        return job.file.get(ValueLayout.JAVA_INT, cell + ShmLayout.C_CHUNK);
    }

    private static final int[] SIZES = {PIECE - 1, PIECE, PIECE + 1, PIECE + 16, PIECE + 17, CAPACITY - 1, CAPACITY,
        CAPACITY + 1, PIECE + CAPACITY, PIECE + CAPACITY + 1, 3 * CAPACITY + 5};

    @Test
    void aMessageLargerThanTheFirstPieceStartsWithACellOfThatManyBytes() {
        byte[] data = pattern(20000, 1);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 1, 0, 0, false);
        assertEquals(PIECE, chunkOfCell(0));
        assertEquals(20000 - PIECE, chunkOfCell(1));
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[20000]), 0, 1, 0, 0);
        untilComplete(send, recv);
        assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void everySizeAroundTheFirstPieceAndTheCellArrivesWholeInAPostedReceive() {
        int seed = 0;
        for (int n : SIZES) {
            byte[] data = pattern(n, ++seed);
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, seed, 0, 0);
            DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, seed, 0, 0, false);
            untilComplete(send, recv);
            assertNull(recv.error(), () -> "size " + n + ": " + recv.error());
            assertEquals(n, recv.byteCount(), "size " + n);
            assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE), "payload of " + n + " bytes");
        }
    }

    @Test
    void everySizeAroundTheFirstPieceArrivesWholeWhenTheReceiveIsPostedLate() {
        int seed = 100;
        for (int n : SIZES) {
            byte[] data = pattern(n, ++seed);
            DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, seed, 0, 0, false);
            untilComplete(send);   // buffered by rank 1's progress as an unexpected message
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, seed, 0, 0);
            untilComplete(recv);
            assertNull(recv.error(), () -> "size " + n + ": " + recv.error());
            assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE), "payload of " + n + " bytes");
        }
    }

    @Test
    void aSynchronousSendLargerThanTheFirstPieceCompletesOnceMatched() {
        byte[] data = pattern(PIECE + 100, 7);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 7, 0, 0, true);
        for (int i = 0; i < 1000; i++) {
            rank0.progress();
            rank1.progress();
        }
        assertEquals(false, send.isComplete());
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[data.length]), 0, 7, 0, 0);
        untilComplete(recv, send);
        assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void aTruncatedReceiveGetsTheFirstBytesAndAnError() {
        byte[] data = pattern(PIECE + CAPACITY, 9);
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[PIECE + 10]), 0, 9, 0, 0);
        DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, 9, 0, 0, false);
        untilComplete(send, recv);
        assertEquals(dev.tessera.ErrorClass.TRUNCATE, ((dev.tessera.TesseraException) recv.error()).errorClass());
        assertArrayEquals(java.util.Arrays.copyOf(data, PIECE + 10), recv.buffer().toArray(ValueLayout.JAVA_BYTE));
    }
}
