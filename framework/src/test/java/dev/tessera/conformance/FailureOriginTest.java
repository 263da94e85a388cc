package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When one rank fails, every other rank's error and the launcher's summary name that rank
 * and its cause, never a rank that only relayed the failure (issue #28, item 11). Rank 2 of
 * 4 fails (killed with SIGKILL, System.exit(3), or an exception) while the others wait in a
 * pipeline (rank 3 waits on 0, which waits on 1, which waits on 2), a ring exchange, an
 * allreduce or a barrier; on every process device with real processes, and on smp.
 */
@Timeout(120)
class FailureOriginTest {

    /** A chain of failures: "job aborted: rank N failed". */
    private static final Pattern ABORTED = Pattern.compile("job aborted: rank (-?\\d+) failed");

    /** Rank 2 fails as {@code how} says, after the others are inside {@code pattern}'s calls. */
    static RankCase job(String how, String pattern) {
        return world -> {
            world.barrier();
            int me = world.rank();
            if (me == 2) {
                Thread.sleep(300);   // the others are waiting by now
                switch (how) {
                    case "kill" -> {
                        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                        Thread.sleep(60_000);
                    }
                    case "exit" -> System.exit(3);
                    // an error of the class the relayed failures have (a failure rank 2 found itself)
                    case "procfailed" -> throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.PROC_FAILED, "rank two broke");
                    default -> throw new IllegalStateException("rank two broke");
                }
            }
            wait(world, pattern);
        };
    }

    static void wait(Comm world, String pattern) {
        int me = world.rank();
        int p = world.size();
        int[] x = new int[1];
        switch (pattern) {
            case "pipeline" -> {   // 2 -> 1 -> 0 -> 3
                int from = me == 3 ? 0 : me + 1;
                world.recv(Buffer.of(x), from, 0);
                if (me != 3) {
                    world.send(Buffer.of(x), me == 0 ? 3 : me - 1, 0);
                }
            }
            case "ring" -> {
                for (int round = 0; round < 1000; round++) {
                    world.sendrecv(Buffer.of(new int[] {me}), (me + 1) % p, 1, Buffer.of(x), (me + p - 1) % p, 1);
                }
            }
            case "allreduce" -> world.allreduce(Buffer.of(new int[] {me}), Buffer.of(x), Op.SUM);
            default -> world.barrier();
        }
    }

    /** What a surviving rank must say about rank 2's cause. */
    static boolean namesCause(String how, String text) {
        return switch (how) {
            case "kill" -> text.contains("died or was killed") || text.contains("exited with status 137");
            case "exit" -> text.contains("exited with status 3");
            default -> text.contains("rank two broke");
        };
    }

    /** Every "job aborted: rank N failed" in {@code text} names rank 2. */
    static void onlyRankTwoIsBlamed(String text, String context) {
        Matcher m = ABORTED.matcher(text);
        while (m.find()) {
            int from = Math.max(0, m.start() - 120);
            assertEquals("2", m.group(1), "rank " + m.group(1) + ", which only relayed rank 2's failure, is blamed in: ..."
                    + text.substring(from, Math.min(text.length(), m.end() + 200)) + "...\nwhole output:\n" + context);
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "tcp, kill, pipeline", "tcp, exit, ring", "tcp, throw, pipeline", "tcp, throw, allreduce",
        "shm, kill, ring", "shm, exit, pipeline", "shm, throw, pipeline", "shm, throw, barrier",
        "auto, kill, allreduce", "auto, throw, pipeline",
    })
    void everyRankAndTheLauncherNameTheRankThatFailed(String device, String how, String pattern) {
        ProcessJobRunner.Result r = new ProcessJobRunner(device, Duration.ofSeconds(60)).launch(4, job(how, pattern), List.of());
        String out = r.output();
        assertEquals(switch (how) {
            case "kill" -> 137;
            case "exit" -> 3;
            default -> 1;
        }, r.status(), "the job ends with rank 2's status:\n" + out);
        for (int rank : new int[] {0, 1, 3}) {
            String prefix = "[" + rank + "] tessera: rank " + rank + " failed: ";
            String line = out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
            assertNotNull(line, "rank " + rank + " reports its failure:\n" + out);
            assertTrue(line.contains("job aborted: rank 2 failed") && namesCause(how, line),
                    "rank " + rank + " names rank 2 and its cause: " + line + "\n" + out);
        }
        onlyRankTwoIsBlamed(out, out);
        String stopping = out.lines().filter(l -> l.contains("stopping the job")).findFirst().orElse("");
        assertTrue(stopping.startsWith("tessera: rank 2 "), "the launcher names rank 2 first: " + stopping + "\n" + out);
        assertTrue(out.lines().noneMatch(l -> l.contains("killing rank") && !l.contains("after rank 2 failed")), out);
    }

    /**
     * Under mpirun the rank that fails aborts the MPI job (MPI_Abort ends every rank): the
     * abort line names rank 2 and its cause, and no other rank is named as the one that failed.
     */
    @ParameterizedTest(name = "mpi {0} {1}")
    @CsvSource({"throw, pipeline", "exit, allreduce"})
    void underMpirunTheAbortNamesTheRankThatFailed(String how, String pattern) {
        org.junit.jupiter.api.Assumptions.assumeTrue(MpirunJobRunner.available(), Runners.NO_OPEN_MPI);
        ProcessJobRunner.Result r = new MpirunJobRunner(false, Duration.ofSeconds(90)).launch(4, job(how, pattern), List.of(), Map.of());
        String out = r.output();
        assertTrue(r.status() != 0 && r.status() != 124, "status " + r.status() + ":\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.contains("aborting the MPI job: rank 2 failed") && namesCause(how, l)), out);
        assertTrue(out.lines().noneMatch(l -> l.matches(".*aborting the MPI job: rank [013] failed.*")), out);
        onlyRankTwoIsBlamed(out, out);
    }

    @ParameterizedTest(name = "smp {0} {1}")
    @CsvSource({"throw, pipeline", "throw, ring", "procfailed, allreduce", "procfailed, barrier", "procfailed, pipeline"})
    void everySmpRankAndTheJobNameTheRankThatFailed(String how, String pattern) {
        Map<Integer, String> errors = new ConcurrentHashMap<>();
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> new SmpJobRunner(60, dev.tessera.comm.ThreadLevel.FUNNELED).run(4, world -> {
                    try {
                        job(how, pattern).run(world);
                    } catch (RuntimeException ex) {
                        errors.put(world.rank(), String.valueOf(ex.getMessage()));
                        throw ex;
                    }
                }));
        assertTrue(e.getMessage().startsWith("rank 2 failed: ") && e.getMessage().contains("rank two broke"), e.getMessage());
        for (int rank : new int[] {0, 1, 3}) {
            String msg = errors.get(rank);
            assertNotNull(msg, "rank " + rank + " failed: " + errors);
            assertTrue(msg.contains("job aborted: rank 2 failed") && msg.contains("rank two broke"), "rank " + rank + ": " + msg);
            onlyRankTwoIsBlamed(msg, msg);
        }
    }
}
