package dev.tessera.device.shm;

import dev.tessera.device.Posix;
import java.lang.foreign.MemorySegment;

/**
 * Linux futexes on 32-bit words of the shared file ({@link Posix#futexWait}, through libc's
 * {@code syscall} with the FFM linker): a rank sleeps in the kernel until another process
 * changes the word and wakes it. The words live in a MAP_SHARED mapping, so the shared (not
 * PRIVATE) futex operations are used: the kernel keys them by the file page, which every rank maps.
 *
 * <p>Where futexes are not available (not Linux, an architecture whose syscall number is
 * not known here, no {@code syscall} symbol) {@link #available()} is false and callers
 * sleep with timed parks instead.
 */
final class Futex {

    private Futex() {
    }

    static boolean available() {
        return Posix.futexAvailable();
    }

    /** Links the futex call's downcall while the device starts ({@link Posix#linkFutex}). */
    static void link() {
        Posix.linkFutex();
    }

    /** A relative timeout (struct timespec) for {@link #await}, readable by the kernel from every thread. */
    static MemorySegment timeout(long nanos) {
        return Posix.timespec(nanos);
    }

    /**
     * Sleeps while the word at {@code offset} of {@code file} holds {@code expected}, until
     * woken, {@code timeout} passes, or a signal arrives; returns at once if it holds another
     * value (the kernel checks it atomically with going to sleep, so a wake after the change
     * is never lost). The caller re-checks its condition in every case.
     */
    static void await(MemorySegment file, long offset, int expected, MemorySegment timeout) {
        Posix.futexWait(file.address() + offset, expected, timeout);
    }

    /** Wakes every thread sleeping on the word at {@code offset} of {@code file}. */
    static void wakeAll(MemorySegment file, long offset) {
        Posix.futexWake(file.address() + offset);
    }
}
