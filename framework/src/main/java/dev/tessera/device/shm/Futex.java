package dev.tessera.device.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Linux futexes on 32-bit words of the shared file, called through libc's {@code syscall}
 * with the FFM linker: a rank sleeps in the kernel until another process changes the word
 * and wakes it. The words live in a MAP_SHARED mapping, so the shared (not PRIVATE) futex
 * operations are used: the kernel keys them by the file page, which every rank maps.
 *
 * <p>Where futexes are not available (not Linux, an architecture whose syscall number is
 * not known here, no {@code syscall} symbol) {@link #available()} is false and callers
 * sleep with timed parks instead.
 */
final class Futex {

    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;

    private static final MethodHandle SYSCALL;
    private static final long SYS_FUTEX;

    static {
        MethodHandle h = null;
        long nr = switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
        if (nr > 0 && System.getProperty("os.name", "").startsWith("Linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                // long syscall(long number, ...): every variadic argument is passed as a long, as the
                // kernel reads them from registers whatever the C types of futex(2) are.
                h = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                        Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException | LinkageError e) {
                h = null;
            }
        }
        SYSCALL = h;
        SYS_FUTEX = h == null ? -1 : nr;
    }

    private Futex() {
    }

    static boolean available() {
        return SYSCALL != null;
    }

    /** A relative timeout (struct timespec) for {@link #await}, readable by the kernel from every thread. */
    static MemorySegment timeout(long nanos) {
        MemorySegment ts = Arena.global().allocate(16, 8);
        ts.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
        ts.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
        return ts;
    }

    /**
     * Sleeps while the word at {@code offset} of {@code file} holds {@code expected}, until
     * woken, {@code timeout} passes, or a signal arrives; returns at once if it holds another
     * value (the kernel checks it atomically with going to sleep, so a wake after the change
     * is never lost). The caller re-checks its condition in every case.
     */
    static void await(MemorySegment file, long offset, int expected, MemorySegment timeout) {
        try {
            long r = (long) SYSCALL.invokeExact(SYS_FUTEX, file.address() + offset, (long) FUTEX_WAIT,
                    (long) expected, timeout.address());
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** Wakes every thread sleeping on the word at {@code offset} of {@code file}. */
    static void wakeAll(MemorySegment file, long offset) {
        try {
            long r = (long) SYSCALL.invokeExact(SYS_FUTEX, file.address() + offset, (long) FUTEX_WAKE,
                    (long) Integer.MAX_VALUE, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }
}
