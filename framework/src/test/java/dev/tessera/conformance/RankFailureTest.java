package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.device.JobFailure;
import dev.tessera.device.shm.ShmFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A rank that throws or is killed stops every other rank, whatever call it is blocked in,
 * with an error naming the failed rank, within seconds, on every multi-process device;
 * and nothing is left in /dev/shm afterwards.
 */
@Timeout(90)
class RankFailureTest {

    /** The job ids of this class's jobs (rank 0 prints its own); only their files are checked in /dev/shm afterwards. */
    private static final java.util.Set<String> JOBS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final java.util.regex.Pattern JOB_LINE = java.util.regex.Pattern.compile("job-id: (tessera-job-[0-9a-f]+)");

    /** Rank 0 says which job it belongs to (TESSERA_JOB_ID, set by the launcher of the process devices). */
    static void sayJob(Comm world) {
        String id = System.getenv("TESSERA_JOB_ID");
        if (world.rank() == 0 && id != null) {
            System.out.println("job-id: " + id);
            System.out.flush();
        }
    }

    /** Records the job id printed in {@code output}; true if there was one. */
    static boolean noteJob(String output) {
        java.util.regex.Matcher m = JOB_LINE.matcher(output);
        boolean found = false;
        while (m.find()) {
            JOBS.add(m.group(1));
            found = true;
        }
        return found;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "shm"})
    void aRankThatThrowsStopsEveryRankBlockedInRecv(String device) {
        ProcessJobRunner.Result r = new ProcessJobRunner(device, Duration.ofSeconds(60)).launch(3, world -> {
            sayJob(world);
            world.barrier();
            if (world.rank() == 2) {
                throw new IllegalStateException("boom on rank two");
            }
            world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 0);
        }, List.of());
        assertTrue(noteJob(r.output()), "rank 0 names its job:\n" + r.output());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("boom on rank two"), r.output());
        assertTrue(r.output().contains("[0] tessera: rank 0 failed") && r.output().contains("rank 2 failed"), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "shm"})
    void aRankKilledWithSigkillStopsEveryRankBlockedInACollective(String device) {
        ProcessJobRunner.Result r = new ProcessJobRunner(device, Duration.ofSeconds(60)).launch(3, world -> {
            sayJob(world);
            world.barrier();
            if (world.rank() == 1) {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                Thread.sleep(60_000);
            }
            world.barrier();
        }, List.of());
        assertTrue(noteJob(r.output()), "rank 0 names its job:\n" + r.output());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 1 exited with status 137"), r.output());
        // a survivor learns of the death from its device ("died or was killed") or, when the launcher saw
        // the exit first, from the job's failure file, whose reason is the launcher's line: both name rank 1
        assertTrue(r.output().lines().anyMatch(l -> (l.startsWith("[0] ") || l.startsWith("[2] ")) && l.contains("rank 1")
                && (l.contains("died or was killed") || l.contains("exited with status 137"))), r.output());
        assertFalse(r.output().contains("killing rank"), "ranks must stop by themselves:\n" + r.output());
    }

    static Stream<JobRunner> runners() {
        return Runners.all().stream();
    }

    /** Session.abort(code, reason) stops every rank, whatever it is blocked in, with the reason, on every device. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("runners")
    void sessionAbortStopsTheWholeJobWithTheReason(JobRunner runner) {
        AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> runner.run(3, world -> {
            sayJob(world);
            world.barrier();
            if (world.rank() == 1) {
                throw RankSessions.current().abort(3, "input deck has no grid section");
            }
            world.recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 0);
        }));
        String text = e.getMessage() + (e.getCause() != null ? " " + e.getCause() : "");
        noteJob(text);
        assertTrue(text.contains("rank 1 aborted the job (code 3): input deck has no grid section"), text);
    }

    @Test
    void aShmPeerThatNeverAttachesIsATimeoutNamingIt() throws Exception {
        Path file = Path.of(System.getenv().getOrDefault("TESSERA_SHM_DIR", "/dev/shm"), "tessera-test-missing-" + ProcessHandle.current().pid());
        try {
            TesseraException e = org.junit.jupiter.api.Assertions.assertThrows(TesseraException.class,
                    () -> ShmFile.join(file, 0, 3, Duration.ofSeconds(2), new JobFailure()));
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass());
            assertTrue(e.getMessage().contains("[1, 2]") && e.getMessage().contains("never attached"), e.getMessage());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * The shared files of this class's jobs are gone (other jobs on the machine, other
     * test runs included, may have theirs: they are not looked at).
     */
    @AfterAll
    static void nothingOfTheseJobsIsLeftInDevShm() throws Exception {
        Path shm = Path.of(System.getenv().getOrDefault("TESSERA_SHM_DIR", "/dev/shm"));
        List<String> prefixes = JOBS.stream()
                .map(job -> dev.tessera.device.shm.ShmProvider.shmFile(System.getenv(), job).getFileName().toString())
                .toList();
        if (Files.isDirectory(shm)) {
            try (Stream<Path> s = Files.list(shm)) {
                List<Path> left = s.filter(p -> prefixes.stream().anyMatch(p.getFileName().toString()::startsWith)).toList();
                assertTrue(left.isEmpty(), "left behind in " + shm + " by this test's jobs " + JOBS + ": " + left);
            }
        }
    }
}
