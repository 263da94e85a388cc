package dev.tessera.device.shm;

import java.lang.foreign.MemorySegment;

/**
 * The shm helper's memcpy ({@link CellCopy}: glibc's memcpy as a critical downcall, heap arrays
 * included, the aliasing window of {@link HeapCopy#ALIAS_WINDOW} avoided) for the other devices
 * of this module: the smp device's collective region copies its large pieces with it, as the
 * shm device's region does ({@code ShmDevice.regionCopy}). Not exported.
 */
public final class BulkCopy {

    private BulkCopy() {
    }

    /**
     * The smallest piece that goes by memcpy, or {@link Long#MAX_VALUE} where the helper does not
     * link (no C compiler, not Linux, {@code -Dtessera.shm.memcpyMin=0}). Builds the helper on
     * first call and links its downcall ({@link CellCopy#link}), so the first collective does not
     * pay for either.
     */
    public static long minBytes() {
        if (!CellCopy.byMemcpy(CellCopy.MIN_BYTES)) {
            return Long.MAX_VALUE;
        }
        CellCopy.link();
        return CellCopy.MIN_BYTES;
    }

    /**
     * Copies {@code bytes} from {@code src} at {@code srcOffset} into {@code dst} at
     * {@code dstOffset}: by memcpy from {@link #minBytes} on, by {@link MemorySegment#copy} below
     * it or without the helper. The segments' bounds and liveness are checked as by
     * {@link MemorySegment#copy}.
     */
    public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        CellCopy.copy(src, srcOffset, dst, dstOffset, bytes);
    }
}
