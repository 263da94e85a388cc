package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sender's copy of a piece of {@link CellCopy#MIN_BYTES} or more into a cell goes through
 * memcpy as a critical downcall ({@link CellCopy}): from byte and other primitive arrays, from
 * slices at odd offsets, from read-only and native segments, and while the collector moves
 * arrays. Two ranks' devices sharing one mapped segment in this process, the test driving both
 * ranks' progress.
 */
@Timeout(120)
class ShmCellCopyTest extends TwoShmRanks {

    static final int CELL_BYTES = ShmFile.DEFAULT_CELL_BYTES;
    static final int CAPACITY = CELL_BYTES - ShmLayout.CELL_HEADER;
    static final int MIN = (int) CellCopy.MIN_BYTES;

    ShmCellCopyTest() {
        super(CELL_BYTES);
    }

    /** Sends {@code source} from rank 0 and returns what rank 1 received. */
    private byte[] roundTrip(MemorySegment source, int tag) {
        int n = (int) source.byteSize();
        ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, tag, 0, 0);
        DeviceRequest send = rank0.isend(source, 1, tag, 0, 0, false);
        job.untilComplete(send, recv);
        assertNull(recv.error(), () -> n + " bytes: " + recv.error());
        assertEquals(n, recv.byteCount());
        return recv.buffer().toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void piecesFromThisSizeOnGoByMemcpy() {
        assertTrue(CellCopy.byMemcpy(MIN), "memcpy not linked on this machine");
        assertTrue(CellCopy.byMemcpy(CAPACITY));
        assertEquals(false, CellCopy.byMemcpy(MIN - 1));
    }

    @Test
    void theLinkAtDeviceStartCopiesAndLeavesTheCopyWorking() {
        CellCopy.link();   // each device of this test already ran it once; again is harmless
        byte[] data = InProcessShmRanks.pattern(MIN, 77);
        byte[] into = new byte[MIN];
        CellCopy.copy(MemorySegment.ofArray(data), 0, MemorySegment.ofArray(into), 0, MIN);
        assertArrayEquals(data, into);
    }

    @Test
    void byteArraysOfEverySizeAroundTheThresholdAndTheCellArriveWhole() {
        int[] sizes = {MIN - 1, MIN, MIN + 1, ShmDevice.FIRST_PIECE + MIN + 7, CAPACITY, CAPACITY + 1,
            ShmDevice.FIRST_PIECE + CAPACITY + MIN - 1, 3 * CAPACITY + 5};
        int tag = 0;
        for (int n : sizes) {
            byte[] data = InProcessShmRanks.pattern(n, ++tag);
            assertArrayEquals(data, roundTrip(MemorySegment.ofArray(data), tag), n + " bytes");
        }
    }

    @Test
    void slicesAtOddOffsetsOfOtherPrimitiveArraysArriveWhole() {
        double[] doubles = new double[20000];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = i * 1.5 - 7;
        }
        MemorySegment d = MemorySegment.ofArray(doubles).asSlice(3, 3 * CAPACITY / 2 + 11);
        assertArrayEquals(d.toArray(ValueLayout.JAVA_BYTE), roundTrip(d, 1));
        int[] ints = new int[9000];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i * 31 + 5;
        }
        MemorySegment s = MemorySegment.ofArray(ints).asSlice(5, 4 * 9000 - 9);
        assertArrayEquals(s.toArray(ValueLayout.JAVA_BYTE), roundTrip(s, 2));
    }

    @Test
    void readOnlyAndNativeSegmentsArriveWhole() {
        byte[] data = InProcessShmRanks.pattern(2 * CAPACITY + 99, 3);
        assertArrayEquals(data, roundTrip(MemorySegment.ofArray(data).asReadOnly(), 3));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment off = arena.allocate(data.length);
            MemorySegment.copy(MemorySegment.ofArray(data), 0, off, 0, data.length);
            assertArrayEquals(data, roundTrip(off, 4));
        }
    }

    @Test
    void arraysMovedByTheCollectorBetweenPiecesArriveWhole() {
        // a ring of 8 cells holds less than the message: pieces are written as the receiver frees cells,
        // with collections (which move young arrays) in between
        int n = 12 * CAPACITY + 333;
        for (int round = 0; round < 20; round++) {
            byte[] data = InProcessShmRanks.pattern(n, round);
            ReceiveRequest recv = rank1.irecv(MemorySegment.ofArray(new byte[n]), 0, round, 0, 0);
            DeviceRequest send = rank0.isend(MemorySegment.ofArray(data), 1, round, 0, 0, false);
            List<byte[]> churn = new ArrayList<>();
            while (!send.isComplete() || !recv.isComplete()) {
                rank0.progress();
                rank1.progress();
                churn.add(new byte[64 * 1024]);
                if (churn.size() > 64) {
                    churn.clear();
                    System.gc();
                }
            }
            assertNull(recv.error());
            assertArrayEquals(data, recv.buffer().toArray(ValueLayout.JAVA_BYTE), "round " + round);
        }
    }
}
