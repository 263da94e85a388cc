package dev.tessera.device;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The few Linux calls a rank needs that Java does not offer, through the FFM API: asking the
 * kernel to signal this process when its parent dies, how many bytes written to a pipe
 * (stderr) its reader has not taken yet, and futexes on words of shared memory (the shm
 * device's doorbells, the bench's turn-taking). Everything is best effort: off Linux, or if a
 * symbol is missing, the methods report that they could not act.
 */
public final class Posix {

    private static final int PR_SET_PDEATHSIG = 1;
    private static final long FIONREAD = 0x541B;
    /** SIGKILL, the parent-death signal of ranks: nothing of a rank may outlive its launcher. */
    public static final int SIGKILL = 9;

    private static final MethodHandle PRCTL;
    private static final MethodHandle IOCTL;
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    /** libc's {@code long syscall(long number, ...)}, for futex(2); null where futexes are not known here. */
    private static final MethodHandle SYSCALL;
    private static final long SYS_FUTEX;

    static {
        MethodHandle prctl = null;
        MethodHandle ioctl = null;
        try {
            if (System.getProperty("os.name", "").startsWith("Linux")) {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                prctl = linker.downcallHandle(libc.find("prctl").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG),
                        Linker.Option.firstVariadicArg(1));
                ioctl = linker.downcallHandle(libc.find("ioctl").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS),
                        Linker.Option.firstVariadicArg(2));
            }
        } catch (RuntimeException | LinkageError e) {
            prctl = null;
            ioctl = null;
        }
        PRCTL = prctl;
        IOCTL = ioctl;
        MethodHandle syscall = null;
        long nr = switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> 202;
            case "aarch64" -> 98;
            default -> -1;
        };
        if (nr > 0 && System.getProperty("os.name", "").startsWith("Linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                // every variadic argument is passed as a long: the kernel reads them from registers
                // whatever the C types of futex(2) are
                syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG),
                        Linker.Option.firstVariadicArg(1));
            } catch (RuntimeException | LinkageError e) {
                syscall = null;
            }
        }
        SYSCALL = syscall;
        SYS_FUTEX = syscall == null ? -1 : nr;
    }

    /** Whether {@link #futexWait} and {@link #futexWake} work here (Linux on x86-64 or AArch64). */
    public static boolean futexAvailable() {
        return SYSCALL != null;
    }

    /**
     * FUTEX_WAIT on the 32-bit word at {@code address} in shared memory: sleeps while it holds
     * {@code expected}, until woken, the relative timeout ({@code timeout}: a struct timespec in
     * native memory, or {@link MemorySegment#NULL} for none) passes, or a signal arrives; returns
     * at once if the word holds another value (checked atomically with going to sleep, so a
     * wake after the change is never lost). The caller re-checks its condition in every case.
     */
    public static void futexWait(long address, int expected, MemorySegment timeout) {
        try {
            long r = (long) SYSCALL.invokeExact(SYS_FUTEX, address, (long) FUTEX_WAIT, (long) expected, timeout.address());
        } catch (Throwable t) {
            throw new IllegalStateException("futex wait failed", t);
        }
    }

    /** FUTEX_WAKE: wakes every thread sleeping on the 32-bit word at {@code address}. */
    public static void futexWake(long address) {
        try {
            long r = (long) SYSCALL.invokeExact(SYS_FUTEX, address, (long) FUTEX_WAKE, (long) Integer.MAX_VALUE, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("futex wake failed", t);
        }
    }

    /**
     * Calls a device makes through a downcall handle while it starts ({@link #linkFutex}, the shm
     * device's cell copy): more than the JDK's threshold (127 calls through a handle that is not a
     * compile-time constant, as in interpreted and C1 code) at which it customizes the handle's
     * lambda form, generating and loading classes. Made at start-up, that work no longer falls
     * into a job's first steps: on 4 shm ranks on 2 cores each rank JVM did it 0.2-0.9 s into
     * the heat example's solve, twice (docs/performance.md, stop 68).
     */
    public static final int LINK_CALLS = 130;

    /**
     * Links the futex system call's downcall handle ahead of use: {@link #LINK_CALLS} wakes of a
     * private word that nobody waits on (each returns at once). Returns whether the calls were made.
     */
    public static boolean linkFutex() {
        if (SYSCALL == null) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment word = arena.allocate(ValueLayout.JAVA_INT);
            for (int i = 0; i < LINK_CALLS; i++) {
                futexWake(word.address());
            }
        }
        return true;
    }

    /** A relative timeout (struct timespec) for {@link #futexWait}, in global memory so any thread may pass it. */
    public static MemorySegment timespec(long nanos) {
        MemorySegment ts = Arena.global().allocate(16, 8);
        ts.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
        ts.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
        return ts;
    }

    private Posix() {
    }

    /**
     * prctl(PR_SET_PDEATHSIG, signal): the kernel sends {@code signal} to this process when the
     * thread that started it ends. Returns whether it was set. The caller must then check that
     * the parent is still the one it expects (it may have died before the call).
     */
    public static boolean parentDeathSignal(int signal) {
        if (PRCTL == null) {
            return false;
        }
        try {
            return (int) PRCTL.invokeExact(PR_SET_PDEATHSIG, (long) signal) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /** Bytes written to pipe {@code fd} that its reader has not read yet (FIONREAD), or -1 if unknown (not a pipe). */
    public static int unreadBytes(int fd) {
        if (IOCTL == null) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            int rc = (int) IOCTL.invokeExact(fd, FIONREAD, n);
            return rc == 0 ? n.get(ValueLayout.JAVA_INT, 0) : -1;
        } catch (Throwable e) {
            return -1;
        }
    }

    /**
     * Waits (at most {@code maxMillis}) until the reader of pipe {@code fd} has read everything
     * written to it: before a call that kills the process group (MPI_Abort), so that the launcher
     * forwards the error line the rank just wrote instead of losing it with the pipe.
     */
    public static void drain(int fd, long maxMillis) {
        long until = System.nanoTime() + maxMillis * 1_000_000L;
        while (unreadBytes(fd) > 0 && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
