package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The launcher sleeps between its looks at the ranks instead of polling them: an exiting rank
 * wakes it, and it wakes by itself no later than the job's timeout or a failure's grace end.
 */
class LauncherWaitTest {

    private static final long MS = 1_000_000L;

    @Test
    void theWakeIsTheNearestDeadlineAndAtMostTheIdleWake() {
        long idle = ProcessLauncher.IDLE_WAKE_MILLIS * MS;
        // nothing to wait for but exits
        assertEquals(idle, ProcessLauncher.wakeNanos(5_000 * MS, 0, 0, -1));
        // the job's timeout 300 ms away
        assertEquals(300 * MS + 1, ProcessLauncher.wakeNanos(9_700 * MS, 0, 10_000 * MS, -1));
        // past the timeout: no sleep at all
        assertEquals(0, ProcessLauncher.wakeNanos(11_000 * MS, 0, 10_000 * MS, -1));
        // a failure whose grace period ends 40 ms from now, before the timeout
        long grace = ProcessLauncher.GRACE_MILLIS * MS;
        long failedAt = 20_000 * MS;
        assertEquals(40 * MS + 1, ProcessLauncher.wakeNanos(failedAt + grace - 40 * MS, 0, 3_600_000 * MS, failedAt));
    }

    @Test
    @Timeout(120)
    void anExitingRankWakesTheWait() throws Exception {
        Process stays = new ProcessBuilder("sleep", "60").start();
        Process ends = new ProcessBuilder("true").start();
        try {
            ProcessLauncher.ExitSignal signal = new ProcessLauncher.ExitSignal(List.of(stays, ends));
            // "true" exits at once: the wait returns as soon as the JVM has reaped it, long before 60 s
            assertTrue(signal.await(TimeUnit.SECONDS.toNanos(60)));
            assertFalse(ends.isAlive());
            // nothing else has exited: a short wait times out
            assertFalse(signal.await(TimeUnit.MILLISECONDS.toNanos(50)));
            stays.destroyForcibly();
            assertTrue(signal.await(TimeUnit.SECONDS.toNanos(60)));
        } finally {
            stays.destroyForcibly();
        }
    }
}
