package dev.tessera.device.smp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.TesseraException;
import dev.tessera.device.NodeRegion;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The smp device's collective region copies pieces of 4 KiB or more between the ranks' buffers
 * and its slots by the shm helper's memcpy ({@link dev.tessera.device.shm.BulkCopy}) by default,
 * the stub with {@code TESSERA_SMP_COLL_MEMCPY=off}, and whole at every size and offset.
 */
@Timeout(60)
class SmpRegionCopyTest {

    @Test
    void largePiecesGoByMemcpyByDefaultAndNotWhenOff() {
        NodeRegion region = new SmpDevice(new SmpFabric(2), 0).nodeRegion(0);
        assertNotNull(region, "an smp job of two ranks has no collective region");
        assertEquals(4096, region.bulkCopyFrom(), "the region's large copies do not go by memcpy");
        assertEquals(Long.MAX_VALUE, SmpRegion.create(2, Map.of("TESSERA_SMP_COLL_MEMCPY", "off")).bulkFrom);
        assertEquals(4096, SmpRegion.create(2, Map.of("TESSERA_SMP_COLL_MEMCPY", " ON ")).bulkFrom);
    }

    @Test
    void aBadSwitchIsRefusedWithItsName() {
        TesseraException e = assertThrows(TesseraException.class,
                () -> SmpRegion.create(2, Map.of("TESSERA_SMP_COLL_MEMCPY", "yse")));
        assertTrue(e.getMessage().contains("TESSERA_SMP_COLL_MEMCPY") && e.getMessage().contains("yse"), e.getMessage());
    }

    @Test
    void heapArraysToSlotsAndBackArriveWholeAtEverySizeAndOffset() {
        NodeRegion region = new SmpDevice(new SmpFabric(2), 1).nodeRegion(0);
        // a native segment as large as the biggest piece stands in for the slots (the region's copy takes any two)
        MemorySegment slots = Arena.ofAuto().allocate((1 << 20) + 4096, 64);
        int[] sizes = {1, 8, 4095, 4096, 4097, 64 * 1024 + 3, 1 << 20};
        for (int n : sizes) {
            for (int off : new int[] {0, 8, 13, 64}) {
                byte[] data = new byte[n + off];
                for (int i = 0; i < data.length; i++) {
                    data[i] = (byte) (i * 31 + n + off);
                }
                slots.fill((byte) 0);
                region.copy(MemorySegment.ofArray(data), off, slots, 64 + off, n);
                byte[] back = new byte[n + 5];
                region.copy(slots, 64 + off, MemorySegment.ofArray(back), 5, n);
                assertArrayEquals(Arrays.copyOfRange(data, off, off + n), Arrays.copyOfRange(back, 5, 5 + n),
                        n + " bytes at offset " + off);
                assertTrue(slots.get(ValueLayout.JAVA_BYTE, 63 + off) == 0
                        && slots.get(ValueLayout.JAVA_BYTE, 64 + off + n) == 0, n + " bytes: wrote outside the piece");
            }
        }
        // a read-only slice of a double array (a bcast root's buffer may be read-only)
        double[] doubles = new double[40_000];
        Arrays.setAll(doubles, i -> i * 0.25 - 3);
        double[] into = new double[30_000];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment to = arena.allocate(8 * 30_000, 64);
            region.copy(MemorySegment.ofArray(doubles).asSlice(24, 8 * 30_000).asReadOnly(), 0, to, 0, 8 * 30_000);
            region.copy(to, 0, MemorySegment.ofArray(into), 0, 8 * 30_000);
        }
        assertArrayEquals(Arrays.copyOfRange(doubles, 3, 30_003), into);
    }
}
