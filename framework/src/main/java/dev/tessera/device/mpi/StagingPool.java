package dev.tessera.device.mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native staging buffers for payloads in heap arrays (a nonblocking MPI call keeps the
 * address after it returns, and the collector moves arrays), reused by power-of-two size
 * class. A fresh shared arena per message would cost a thread handshake on every close,
 * more than the copy itself for a 64 KiB message. Buffers come from automatic arenas, so
 * whatever the pool does not keep (beyond {@value #MAX_POOLED_BYTES} bytes) is freed by the
 * collector. Not thread-safe: the device uses it under its MPI lock.
 */
final class StagingPool {

    private static final int MIN_SHIFT = 12;
    private static final long MAX_POOLED_BYTES = 64L << 20;

    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[64];
    private long pooledBytes;

    /** A native buffer of at least {@code bytes} bytes (its size is a power of two). */
    MemorySegment take(long bytes) {
        int c = sizeClass(bytes);
        ArrayDeque<MemorySegment> q = free[c];
        MemorySegment s = q == null ? null : q.poll();
        if (s != null) {
            pooledBytes -= s.byteSize();
            return s;
        }
        return Arena.ofAuto().allocate(1L << c, 64);
    }

    /** Returns a buffer from {@link #take}; kept for reuse while the pool holds little enough. */
    void give(MemorySegment s) {
        if (pooledBytes + s.byteSize() > MAX_POOLED_BYTES) {
            return;
        }
        int c = Long.numberOfTrailingZeros(s.byteSize());
        if (free[c] == null) {
            free[c] = new ArrayDeque<>();
        }
        free[c].push(s);
        pooledBytes += s.byteSize();
    }

    static int sizeClass(long bytes) {
        return Math.max(MIN_SHIFT, 64 - Long.numberOfLeadingZeros(Math.max(1, bytes) - 1));
    }
}
