package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@link CompilerQuiet} reads from a task directory laid out as Linux's /proc/self/task. */
@Timeout(30)
class CompilerQuietTest {

    @TempDir
    Path tasks;

    private void task(String id, String name, long nanos) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(id));
        Files.writeString(dir.resolve("comm"), name + "\n");
        Files.writeString(dir.resolve("schedstat"), nanos + " 1000 7\n");
    }

    @Test
    void onlyTheCompilerThreadsCount() throws IOException {
        task("1", "java", 5_000_000);
        task("2", "C2 CompilerThre", 40_000_000);
        task("3", "C1 CompilerThre", 9_000_000);
        task("4", "G1 Main Marker", 1_000);
        long before = CompilerQuiet.compilerNanos(tasks);
        task("1", "java", 6_000_000);            // the rank's own thread computing
        task("4", "G1 Main Marker", 2_000);      // the collector
        assertEquals(before, CompilerQuiet.compilerNanos(tasks), "other threads are not the JIT");
        task("2", "C2 CompilerThre", 40_000_001);
        long c2 = CompilerQuiet.compilerNanos(tasks);
        assertNotEquals(before, c2, "C2 ran");
        task("3", "C1 CompilerThre", 9_500_000);
        assertNotEquals(c2, CompilerQuiet.compilerNanos(tasks), "C1 ran");
    }

    @Test
    void aCompilerThreadThatStartsOrEndsChangesTheSum() throws IOException {
        task("10", "C2 CompilerThre", 70_000_000);
        long one = CompilerQuiet.compilerNanos(tasks);
        task("11", "C2 CompilerThre", 0);   // the JVM started a second C2 thread
        long two = CompilerQuiet.compilerNanos(tasks);
        assertNotEquals(one, two);
        Files.delete(tasks.resolve("11").resolve("comm"));   // it ended while being read
        assertEquals(one, CompilerQuiet.compilerNanos(tasks));
    }

    @Test
    void anUnreadableDirectoryEndsTheWaitAtOnce() {
        Path missing = tasks.resolve("no-such-dir");
        assertEquals(-1, CompilerQuiet.compilerNanos(missing));
        assertEquals(0, CompilerQuiet.await(100, 60_000, 5, missing));
    }

    @Test
    void idleCompilersEndTheWaitAndBusyOnesHoldItToTheLimit() throws IOException, InterruptedException {
        task("20", "C2 CompilerThre", 1_000);
        // nothing changes: the wait ends after the quiet time, far below the limit
        assertTrue(CompilerQuiet.await(20, 20_000, 1, tasks) < 20_000);
        // a compiler that never stops: the wait ends at the limit (a thread keeps changing its CPU time)
        Thread busy = new Thread(() -> {
            long n = 2_000;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    task("20", "C2 CompilerThre", n++);
                    Thread.sleep(1);
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        });
        busy.start();
        try {
            assertTrue(CompilerQuiet.await(10_000, 300, 1, tasks) >= 300, "held to the limit");
        } finally {
            busy.interrupt();
            busy.join(10_000);   // before the temporary directory is deleted
        }
    }
}
