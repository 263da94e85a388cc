package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.RankFailedException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.device.JobFailure.RankFailureMode;
import dev.tessera.launch.LaunchSpec;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank process killed with kill -9 in a real job. With {@code --on-rank-failure continue} the
 * others go on: a receive from the dead rank that was pending when it died fails with
 * {@link RankFailedException} naming it, a send to it is refused the same way, and the living
 * ranks still communicate. By default (abort) the same death ends the job, naming the rank.
 */
@Timeout(180)
class RankFailureModeTest {

    /** Rank 2 kills itself with kill -9 once rank 0 has posted a receive from it. */
    public static final class Survivor {
        public static void main(String[] args) throws Exception {
            try (Session s = Tessera.init(args)) {
                Comm world = s.world();
                int rank = world.rank();
                int[] got = new int[1];
                Request pending = rank == 0 ? world.irecv(Buffer.of(got), 2, 5) : null;
                world.allreduce(1L, Op.SUM);                  // rank 0's receive is posted before rank 2 dies
                if (rank == 2) {
                    new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    Thread.sleep(60_000);                     // not reached
                    return;
                }
                try {
                    if (rank == 0) {
                        try {
                            pending.await();
                            System.out.println("rank 0: the receive from rank 2 completed?");
                        } catch (RankFailedException e) {
                            System.out.println("pending receive failed: rank " + e.failedRank() + ": " + e.getMessage());
                        }
                        try {
                            world.send(Buffer.of(new int[] {1}), 2, 6);
                            System.out.println("rank 0: the send to rank 2 went through?");
                        } catch (RankFailedException e) {
                            System.out.println("send refused: rank " + e.failedRank() + ": " + e.getMessage());
                        }
                        int[] v = new int[1];
                        world.recv(Buffer.of(v), 1, 7);
                        System.out.println("survivors exchanged " + v[0]);
                    } else {
                        world.send(Buffer.of(new int[] {42}), 0, 7);
                    }
                } catch (RuntimeException e) {
                    System.out.println("rank " + rank + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                    throw e;
                }
            }
        }
    }

    private static String run(String device, RankFailureMode mode, int[] status) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(3, 0, List.of(), 1, device, true, List.of(), Survivor.class.getName(),
                List.of(), List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"), Duration.ofSeconds(60));
        status[0] = new ProcessLauncher(sink, sink, Duration.ofSeconds(150), 0).onRankFailure(mode).run(spec);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** Fails unless {@code out} contains every one of {@code expected}. */
    private static void assertContainsAll(String out, String... expected) {
        for (String e : expected) {
            assertTrue(out.contains(e), "missing \"" + e + "\" in:\n" + out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void withContinueTheOthersGoOnAndOperationsWithTheDeadRankFailNamingIt(String device) throws Exception {
        int[] status = new int[1];
        String out = run(device, RankFailureMode.CONTINUE, status);
        assertContainsAll(out, "pending receive failed: rank 2: rank 0: Comm.irecv: rank 2 is gone",
                "send refused: rank 2: rank 0: send to rank 2 failed: rank 2 is gone", "survivors exchanged 42",
                "tessera: rank 2 exited with status 137 (killed by signal 9); the job goes on");
        assertEquals(137, status[0], out);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    void byDefaultTheDeathOfARankEndsTheJobNamingIt(String device) throws Exception {
        int[] status = new int[1];
        String out = run(device, RankFailureMode.ABORT, status);
        assertFalse(out.contains("survivors exchanged") || out.contains("RankFailedException"), out);
        assertContainsAll(out, "rank 2 exited with status 137 (killed by signal 9); stopping the job",
                "rank 0 failed: TesseraException");
        assertTrue(status[0] != 0, out);
    }
}
