package dev.tessera.device.shm;

import dev.tessera.device.Posix;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The sender's copy of a message piece into a ring cell. From {@link #MIN_BYTES} on it calls the
 * shm helper's {@code tessera_shm_copy} ({@link HeapCopy#copyHandle}: the C library's memcpy,
 * except at the few source-to-destination distances where rep movsb crawls, see
 * {@link HeapCopy#ALIAS_WINDOW}) as a critical downcall, which may take a heap array: the
 * collector cannot move the array during the call (no safepoint inside it), and the call holds it
 * for one cell, at most a few microseconds. On the Intel Xeon VM (docs/performance.md, stop 44)
 * memcpy (rep movsb for these sizes) wrote a 32 KiB cell that the receiver reads on the other core
 * in 2.6 us against 3.1 us for the JIT's copy stub; the receiver's copy out of the cell was not
 * faster with it, so it keeps the stub. {@code -Dtessera.shm.memcpyMin=N} sets the threshold (0:
 * never). Without the helper (no C compiler) every piece takes the stub.
 *
 * <p>Pieces of 16 KiB or more: on the AMD EPYC Zen 4 VM the rate at which one vCPU's writes reach
 * the other's reads has two levels that last seconds to minutes (docs/performance.md, stop 71;
 * reproduced with two threads of a C program): a ring that passes 32 KiB pieces moved 25-28 GB/s
 * with memcpy at one level and 2-3 GB/s at the other, 12-13 and 14-16 GB/s with non-temporal
 * stores, which write around the caches. The helper times each such piece (rdtsc) and goes the
 * way whose recent pieces cost less, with memcpy favoured 8 to 1 (a non-temporal piece always
 * costs its writer less, but its reader fetches it from memory), trying the other way after 64
 * pieces, then after twice as many each time it loses (up to 1024).
 * That is {@code -Dtessera.shm.cellCopy=auto} (or TESSERA_SHM_CELL_COPY=auto); the default is
 * {@code memcpy}, since auto took the 2-rank bcast of 64 KiB from 7.8 to 28 us in the report of
 * stop 71 (a stream of large messages at the slow level gains 6x with it); {@code stream} forces
 * non-temporal stores.
 */
final class CellCopy {

    /** Smallest piece copied by memcpy; pieces are at most a cell's payload. */
    static final long MIN_BYTES = Long.getLong("tessera.shm.memcpyMin", 4096);
    /** {@link ShmSwitch#cellCopy}: 0 auto, 1 memcpy, 2 non-temporal stores. */
    static final int MODE = ShmSwitch.cellCopy();
    private static final MethodHandle MEMCPY = memcpy();

    private CellCopy() {
    }

    private static MethodHandle memcpy() {
        if (MIN_BYTES <= 0 || !System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        MethodHandle copy = HeapCopy.copyHandle();
        if (copy != null) {
            HeapCopy.copyMode(MODE);
        }
        return copy;
    }

    /**
     * Links the memcpy downcall and its invoker by {@link Posix#LINK_CALLS} copies between two small
     * native segments, so that a rank pays for them while its device starts and not during its
     * first messages of {@link #MIN_BYTES} or more: in a fresh JVM the JDK generates the downcall's
     * stub class and the invoker's lambda forms, interpreted, at the first call (the heat example's
     * first step on 4 shm ranks on 2 cores took 80-100 ms against 10-40 ms for the next ones,
     * docs/performance.md, stop 67), and once more at the handle's 128th call, when it customizes
     * the handle's lambda form (stop 68).
     */
    static void link() {
        if (MEMCPY == null) {
            return;
        }
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment from = arena.allocate(Long.BYTES);
            MemorySegment to = arena.allocate(Long.BYTES);
            for (int i = 0; i < Posix.LINK_CALLS; i++) {
                from.set(ValueLayout.JAVA_LONG, 0, 0x5E55E2AL + i);
                MEMCPY.invokeExact(to, from, (long) Long.BYTES);
                if (to.get(ValueLayout.JAVA_LONG, 0) != 0x5E55E2AL + i) {
                    throw new IllegalStateException("memcpy of a message piece copied nothing");
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("memcpy of a message piece failed", t);
        }
    }

    /** True if pieces of {@code bytes} go by memcpy (diagnostics and tests). */
    static boolean byMemcpy(long bytes) {
        return MEMCPY != null && bytes >= MIN_BYTES;
    }

    /** Copies {@code bytes} from {@code src} at {@code srcOffset} into {@code dst} at {@code dstOffset}. */
    static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (byMemcpy(bytes) && !src.isReadOnly()) {
            // bounds and liveness are checked by the slices; the downcall gets their addresses
            MemorySegment to = dst.asSlice(dstOffset, bytes);
            MemorySegment from = src.asSlice(srcOffset, bytes);
            try {
                MEMCPY.invokeExact(to, from, bytes);
            } catch (Throwable t) {
                throw new IllegalStateException("memcpy of a message piece failed", t);
            }
        } else {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
        }
    }
}
