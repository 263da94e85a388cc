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
 * kernel to signal this process when its parent dies, and how many bytes written to a pipe
 * (stderr) its reader has not taken yet, and the C library's environment (which
 * {@link System#getenv} only snapshots at start-up). Everything is best effort: off Linux, or if a
 * symbol is missing, the methods report that they could not act.
 */
public final class Posix {

    private static final int PR_SET_PDEATHSIG = 1;
    private static final long FIONREAD = 0x541B;
    /** SIGKILL, the parent-death signal of ranks: nothing of a rank may outlive its launcher. */
    public static final int SIGKILL = 9;

    private static final MethodHandle PRCTL;
    private static final MethodHandle IOCTL;
    private static final MethodHandle SETENV;
    private static final MethodHandle GETENV;

    static {
        MethodHandle prctl = null;
        MethodHandle ioctl = null;
        MethodHandle setenv = null;
        MethodHandle getenv = null;
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
                setenv = linker.downcallHandle(libc.find("setenv").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_INT));
                getenv = linker.downcallHandle(libc.find("getenv").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS));
            }
        } catch (RuntimeException | LinkageError e) {
            prctl = null;
            ioctl = null;
            setenv = null;
            getenv = null;
        }
        PRCTL = prctl;
        IOCTL = ioctl;
        SETENV = setenv;
        GETENV = getenv;
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

    /**
     * setenv(name, value, 0): sets {@code name} in the C library's environment of this process
     * unless it is already set there, for native libraries that read their settings from the
     * environment when they start (MPI_Init). Returns whether {@code name} now has a value.
     * Call it before the library starts and before other threads read the environment
     * (setenv is not thread-safe against getenv in C).
     */
    public static boolean setenvIfUnset(String name, String value) {
        if (SETENV == null) {
            return false;
        }
        try (Arena arena = Arena.ofConfined()) {
            return (int) SETENV.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 0) == 0;
        } catch (Throwable e) {
            return false;
        }
    }

    /** getenv(name) in the C library's environment of this process (null if unset or unknown). */
    public static String nativeEnv(String name) {
        if (GETENV == null) {
            return null;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = (MemorySegment) GETENV.invokeExact(arena.allocateFrom(name));
            return v.equals(MemorySegment.NULL) ? null : v.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable e) {
            return null;
        }
    }
}
