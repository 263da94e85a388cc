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
 * (stderr) its reader has not taken yet, and a memory barrier on every thread of the process
 * (membarrier). Everything is best effort: off Linux, or if a
 * symbol is missing, the methods report that they could not act.
 */
public final class Posix {

    private static final int PR_SET_PDEATHSIG = 1;
    private static final long FIONREAD = 0x541B;
    /** SIGKILL, the parent-death signal of ranks: nothing of a rank may outlive its launcher. */
    public static final int SIGKILL = 9;

    private static final MethodHandle PRCTL;
    private static final MethodHandle IOCTL;
    private static final MethodHandle SYSCALL;
    /** The membarrier system call's number on this architecture, or -1 where it is not known. */
    private static final long SYS_MEMBARRIER = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 324;
        case "aarch64" -> 283;
        default -> -1;
    };
    private static final int MEMBARRIER_CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final int MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;
    /** True once this process registered for {@link #processBarrier()} and one call of it succeeded. */
    private static final boolean PROCESS_BARRIER;

    static {
        MethodHandle prctl = null;
        MethodHandle ioctl = null;
        MethodHandle syscall = null;
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
                syscall = linker.downcallHandle(libc.find("syscall").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                        Linker.Option.firstVariadicArg(1));
            }
        } catch (RuntimeException | LinkageError e) {
            prctl = null;
            ioctl = null;
            syscall = null;
        }
        PRCTL = prctl;
        IOCTL = ioctl;
        SYSCALL = syscall;
        PROCESS_BARRIER = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0
                && membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0;
    }

    private static long membarrier(int cmd) {
        if (SYSCALL == null || SYS_MEMBARRIER < 0) {
            return -1;
        }
        try {
            return (long) SYSCALL.invokeExact(SYS_MEMBARRIER, cmd, 0, 0);
        } catch (Throwable e) {
            return -1;
        }
    }

    /**
     * True if {@link #processBarrier()} works here (Linux 4.14 or later, membarrier not
     * filtered out by a seccomp policy).
     */
    public static boolean processBarrierAvailable() {
        return PROCESS_BARRIER;
    }

    /**
     * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED): when this returns, every other thread of
     * this process has passed a full memory barrier (the kernel interrupts the cores that run
     * one; a thread that is not running passed one when it was switched out). The heavy half
     * of an asymmetric fence: threads that pair with it order their accesses only for the
     * compiler. Throws if it fails, which it does not once {@link #processBarrierAvailable()}
     * said true: the caller's peers rely on it.
     */
    public static void processBarrier() {
        if (!PROCESS_BARRIER || membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
            throw new IllegalStateException("membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) failed"
                    + (PROCESS_BARRIER ? "" : ": not available"));
        }
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
