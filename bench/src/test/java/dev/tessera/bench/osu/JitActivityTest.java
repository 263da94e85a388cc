package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The warm-up's JIT check on a task directory laid out as Linux's /proc/self/task; no timing. */
@Timeout(30)
class JitActivityTest {

    @TempDir
    Path tasks;

    private void task(String id, String comm, long cpuNanos) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(id));
        Files.writeString(t.resolve("comm"), comm + "\n");
        Files.writeString(t.resolve("schedstat"), cpuNanos + " 5000 7\n");
    }

    @Test
    void aCompilerThreadThatRanEndsTheQuietButOtherThreadsDoNot() throws IOException {
        task("100", "java", 1_000);
        task("101", "C2 CompilerThre", 50_000);
        task("102", "C1 CompilerThre", 20_000);
        task("103", "GC Thread#0", 9_000);
        JitActivity jit = new JitActivity(tasks);
        assertTrue(jit.readable());
        // what the compilers did before the baseline does not count
        assertTrue(jit.quietNanos(System.nanoTime() + 1_000_000_000L) >= 1_000_000_000L);

        task("100", "java", 900_000);          // the rank's own thread and the collector ran: still quiet
        task("103", "GC Thread#0", 80_000);
        long t1 = System.nanoTime() + 2_000_000_000L;
        assertTrue(jit.quietNanos(t1) >= 2_000_000_000L);

        task("101", "C2 CompilerThre", 50_001);   // C2 ran (a compilation in progress)
        long t2 = t1 + 10_000_000L;
        assertEquals(0, jit.quietNanos(t2));
        long t3 = t2 + 30_000_000L;
        assertEquals(30_000_000L, jit.quietNanos(t3));   // quiet since the sample that saw it run

        task("102", "C1 CompilerThre", 20_500);   // C1 counts too
        assertEquals(0, jit.quietNanos(t3 + 1));
    }

    @Test
    void aCompilerThreadStartedAfterTheBaselineCountsAndOneThatEndedDoesNotHideTheOthers() throws IOException {
        task("200", "C2 CompilerThre", 70_000);
        JitActivity jit = new JitActivity(tasks);
        long t = System.nanoTime() + 1_000_000_000L;
        assertTrue(jit.quietNanos(t) > 0);
        task("201", "C2 CompilerThre", 3_000);   // the JVM started a second C2 thread for queued work
        assertEquals(0, jit.quietNanos(t + 1));
        assertTrue(jit.quietNanos(t + 5) > 0);
        // the first one ends (its directory goes) while the second runs on
        Files.delete(tasks.resolve("200/comm"));
        Files.delete(tasks.resolve("200/schedstat"));
        Files.delete(tasks.resolve("200"));
        task("201", "C2 CompilerThre", 3_500);
        assertEquals(0, jit.quietNanos(t + 10));
    }

    @Test
    void withoutSchedstatTheClockTicksOfStatAreRead() throws IOException {
        Path t = Files.createDirectories(tasks.resolve("300"));
        // name in parentheses with a space and a parenthesis; utime 7 and stime 5 ticks are fields 14 and 15
        Files.writeString(t.resolve("stat"), "300 (C2 Compi) er) S 1 1 1 0 -1 4194368 100 0 0 0 7 5 0 0 20 0 40 0 99 0 0\n");
        assertEquals(120_000_000L, JitActivity.cpuNanos(t));
    }

    @Test
    void noTaskDirectoryMeansNeverWaiting() {
        JitActivity jit = new JitActivity(tasks.resolve("missing"));
        assertFalse(jit.readable());
        assertEquals(Long.MAX_VALUE, jit.quietNanos(System.nanoTime()));
    }

    @Test
    void theDecisionAndTheSetting() {
        assertEquals(100, OsuRank.quietMillis(null));
        assertEquals(100, OsuRank.quietMillis(" "));
        assertEquals(0, OsuRank.quietMillis("0"));
        assertEquals(250, OsuRank.quietMillis(" 250 "));
        assertThrows(IllegalArgumentException.class, () -> OsuRank.quietMillis("1s"));
        long q = OsuRank.JIT_QUIET_NANOS;
        assertFalse(OsuRank.settled(q - 1, 0));
        assertTrue(OsuRank.settled(q, 0));
        assertFalse(OsuRank.settled(0, OsuRank.JIT_WAIT_NANOS - 1));
        assertTrue(OsuRank.settled(0, OsuRank.JIT_WAIT_NANOS));
    }
}
