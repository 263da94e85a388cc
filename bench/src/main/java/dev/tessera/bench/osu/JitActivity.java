package dev.tessera.bench.osu;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How long this JVM's JIT compiler threads have been idle, for the bench's warm-up: a size is
 * timed only once they have not run for a while ({@link OsuRank}). Read from Linux's
 * {@code /proc/self/task}: the threads named "C1 CompilerThre..." and "C2 CompilerThre..." (the
 * kernel keeps 15 characters of a thread's name) and their CPU time ({@code schedstat}, in
 * nanoseconds; {@code stat}'s clock ticks where that file is missing). A compilation in progress
 * counts as activity while it runs, not only when it ends (as the JDK's compilation time does).
 * Compiler threads that the JVM starts or stops between two samples are handled per thread.
 *
 * <p>Why: with two spinning ranks on two cores, a C2 compilation in either rank's JVM takes
 * a core away from a rank, one scheduler tick (4 ms) at a time, and the other rank spins until
 * it is back. The two-rank shm allreduce of 256 KiB and 1 MiB was timed while C2 compiled its
 * chunk loop ({@code NodeCollectives.split}, 0.4 s in each JVM), which made the medians of some
 * runs 3 times those of others (docs/performance.md, stop 45).
 */
final class JitActivity {

    private final Path tasks;
    /** Per compiler thread id: its CPU nanoseconds at the last sample. */
    private final Map<String, Long> cpu = new HashMap<>();
    private long lastActive;
    private boolean readable = true;

    /** For this JVM ({@code /proc/self/task}). */
    JitActivity() {
        this(Path.of("/proc/self/task"));
    }

    /** For the task directory {@code tasks} (tests give a directory of their own). */
    JitActivity(Path tasks) {
        this.tasks = tasks;
        sample();   // the baseline: what the compilers did before now is not counted
        this.lastActive = System.nanoTime();
    }

    /** Whether the compiler threads could be read (Linux); elsewhere {@link #quietNanos} is always large. */
    boolean readable() {
        return readable;
    }

    /**
     * Samples the compiler threads at time {@code now} (System.nanoTime) and returns for how many
     * nanoseconds they have not used the CPU: 0 if one ran since the previous sample, else the time
     * since the last sample at which one had. Long.MAX_VALUE where they cannot be read.
     */
    long quietNanos(long now) {
        if (!readable) {
            return Long.MAX_VALUE;
        }
        if (sample()) {
            lastActive = now;
        }
        return readable ? now - lastActive : Long.MAX_VALUE;
    }

    /** Reads every compiler thread's CPU time; true if any used CPU since the previous sample. */
    private boolean sample() {
        boolean active = false;
        Map<String, Long> seen = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (Path task : dirs) {
                String comm;
                long ns;
                try {
                    comm = Files.readString(task.resolve("comm")).strip();
                    if (!compiler(comm)) {
                        continue;
                    }
                    ns = cpuNanos(task);
                } catch (IOException | RuntimeException gone) {
                    continue;   // a thread that ended while it was read
                }
                String id = task.getFileName().toString();
                Long before = cpu.get(id);
                // the first sample is the baseline; later, a thread not seen before (the JVM starts compiler
                // threads when work queues up) counts if it has run at all
                if (sampled && (before == null ? ns > 0 : ns > before)) {
                    active = true;
                }
                seen.put(id, ns);
            }
        } catch (IOException | RuntimeException e) {
            readable = false;
            return false;
        }
        cpu.clear();
        cpu.putAll(seen);
        sampled = true;
        return active;
    }

    /** Whether the baseline sample was taken. */
    private boolean sampled;

    /** Whether a thread of this name is a JIT compiler thread of HotSpot (C1, C2). */
    static boolean compiler(String comm) {
        return comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
    }

    /** A thread's CPU time in nanoseconds: schedstat's first field, else stat's utime + stime in ticks of 10 ms. */
    static long cpuNanos(Path task) throws IOException {
        Path schedstat = task.resolve("schedstat");
        if (Files.exists(schedstat)) {
            return Long.parseLong(Files.readString(schedstat).strip().split("\\s+")[0]);
        }
        String stat = Files.readString(task.resolve("stat"));
        // the fields after the name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split("\\s+");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10_000_000L;
    }
}
