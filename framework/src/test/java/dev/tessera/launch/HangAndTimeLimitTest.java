package dev.tessera.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * {@code tessera run --hang-report} and {@code --time-limit} (issue #28, item 5), with real
 * launcher processes: a deliberate deadlock is reported (which rank waits in which call on
 * which communicator for which peer and tag) and the job ended; an endless loop is ended at
 * the time limit with status 124 and every rank process gone. Limits are generous and only
 * the messages are checked, never how long anything took.
 */
@Timeout(240)
class HangAndTimeLimitTest {

    /** Both ranks receive first: a deadlock. */
    public static final class Deadlock {
        public static void main(String[] args) {
            try (Session s = Tessera.init(args)) {
                Comm world = s.world();
                int other = 1 - world.rank();
                world.recv(Buffer.of(new int[1]), other, 7);
                world.send(Buffer.of(new int[1]), other, 7);
            }
        }
    }

    /** Both ranks probe for a message that never comes. */
    public static final class ProbeDeadlock {
        public static void main(String[] args) {
            try (Session s = Tessera.init(args)) {
                s.world().probe(1 - s.world().rank(), 9);
            }
        }
    }

    /** Rank 0 loops for ever outside any call; rank 1 waits at a barrier. */
    public static final class EndlessLoop {
        public static void main(String[] args) {
            try (Session s = Tessera.init(args)) {
                if (s.world().rank() == 0) {
                    long x = 0;
                    while (x >= 0) {
                        x = (x + 1) & Long.MAX_VALUE >>> 1;
                    }
                }
                s.world().barrier();
            }
        }
    }

    /** Rank 0 computes for ever after an allreduce; the other ranks wait for it at a barrier. */
    public static final class SpinAfterAllreduce {
        public static void main(String[] args) {
            try (Session s = Tessera.init(args)) {
                Comm world = s.world();
                world.allreduce(Buffer.of(new int[] {1}), Buffer.of(new int[1]), dev.tessera.comm.Op.SUM);
                if (world.rank() == 0) {
                    long x = 0;
                    while (x >= 0) {
                        x = (x + 1) & Long.MAX_VALUE >>> 1;
                    }
                }
                world.barrier();
            }
        }
    }

    /** Rank 0 waits for a nonblocking allreduce that rank 1 never joins (rank 1 waits for a message instead). */
    public static final class NonblockingDeadlock {
        public static void main(String[] args) {
            try (Session s = Tessera.init(args)) {
                Comm world = s.world();
                if (world.rank() == 0) {
                    world.iallreduce(Buffer.of(new int[] {1}), Buffer.of(new int[1]), dev.tessera.comm.Op.SUM).await();
                } else {
                    world.recv(Buffer.of(new int[1]), 0, 5);
                }
            }
        }
    }

    private record Outcome(int status, String output, List<ProcessHandle> ranks) {
    }

    private static Outcome tessera(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                TesseraCommand.class.getName(), "run"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<ProcessHandle> seen = new ArrayList<>();
        try {
            Thread watcher = Thread.ofPlatform().daemon().start(() -> {
                while (p.isAlive()) {
                    p.descendants().forEach(h -> {
                        synchronized (seen) {
                            if (!seen.contains(h)) {
                                seen.add(h);
                            }
                        }
                    });
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(200, TimeUnit.SECONDS), "the launcher ended");
            watcher.join(5000);
            synchronized (seen) {
                return new Outcome(p.exitValue(), output, List.copyOf(seen));
            }
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            synchronized (seen) {
                seen.forEach(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** {@code tessera run -np RANKS --device DEVICE --hang-report AFTER --time-limit 150s MAIN}. */
    private static Outcome withHangReport(String device, int ranks, String after, Class<?> main) throws Exception {
        return tessera("-np", Integer.toString(ranks), "--device", device, "--hang-report", after, "--time-limit", "150s",
                main.getName());
    }

    /** The job failed, ended by the hang report (not the time limit), and its output says each of {@code lines}. */
    private static void endedByTheHangReportSaying(Outcome o, String... lines) {
        assertNotEquals(0, o.status(), o.output());
        assertNotEquals(124, o.status(), "ended by the hang report, not the time limit:\n" + o.output());
        for (String line : lines) {
            assertTrue(o.output().contains(line), "missing '" + line + "' in:\n" + o.output());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"smp", "tcp", "shm"})
    void aDeadlockIsReportedWithCallPeerAndTagAndTheJobEnded(String device) throws Exception {
        Outcome o = withHangReport(device, 2, "5s", Deadlock.class);
        endedByTheHangReportSaying(o, "hang report: rank 0: Comm.recv(source 1, tag 7) on the world communicator",
                "hang report: rank 1: Comm.recv(source 0, tag 7) on the world communicator", "no progress for");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"smp", "tcp"})
    void aProbeThatNeverMatchesIsReported(String device) throws Exception {
        Outcome o = withHangReport(device, 2, "4s", ProbeDeadlock.class);
        endedByTheHangReportSaying(o, "hang report: rank 0: Comm.probe(source 1, tag 9) on the world communicator",
                "hang report: rank 1: Comm.probe(source 0, tag 9) on the world communicator");
    }

    /**
     * The hang report names a rank that is in no call, with its last call, as well as the waiting
     * ranks; the job ends by the report, the computing rank cut off after the launcher's grace
     * (smp too, whose rank threads cannot be stopped: it used to run on to the time limit).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"smp", "tcp", "shm"})
    void aRankInNoCallIsNamedWithItsLastCall(String device) throws Exception {
        Outcome o = tessera("-np", "3", "--device", device, "--hang-report", "3s", "--time-limit", "60s",
                SpinAfterAllreduce.class.getName());
        endedByTheHangReportSaying(o, "still running 10 s after rank ");
        String idle = "hang report: rank 0: not in a Tessera call for ";
        assertTrue(o.output().lines().anyMatch(l -> l.contains(idle)
                        && l.contains("(last call: Comm.allreduce on the world communicator, returned at ")),
                "missing '" + idle + "... (last call: Comm.allreduce ...)' in:\n" + o.output());
        assertTrue(o.output().contains("hang report: rank 1: Comm.barrier on the world communicator")
                && o.output().contains("hang report: rank 2: Comm.barrier on the world communicator"), o.output());
    }

    /** A nonblocking collective waited for is reported with its name, communicator and the peer of its round. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"smp", "tcp"})
    void aNonblockingCollectiveWaitedForIsReportedWithItsPeer(String device) throws Exception {
        Outcome o = withHangReport(device, 2, "3s", NonblockingDeadlock.class);
        endedByTheHangReportSaying(o, "hang report: rank 1: Comm.recv(source 0, tag 5) on the world communicator",
                "hang report: rank 0: Comm.iallreduce on the world communicator [round 1 of ");
        assertTrue(o.output().lines().anyMatch(l -> l.contains("Comm.iallreduce on the world communicator [round 1 of ")
                && l.contains("receive from rank 1")), "the round waits for rank 1:\n" + o.output());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"smp", "tcp"})
    void anEndlessLoopIsEndedAtTheTimeLimit(String device) throws Exception {
        Outcome o = tessera("-np", "2", "--device", device, "--time-limit", "0:12", EndlessLoop.class.getName());
        assertEquals(124, o.status(), o.output());
        assertTrue(o.output().contains("tessera run: time limit 0:12 reached; ending the job"), o.output());
        // where each rank was when the limit ended the job
        assertTrue(o.output().contains("hang report: rank 0: not in a Tessera call for "), o.output());
        assertTrue(o.output().contains("hang report: rank 1: Comm.barrier on the world communicator"), o.output());
        for (ProcessHandle h : o.ranks()) {
            h.onExit().get(20, TimeUnit.SECONDS);
            assertFalse(h.isAlive(), "a rank process outlived the time limit: " + h.pid());
        }
        if (!device.equals("smp")) {
            assertTrue(o.ranks().size() >= 2, "the rank processes were seen: " + o.ranks());
        }
    }
}
