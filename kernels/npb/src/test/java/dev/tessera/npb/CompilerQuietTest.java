package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wait for idle JIT compilers, on task directories of the tests' own making (the layout of
 * Linux's /proc/PID/task: one directory per thread with {@code comm} and {@code schedstat}).
 */
class CompilerQuietTest {

    @TempDir
    Path tasks;

    @Test
    @Timeout(10)
    void sumsTheCpuTimeOfTheCompilerThreadsOnly() throws IOException {
        task("11", "C2 CompilerThre", 700);
        task("12", "C1 CompilerThre", 50);
        task("13", "main", 90_000);
        task("14", "GC Thread#0", 4_000);
        assertEquals(750, new CompilerQuiet(tasks).compilerNanos());
    }

    @Test
    @Timeout(10)
    void namesTheJitThreadsOfHotSpot() {
        assertTrue(CompilerQuiet.isCompiler("C2 CompilerThre"));
        assertTrue(CompilerQuiet.isCompiler("C1 CompilerThre"));
        assertFalse(CompilerQuiet.isCompiler("C2 Compiler"));
        assertFalse(CompilerQuiet.isCompiler("VM Thread"));
    }

    @Test
    @Timeout(30)
    void idleCompilersEndTheWaitAfterTheQuietTimeNotTheLimit() throws Exception {
        task("11", "C2 CompilerThre", 700);
        Duration waited = new CompilerQuiet(tasks).await(Duration.ofMillis(40), Duration.ofSeconds(20));
        assertTrue(waited.compareTo(Duration.ofMillis(40)) >= 0, "returned before the quiet time: " + waited);
        assertTrue(waited.compareTo(Duration.ofSeconds(20)) < 0, "waited for the limit: " + waited);
    }

    @Test
    @Timeout(30)
    void theWaitLastsUntilTheQuietTimeAfterTheLastCompilation() throws Exception {
        task("11", "C2 CompilerThre", 700);
        task("12", "main", 1);
        AtomicLong lastWrite = new AtomicLong();
        Thread compiler = compiling("11", 60, lastWrite, new AtomicBoolean(true));
        long start = System.nanoTime();
        new CompilerQuiet(tasks).await(Duration.ofMillis(100), Duration.ofSeconds(20));
        long end = System.nanoTime();
        compiler.join(10_000);
        assertFalse(compiler.isAlive());
        long afterLast = end - lastWrite.get();
        assertTrue(afterLast >= TimeUnit.MILLISECONDS.toNanos(100),
                "ended " + afterLast / 1000 + " us after the compiler's last CPU time (quiet time 100 ms)");
        assertTrue(end - start < TimeUnit.SECONDS.toNanos(20), "waited for the limit");
    }

    @Test
    @Timeout(30)
    void compilersThatNeverRestEndTheWaitAtTheLimit() throws Exception {
        task("11", "C1 CompilerThre", 5);
        AtomicBoolean busy = new AtomicBoolean(true);
        Thread compiler = compiling("11", Integer.MAX_VALUE, new AtomicLong(), busy);
        try {
            Duration waited = new CompilerQuiet(tasks).await(Duration.ofMillis(200), Duration.ofMillis(400));
            assertTrue(waited.compareTo(Duration.ofMillis(400)) >= 0, "returned before the limit: " + waited);
        } finally {
            busy.set(false);
            compiler.join(10_000);
        }
    }

    @Test
    @Timeout(10)
    void anUnreadableTaskDirectoryDoesNotWait() throws Exception {
        CompilerQuiet none = new CompilerQuiet(tasks.resolve("absent"));
        assertEquals(-1, none.compilerNanos());
        assertEquals(Duration.ZERO, none.await(Duration.ofSeconds(5), Duration.ofSeconds(5)));
    }

    /** A thread that adds CPU time to task {@code id} every 3 ms, {@code steps} times or until {@code busy} is false. */
    private Thread compiling(String id, int steps, AtomicLong lastWrite, AtomicBoolean busy) {
        Thread t = new Thread(() -> {
            try {
                for (int i = 1; i <= steps && busy.get(); i++) {
                    lastWrite.set(System.nanoTime());   // before the write: the wait cannot see it earlier
                    writeAtomically(tasks.resolve(id).resolve("schedstat"), (1000L + i) + " 0 0\n");
                    Thread.sleep(3);
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    private void task(String id, String name, long nanos) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(id));
        Files.writeString(dir.resolve("comm"), name + "\n");
        writeAtomically(dir.resolve("schedstat"), nanos + " 0 0\n");
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
