package dev.tessera.device.mpi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayDeque;

/**
 * Native staging buffers for payloads in heap arrays (a nonblocking MPI call keeps the
 * address after it returns, and the collector moves arrays), reused by power-of-two size
 * class. A fresh shared arena per message would cost a thread handshake on every close,
 * more than the copy itself for a 64 KiB message. Buffers come from malloc and go back to
 * free as soon as the pool lets them go (it keeps at most {@value #MAX_POOLED_BYTES}
 * bytes): buffers from automatic arenas, freed only when the collector runs, made a
 * streaming window of large heap messages (64 x 4 MiB in flight) allocate fresh memory
 * for every window, and stalled on the JDK's direct-memory limit (it calls System.gc and
 * waits): blocks of a 4 MiB bw run fell to 0.3 GB/s. Not thread-safe: the device uses it
 * under its MPI lock.
 */
final class StagingPool {

    private static final int MIN_SHIFT = 12;
    private static final long MAX_POOLED_BYTES = 64L << 20;
    private static final MethodHandle MALLOC;
    private static final MethodHandle FREE;

    static {
        Linker linker = Linker.nativeLinker();
        MALLOC = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        FREE = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    }

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
        long n = 1L << c;
        MemorySegment p;
        try {
            p = (MemorySegment) MALLOC.invokeExact(n);
        } catch (Throwable t) {
            throw new IllegalStateException("malloc failed: " + t, t);
        }
        if (p.equals(MemorySegment.NULL)) {
            throw new OutOfMemoryError("mpi device: no native memory for a staging buffer of " + n + " bytes");
        }
        return p.reinterpret(n);
    }

    /** Returns a buffer from {@link #take}: kept for reuse while the pool holds little enough, else freed. */
    void give(MemorySegment s) {
        if (pooledBytes + s.byteSize() > MAX_POOLED_BYTES) {
            release(s);
            return;
        }
        int c = Long.numberOfTrailingZeros(s.byteSize());
        if (free[c] == null) {
            free[c] = new ArrayDeque<>();
        }
        free[c].push(s);
        pooledBytes += s.byteSize();
    }

    /** Frees every pooled buffer (buffers still taken are the caller's to give back first). */
    void clear() {
        for (ArrayDeque<MemorySegment> q : free) {
            if (q != null) {
                MemorySegment s;
                while ((s = q.poll()) != null) {
                    release(s);
                }
            }
        }
        pooledBytes = 0;
    }

    private static void release(MemorySegment s) {
        try {
            FREE.invokeExact(s);
        } catch (Throwable t) {
            throw new IllegalStateException("free failed: " + t, t);
        }
    }

    static int sizeClass(long bytes) {
        return Math.max(MIN_SHIFT, 64 - Long.numberOfLeadingZeros(Math.max(1, bytes) - 1));
    }
}
