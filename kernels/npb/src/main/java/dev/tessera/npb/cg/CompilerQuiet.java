package dev.tessera.npb.cg;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Waits, untimed, until this JVM's JIT compiler threads have used no CPU for a while, so that
 * compilations queued by a warm-up end before the timed part instead of inside it. Linux only:
 * the compiler threads are the entries of {@code /proc/self/task} whose name starts with "C1
 * CompilerThre" or "C2 CompilerThre" (15 characters kept), and their CPU time is the first
 * field of {@code schedstat} (nanoseconds). A compilation in progress counts while it runs.
 * Where the files cannot be read the wait returns at once.
 *
 * <p>Why (CG at 2 x 1, stop 46): with two ranks spinning on two cores, a compile in either
 * rank's JVM takes a core from that rank one scheduler tick (4 ms) at a time, and the other
 * rank waits for it at the next exchange.
 */
final class CompilerQuiet {

    private CompilerQuiet() {
    }

    /**
     * Sleeps in steps of {@code stepMillis} until no compiler thread has used CPU for
     * {@code quietMillis}, or {@code maxMillis} have passed; returns the milliseconds waited.
     */
    static long await(long quietMillis, long maxMillis, long stepMillis, Path tasks) {
        long start = System.nanoTime();
        long quietSince = start;
        long last = compilerNanos(tasks);
        if (last < 0) {
            return 0;
        }
        while (true) {
            long now = System.nanoTime();
            if (now - quietSince >= quietMillis * 1_000_000L || now - start >= maxMillis * 1_000_000L) {
                return (now - start) / 1_000_000L;
            }
            try {
                Thread.sleep(stepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return (System.nanoTime() - start) / 1_000_000L;
            }
            long used = compilerNanos(tasks);
            if (used < 0) {
                return (System.nanoTime() - start) / 1_000_000L;
            }
            if (used != last) {
                quietSince = System.nanoTime();
                last = used;
            }
        }
    }

    /** {@link #await(long, long, long, Path)} for this JVM. */
    static long await(long quietMillis, long maxMillis) {
        return await(quietMillis, maxMillis, 5, Path.of("/proc/self/task"));
    }

    /**
     * A sum over the compiler threads in {@code tasks} that changes whenever one of them used CPU
     * (each thread's CPU nanoseconds plus a hash of its id, so a thread that ends or starts also
     * changes it); -1 if the directory cannot be read.
     */
    static long compilerNanos(Path tasks) {
        Map<String, Long> seen = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (Path task : dirs) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (!name.startsWith("C1 CompilerThre") && !name.startsWith("C2 CompilerThre")) {
                        continue;
                    }
                    String schedstat = Files.readString(task.resolve("schedstat")).strip();
                    int space = schedstat.indexOf(' ');
                    seen.put(task.getFileName().toString(),
                            Long.parseLong(space < 0 ? schedstat : schedstat.substring(0, space)));
                } catch (IOException | RuntimeException gone) {
                    // a thread that ended while it was read
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        long sum = 0;
        for (Map.Entry<String, Long> e : seen.entrySet()) {
            sum += e.getValue() + 31L * e.getKey().hashCode();
        }
        return sum;
    }
}
