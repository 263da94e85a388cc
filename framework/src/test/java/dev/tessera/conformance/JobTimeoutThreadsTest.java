package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job that outlives the launcher's job timeout says where each rank was before it is
 * killed: every rank process still running prints its threads' stacks (SIGQUIT), with its
 * rank's prefix, so that a hang seen once in a long test run can be read afterwards.
 */
@Timeout(120)
class JobTimeoutThreadsTest {

    /** Rank 0 never sends: it sleeps in a method whose name its stack must show. */
    static void rankZeroSleepsHere() throws InterruptedException {
        Thread.sleep(600_000);
    }

    @Test
    void aHungJobPrintsTheStacksOfEveryRankBeforeTheKill() {
        ProcessJobRunner.Result r = new ProcessJobRunner("shm", Duration.ofSeconds(15)).launch(2, world -> {
            world.barrier();
            if (world.rank() == 0) {
                rankZeroSleepsHere();
            } else {
                world.recv(Buffer.of(new int[1]), 0, 5);
            }
        }, List.of());
        String out = r.output();
        assertEquals(124, r.status(), out);
        assertTrue(out.contains("job timeout after 15 s"), out);
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(Pattern.compile("(?m)^\\[" + rank + "\\].*Full thread dump").matcher(out).find(),
                    "rank " + rank + " printed no thread dump:\n" + out);
        }
        assertTrue(Pattern.compile("(?m)^\\[0\\].*at dev\\.tessera\\.conformance\\.JobTimeoutThreadsTest\\.rankZeroSleepsHere")
                .matcher(out).find(), "rank 0's stack does not show where it sleeps:\n" + out);
        assertTrue(Pattern.compile("(?m)^\\[1\\].*at dev\\.tessera\\.comm\\..*recv").matcher(out).find(),
                "rank 1's stack does not show its receive:\n" + out);
    }
}
