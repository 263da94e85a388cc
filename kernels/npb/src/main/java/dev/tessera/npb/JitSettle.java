package dev.tessera.npb;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The last part of a kernel's untimed warm-up: the calling thread sleeps until the JVM's JIT
 * compiler threads have been idle for {@link #QUIET_MILLIS} (at most {@link #MAX_MILLIS}), so
 * that compilations the warm-up started finish before the timer starts, not inside the
 * timed part.
 *
 * <p>Why. The warm-up makes the kernel's methods hot; C2 then compiles them on its own
 * threads, one after the other, and a large method takes tens to hundreds of milliseconds.
 * At one rank and one thread the compiler threads have the second core to themselves; at
 * 1 x 2 and 2 x 1 on two cores both cores run members or ranks, so a compilation still
 * running when the timer starts takes its CPU from the timed part and the member or rank it
 * displaces is waited for at the next join or exchange. Class A at 2 x 1 on the 2-vCPU Intel
 * Xeon (JFR, jdk.Compilation; docs/npb.md, stop 39): CG's solver step reached C2 in a
 * compilation that began 158 ms before the timer and ended 45 ms into the 0.48 s timed part.
 *
 * <p>How. On Linux, the CPU time of the threads named "C1 CompilerThre..." and "C2
 * CompilerThre..." is read from /proc/self/task/&#42;/schedstat every {@link #POLL_MILLIS};
 * a compiler thread with an empty queue sleeps, so the compilers are idle while their CPU
 * time grows by less than {@link #BUSY_PERCENT} % of the poll interval (the few small
 * compilations this polling itself causes stay below that). Without /proc, the JVM's total
 * compilation time ({@link CompilationMXBean}) not growing over the quiet window stands for
 * it (it grows only when a compilation ends, so a long one is not seen). Compilations that
 * the timed part itself starts (code the warm-up did not run often enough) are not affected.
 */
public final class JitSettle {

    /** The compilers count as settled after this long idle. */
    static final long QUIET_MILLIS = 50;
    /** Never wait longer than this (compilers that never go quiet, e.g. a JVM compiling for other work). */
    static final long MAX_MILLIS = 2000;
    /** Poll interval. */
    static final long POLL_MILLIS = 10;
    /** Compiler CPU above this share of a poll interval means "compiling". */
    static final int BUSY_PERCENT = 20;
    /** How often the list of compiler threads is read again (the JVM adds and removes them). */
    private static final long RELIST_MILLIS = 100;

    /** {@code -Dtessera.npb.jitSettle=false} turns the wait off (the timed part then starts right after the warm-up). */
    public static final String PROPERTY = "tessera.npb.jitSettle";
    /** What the report's WARM-UP line says after the kernel's own warm-up when the wait is on. */
    public static final String TEXT = "then slept until the JIT compilers were idle (at most 2 s)";

    private static final Path TASKS = Path.of("/proc/self/task");

    private JitSettle() {
    }

    /** {@link #await()} unless {@link #PROPERTY} is false; null when off. */
    public static Outcome afterWarmUp() {
        return Boolean.parseBoolean(System.getProperty(PROPERTY, "true")) ? await() : null;
    }

    /** The warm-up description {@code warmUp} with the wait's part added when {@code outcome} is not null. */
    public static String describe(String warmUp, Outcome outcome) {
        return outcome == null ? warmUp : warmUp + ", " + TEXT;
    }

    /**
     * What {@link #await} saw.
     *
     * @param waitedMillis how long the caller slept
     * @param settled      whether the compilers were idle for the quiet window within the limit
     */
    public record Outcome(long waitedMillis, boolean settled) {
    }

    /** Sleeps until the JIT compilers have been idle for {@link #QUIET_MILLIS}, at most {@link #MAX_MILLIS}. */
    public static Outcome await() {
        return await(QUIET_MILLIS, MAX_MILLIS);
    }

    static Outcome await(long quietMillis, long maxMillis) {
        long t0 = System.nanoTime();
        long quiet = quietMillis * 1_000_000L;
        long deadline = t0 + maxMillis * 1_000_000L;
        CompilerClock clock = CompilerClock.open();
        long busy = clock.fromProc() ? POLL_MILLIS * 1_000_000L * BUSY_PERCENT / 100 : 0;
        long last = clock.read();
        long quietSince = t0;
        while (true) {
            long now = System.nanoTime();
            if (now - quietSince >= quiet) {
                return new Outcome((now - t0) / 1_000_000L, true);
            }
            if (now >= deadline) {
                return new Outcome((now - t0) / 1_000_000L, false);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Outcome((System.nanoTime() - t0) / 1_000_000L, false);
            }
            long work = clock.read();
            if (work - last > busy) {
                quietSince = System.nanoTime();
            }
            last = work;
        }
    }

    /**
     * A number that grows while the JIT compiles: its threads' CPU nanoseconds, or its total
     * compilation milliseconds. A compiler thread the JVM adds shows its whole CPU time at once
     * (one poll that reads as busy); one that ends makes the number drop.
     */
    static final class CompilerClock {

        private final boolean proc;
        private List<Path> stats = new ArrayList<>();
        private long listedAt;

        private CompilerClock(boolean proc) {
            this.proc = proc;
        }

        static CompilerClock open() {
            CompilerClock c = new CompilerClock(Files.isDirectory(TASKS));
            if (c.proc && !c.list()) {
                return new CompilerClock(false);
            }
            return c;
        }

        boolean fromProc() {
            return proc;
        }

        long read() {
            if (!proc) {
                CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
                return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
            }
            if (System.nanoTime() - listedAt > RELIST_MILLIS * 1_000_000L) {
                list();
            }
            long sum = 0;
            for (Path p : stats) {
                sum += cpuNanos(p);
            }
            return sum;   // drops when a compiler thread ends; the caller only acts on growth
        }

        private boolean list() {
            List<Path> found = new ArrayList<>();
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path t : tasks) {
                    try {
                        String name = Files.readString(t.resolve("comm"));
                        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                            found.add(t.resolve("schedstat"));
                        }
                    } catch (IOException gone) {
                        // the thread ended between the listing and the read
                    }
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
            stats = found;
            listedAt = System.nanoTime();
            return true;
        }

        /** The first field of a thread's schedstat (time on the CPU, ns); 0 if the thread is gone. */
        private static long cpuNanos(Path schedstat) {
            try {
                byte[] b = Files.readAllBytes(schedstat);
                long v = 0;
                for (int i = 0; i < b.length && b[i] >= '0' && b[i] <= '9'; i++) {
                    v = v * 10 + (b[i] - '0');
                }
                return v;
            } catch (IOException e) {
                return 0;
            }
        }
    }
}
