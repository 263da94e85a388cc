package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared-memory collectives' copies between buffers and the collective region
 * ({@link ShmDevice#regionCopy}): by memcpy from {@link CellCopy#MIN_BYTES} on, by default, and
 * whole at every size, offset and kind of segment either way.
 */
@Timeout(60)
class ShmRegionCopyTest extends TwoShmRanks {

    static final int MIN = (int) CellCopy.MIN_BYTES;

    ShmRegionCopyTest() {
        super(ShmFile.DEFAULT_CELL_BYTES);
    }

    @Test
    void collectivesCopyByMemcpyByDefault() {
        assertTrue(rank0.collectivesCopyByMemcpy(), "the world region's large copies do not go by memcpy");
        assertTrue(CellCopy.byMemcpy(MIN));
    }

    @Test
    void heapArraysToRegionAndBackArriveWholeAtEverySizeAndOffset() {
        int[] sizes = {1, 8, MIN - 1, MIN, MIN + 1, 64 * 1024 + 3, 1 << 20};
        for (boolean memcpy : new boolean[] {true, false}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment region = arena.allocate((1 << 20) + 4096, 64);
                for (int n : sizes) {
                    for (int off : new int[] {0, 8, 13, 64}) {
                        byte[] data = InProcessShmRanks.pattern(n + off, n ^ off);
                        region.fill((byte) 0);
                        ShmDevice.regionCopy(memcpy, MemorySegment.ofArray(data), off, region, 64 + off, n);
                        byte[] back = new byte[n + 5];
                        ShmDevice.regionCopy(memcpy, region, 64 + off, MemorySegment.ofArray(back), 5, n);
                        byte[] want = java.util.Arrays.copyOfRange(data, off, off + n);
                        assertArrayEquals(want, java.util.Arrays.copyOfRange(back, 5, 5 + n),
                                n + " bytes at offset " + off + (memcpy ? " by memcpy" : " by the stub"));
                        // nothing written outside the piece
                        assertTrue(region.get(ValueLayout.JAVA_BYTE, 63 + off) == 0
                                && region.get(ValueLayout.JAVA_BYTE, 64 + off + n) == 0, n + " bytes: wrote outside");
                    }
                }
            }
        }
    }

    @Test
    void slicesOfDoubleArraysAndReadOnlySourcesArriveWhole() {
        double[] doubles = new double[40_000];
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = i * 0.25 - 3;
        }
        MemorySegment src = MemorySegment.ofArray(doubles).asSlice(24, 8 * 30_000);
        double[] into = new double[30_000];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(8 * 30_000, 64);
            ShmDevice.regionCopy(true, src.asReadOnly(), 0, region, 0, src.byteSize());
            ShmDevice.regionCopy(true, region, 0, MemorySegment.ofArray(into), 0, src.byteSize());
        }
        assertArrayEquals(java.util.Arrays.copyOfRange(doubles, 3, 30_003), into);
    }
}
