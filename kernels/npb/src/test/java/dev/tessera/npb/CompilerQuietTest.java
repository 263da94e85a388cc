package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
        assertEquals(750, new CompilerQuiet(tasks, CompilerQuiet.SYSTEM).compilerNanos());
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
    @Timeout(10)
    void idleCompilersEndTheWaitAfterTheQuietTimeNotTheLimit() throws Exception {
        task("11", "C2 CompilerThre", 700);
        VirtualClock clock = new VirtualClock(now -> { });
        Duration waited = new CompilerQuiet(tasks, clock).await(Duration.ofMillis(40), Duration.ofSeconds(20));
        assertTrue(waited.compareTo(Duration.ofMillis(40)) >= 0, "returned before the quiet time: " + waited);
        assertTrue(waited.compareTo(Duration.ofMillis(40 + POLL)) <= 0, "waited past the quiet time: " + waited);
    }

    @Test
    @Timeout(10)
    void theWaitLastsUntilTheQuietTimeAfterTheLastCompilation() throws Exception {
        task("11", "C2 CompilerThre", 700);
        task("12", "main", 1);
        // the compiler thread gains CPU time every 3 ms of the clock for 180 ms, then rests; the
        // main thread works all along (its time must not count)
        long[] lastChange = {0};
        VirtualClock clock = new VirtualClock(now -> {
            if (now <= ms(180)) {
                schedstat("11", 700 + now / 3_000_000);
                lastChange[0] = now;
            }
            schedstat("12", 1 + now);
        });
        Duration waited = new CompilerQuiet(tasks, clock).await(Duration.ofMillis(100), Duration.ofSeconds(20));
        long afterLast = waited.toNanos() - lastChange[0];
        assertTrue(lastChange[0] >= ms(177), "the compiler's CPU time was not followed: " + lastChange[0]);
        assertTrue(afterLast >= ms(100),
                "ended " + afterLast / 1000 + " us after the compiler's last CPU time (quiet time 100 ms)");
        assertTrue(afterLast <= ms(100 + POLL), "ended " + afterLast / 1000 + " us after it, not one poll past 100 ms");
    }

    @Test
    @Timeout(10)
    void compilersThatNeverRestEndTheWaitAtTheLimit() throws Exception {
        task("11", "C1 CompilerThre", 5);
        VirtualClock clock = new VirtualClock(now -> schedstat("11", 5 + now));
        Duration waited = new CompilerQuiet(tasks, clock).await(Duration.ofMillis(200), Duration.ofMillis(400));
        assertTrue(waited.compareTo(Duration.ofMillis(400)) >= 0, "returned before the limit: " + waited);
        assertTrue(waited.compareTo(Duration.ofMillis(400 + POLL)) <= 0, "waited past the limit: " + waited);
    }

    @Test
    @Timeout(10)
    void anUnreadableTaskDirectoryDoesNotWait() throws Exception {
        CompilerQuiet none = new CompilerQuiet(tasks.resolve("absent"), CompilerQuiet.SYSTEM);
        assertEquals(-1, none.compilerNanos());
        assertEquals(Duration.ZERO, none.await(Duration.ofSeconds(5), Duration.ofSeconds(5)));
    }

    /** The wait's poll interval in milliseconds: how far past its quiet time or limit it may return. */
    private static final long POLL = 5;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** What the "threads" do, called with the clock's time after each of the wait's sleeps. */
    private interface Script {
        void at(long nanos) throws IOException;
    }

    /**
     * A clock that moves only when the wait sleeps, and then runs the script: the test decides
     * exactly when each thread's CPU time moves, with no real thread or real time involved.
     */
    private static final class VirtualClock implements CompilerQuiet.Clock {
        private final Script script;
        private long now = ms(1_000);   // not zero: the wait must work from any starting value

        VirtualClock(Script script) {
            this.script = script;
        }

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleepMillis(long millis) {
            now += ms(millis);
            try {
                script.at(now - ms(1_000));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void schedstat(String id, long nanos) throws IOException {
        writeAtomically(tasks.resolve(id).resolve("schedstat"), nanos + " 0 0\n");
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
