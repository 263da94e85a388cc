package dev.tessera.npb;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Waits, before a kernel's timer starts, until this JVM's JIT compiler threads have stopped
 * working: a compilation that the untimed warm-up queued (or one still running when it ended)
 * is then not done inside the timed part. With one rank process per core, a compiler thread
 * that runs in the timed part takes a core from one rank for as long as it compiles, and the
 * other ranks wait for that rank at their next exchange: in one run of MG class A at 2 x 1 on
 * shm (with its message warm-up, machine under load), 45-67 ms of C2 time per rank JVM fell in
 * the 1.2 s timed part, from compilations started in its second initialisation; with this wait,
 * 0.3-6 ms (docs/npb.md, stop 46).
 *
 * <p>Linux only: the compiler threads are HotSpot's "C1 CompilerThre..." and "C2
 * CompilerThre..." tasks in {@code /proc/self/task} (the kernel keeps 15 characters of a name),
 * their CPU time the first field of each task's {@code schedstat} (nanoseconds). Where that
 * cannot be read the wait returns at once. It ends when the summed CPU time of the compiler
 * threads has not moved for {@code quiet}, or after {@code limit} in any case (a JVM whose
 * compilers never rest, e.g. under -Xcomp, must not hang the run).
 */
public final class CompilerQuiet {

    /** How long the compilers must have been idle; a C1 compilation takes about a millisecond, a C2 one several. */
    public static final Duration QUIET = Duration.ofMillis(30);
    /** The longest wait; measured waits were well under it. */
    public static final Duration LIMIT = Duration.ofSeconds(2);
    /** Between two samples. */
    private static final long POLL_MILLIS = 5;

    /** Where the wait reads the time and how it sleeps between samples; a test gives a clock of its own. */
    interface Clock {
        long nanoTime();

        void sleepMillis(long millis) throws InterruptedException;
    }

    /** The JVM's monotonic clock and {@link Thread#sleep(long)}. */
    static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepMillis(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    private final Path tasks;
    private final Clock clock;

    /** For this JVM. */
    public CompilerQuiet() {
        this(Path.of("/proc/self/task"), SYSTEM);
    }

    /** For the task directory {@code tasks} and the clock {@code clock} (a test's own). */
    CompilerQuiet(Path tasks, Clock clock) {
        this.tasks = tasks;
        this.clock = clock;
    }

    /**
     * Blocks until the compiler threads have used no CPU for {@code quiet} or {@code limit} has passed;
     * returns how long it waited. Returns at once where the compiler threads cannot be read.
     */
    public Duration await(Duration quiet, Duration limit) throws InterruptedException {
        long start = clock.nanoTime();
        long deadline = start + limit.toNanos();
        long last = compilerNanos();
        if (last < 0) {
            return Duration.ZERO;
        }
        long quietSince = start;
        while (true) {
            long now = clock.nanoTime();
            if (now - quietSince >= quiet.toNanos() || now >= deadline) {
                return Duration.ofNanos(now - start);
            }
            clock.sleepMillis(POLL_MILLIS);
            long cpu = compilerNanos();
            if (cpu < 0) {
                return Duration.ofNanos(clock.nanoTime() - start);
            }
            if (cpu != last) {
                last = cpu;
                quietSince = clock.nanoTime();
            }
        }
    }

    /** {@link #await(Duration, Duration)} with {@link #QUIET} and {@link #LIMIT}. */
    public Duration await() throws InterruptedException {
        return await(QUIET, LIMIT);
    }

    /**
     * The summed CPU nanoseconds of the compiler threads alive now, or -1 if the task directory
     * cannot be read. A thread that ends between two samples takes its time with it; the next
     * sample then differs, which counts as activity (the wait goes on a little longer, never shorter).
     */
    long compilerNanos() {
        long sum = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (Path task : dirs) {
                try {
                    if (isCompiler(Files.readString(task.resolve("comm")).strip())) {
                        String stat = Files.readString(task.resolve("schedstat")).strip();
                        int space = stat.indexOf(' ');
                        sum += Long.parseLong(space < 0 ? stat : stat.substring(0, space));
                    }
                } catch (IOException | NumberFormatException gone) {
                    // a thread that ended while it was read, or a file of another form: not counted
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
        return sum;
    }

    /** Whether a task of this name is one of HotSpot's JIT compiler threads. */
    static boolean isCompiler(String name) {
        return name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
    }
}
