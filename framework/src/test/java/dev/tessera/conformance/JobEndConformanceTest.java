package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a job ends when one of its processes ends early (issue #28, items 1-4), with real
 * processes started through the {@code tessera run} command (or mpirun):
 * <ul>
 *   <li>a rank that calls System.exit (status 0 or not) with its session open fails the job:
 *       every other rank's pending call fails naming it and the status, and the ranks stop by
 *       themselves (before the launcher's 10 s grace kill); on smp the job does not report
 *       success;</li>
 *   <li>ranks die with their launcher when it is killed with SIGKILL;</li>
 *   <li>a launcher stopped by SIGTERM leaves no job directory and no /dev/shm file, and the
 *       files of a job whose launcher was killed are removed by the next job.</li>
 * </ul>
 */
@Timeout(180)
class JobEndConformanceTest {

    private static final Pattern PID = Pattern.compile("rank (\\d+) pid (\\d+) job (\\S+)");

    /** {@code tessera run ARGS} in a JVM of its own, with java.io.tmpdir = {@code tmp} when not null. */
    private static ProcessBuilder tessera(Path tmp, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:TieredStopAtLevel=1"));
        if (tmp != null) {
            cmd.add("-Djava.io.tmpdir=" + tmp);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.tessera.launch.TesseraCommand", "run"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true);
    }

    /** Runs a process to its end (killing its tree after {@code seconds}) and returns status and output. */
    private static ProcessJobRunner.Result finish(ProcessBuilder pb, long seconds) throws Exception {
        Process p = pb.start();
        p.getOutputStream().close();
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                p.getInputStream().transferTo(bytes);
            } catch (IOException ignored) {
                // ended
            }
        });
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                return new ProcessJobRunner.Result(124, "timed out after " + seconds + " s\n" + bytes);
            }
            reader.join(5000);
            return new ProcessJobRunner.Result(p.exitValue(), bytes.toString(StandardCharsets.UTF_8));
        } finally {
            killTree(p);
        }
    }

    private static void killTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    // ------------------------------------------------------------------ items 1 and 2

    @ParameterizedTest(name = "{0}, status {1}")
    @CsvSource({"tcp, 0", "shm, 0", "auto, 0", "tcp, 3", "shm, 3", "auto, 3"})
    void aRankThatExitsMidJobFailsEveryRankNamingItAndItsStatus(String device, int status) throws Exception {
        ProcessJobRunner.Result r = finish(tessera(null, "-np", "4", "--device", device, "--tag-output",
                "--bind-to", "none", "--start-timeout", "60", ExitMidJobMain.class.getName(), Integer.toString(status)), 120);
        String out = r.output();
        assertNotEquals(124, r.status(), out);
        assertNotEquals(0, r.status(), "a job whose rank exited mid-run must fail:\n" + out);
        for (int rank : new int[] {0, 1, 3}) {
            assertTrue(out.lines().anyMatch(l -> l.startsWith("[" + rank + "] ")
                    && l.contains("rank 2 exited with status " + status)), "rank " + rank + " must name rank 2 and status "
                    + status + ":\n" + out);
        }
        assertFalse(out.contains("killing rank"), "ranks must stop by themselves:\n" + out);
    }

    @Test
    void onSmpASystemExitWhileOtherRanksRunIsNotASuccess() throws Exception {
        ProcessJobRunner.Result r = finish(tessera(null, "-np", "4", "--device", "smp",
                ExitMidJobMain.class.getName(), "0"), 120);
        assertNotEquals(124, r.status(), r.output());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 2 called System.exit with status 0 while rank(s) [0, 1, 3] were still running"),
                r.output());
    }

    @Test
    void onSmpEveryRankEndingBySystemExitGivesItsStatusWithoutACutOffReport() throws Exception {
        ProcessJobRunner.Result r = finish(tessera(null, "-np", "4", "--device", "smp",
                AllRanksExitMain.class.getName(), "3"), 120);
        assertEquals(3, r.status(), r.output());
        assertFalse(r.output().contains("called System.exit"), r.output());
    }

    @Test
    void processRanksThatAllExitWithOneStatusGetOneLine() throws Exception {
        ProcessJobRunner.Result r = finish(tessera(null, "-np", "4", "--device", "shm", "--bind-to", "none",
                "--start-timeout", "60", AllRanksExitMain.class.getName(), "3"), 120);
        assertEquals(3, r.status(), r.output());
        assertTrue(r.output().contains("tessera: every rank exited with status 3"), r.output());
        assertFalse(r.output().contains("rank 0 exited") || r.output().contains("stopping the job"), r.output());
    }

    @ParameterizedTest(name = "status {0}")
    @ValueSource(ints = {0, 3})
    void underMpirunARankThatExitsMidJobEndsTheJobNamingIt(int status) {
        assumeTrue(MpirunJobRunner.available(), "Open MPI (mpirun, mpicc) is not installed");
        ProcessJobRunner.Result r = new MpirunJobRunner(false, java.time.Duration.ofSeconds(120))
                .launchMain(4, ExitMidJobMain.class.getName(), List.of(Integer.toString(status)), Map.of());
        assertNotEquals(124, r.status(), r.output());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank 2 exited with status " + status), r.output());
    }

    // ------------------------------------------------------------------ item 3

    /** Starts a spinning job, waits for every rank's pid line, and returns the pids (job id last). */
    private static List<String> ranksOf(Process p, int ranks, StringBuilder seen) throws IOException {
        List<String> pids = new ArrayList<>();
        String job = null;
        BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while (pids.size() < ranks && (line = in.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = PID.matcher(line);
            if (m.find()) {
                pids.add(m.group(2));
                job = m.group(3);
            }
        }
        Thread.ofPlatform().daemon().start(() -> {
            try {
                in.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // ended
            }
        });
        assertEquals(ranks, pids.size(), "not every rank started:\n" + seen);
        pids.add(job);
        return pids;
    }

    /** Waits (at most 30 s) until none of {@code pids} is alive; returns those still alive (then killed). */
    private static List<Long> survivors(List<String> pids) throws InterruptedException {
        long until = System.nanoTime() + 30_000_000_000L;
        List<Long> alive;
        do {
            alive = pids.stream().map(Long::parseLong)
                    .filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList();
            if (alive.isEmpty()) {
                return alive;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < until);
        alive.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        return alive;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "shm", "auto", "mpi"})
    void ranksDieWithTheirLauncherKilledBySigkill(String device) throws Exception {
        ProcessBuilder pb;
        if (device.equals("mpi")) {
            assumeTrue(MpirunJobRunner.available(), "Open MPI (mpirun, mpicc) is not installed");
            pb = new MpirunJobRunner(false).processBuilder(3, SpinningJobMain.class.getName(), List.of(), Map.of());
        } else {
            pb = tessera(null, "-np", "3", "--device", device, "--bind-to", "none", SpinningJobMain.class.getName());
        }
        Process launcher = pb.start();
        StringBuilder seen = new StringBuilder();
        try {
            List<String> pids = ranksOf(launcher, 3, seen);
            pids.removeLast();
            launcher.destroyForcibly(); // SIGKILL: no shutdown hook runs
            launcher.waitFor(10, TimeUnit.SECONDS);
            assertEquals(List.of(), survivors(pids), "rank processes outlived their launcher:\n" + seen);
        } finally {
            killTree(launcher);
        }
    }

    // ------------------------------------------------------------------ item 4

    private static List<Path> jobDirs(Path tmp) throws IOException {
        try (var s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().startsWith("tessera-job-")).toList();
        }
    }

    private static List<Path> shmFilesOf(String job) throws IOException {
        try (var s = Files.list(Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("tessera-" + job)).toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "shm"})
    void aLauncherStoppedBySigtermLeavesNoFilesAndNoRanks(String device, @TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")), "no /dev/shm");
        Process launcher = tessera(tmp, "-np", "3", "--device", device, "--bind-to", "none",
                SpinningJobMain.class.getName()).start();
        StringBuilder seen = new StringBuilder();
        try {
            List<String> pids = ranksOf(launcher, 3, seen);
            String job = pids.removeLast();
            assertEquals(1, jobDirs(tmp).size(), "the running job has its directory in " + tmp);
            launcher.destroy(); // SIGTERM
            assertTrue(launcher.waitFor(60, TimeUnit.SECONDS), "the launcher did not end on SIGTERM");
            assertEquals(List.of(), survivors(pids), seen.toString());
            assertEquals(List.of(), jobDirs(tmp), "job directories left after SIGTERM:\n" + seen);
            assertEquals(List.of(), shmFilesOf(job), "shared files left after SIGTERM");
        } finally {
            killTree(launcher);
        }
    }

    @Test
    void theNextJobRemovesWhatAKilledLaunchersJobLeft(@TempDir Path tmp) throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")), "no /dev/shm");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        String deadJob = "tessera-job-" + Long.toHexString(System.nanoTime());
        Path dead = Files.createDirectory(tmp.resolve(deadJob + "123"));
        Files.writeString(dead.resolve("launcher"), gone.pid() + " " + deadJob + "\n");
        Files.writeString(dead.resolve("rank-0"), "stale");
        Path deadShm = Files.writeString(Path.of("/dev/shm", "tessera-" + deadJob), "stale");
        String liveJob = "tessera-job-" + Long.toHexString(System.nanoTime() + 1);
        Path live = Files.createDirectory(tmp.resolve(liveJob + "456"));
        Files.writeString(live.resolve("launcher"), ProcessHandle.current().pid() + " " + liveJob + "\n");
        try {
            ProcessJobRunner.Result r = finish(tessera(tmp, "-np", "2", "--device", "shm", "--bind-to", "none",
                    SpinningJobMain.class.getName(), "once"), 120);
            assertEquals(0, r.status(), r.output());
            assertFalse(Files.exists(dead), "the directory of a job whose launcher is dead was left");
            assertFalse(Files.exists(deadShm), "the shared file of a job whose launcher is dead was left");
            assertTrue(Files.exists(live.resolve("launcher")), "the directory of a live launcher's job was removed");
        } finally {
            Files.deleteIfExists(deadShm);
        }
    }

    @Test
    void staleOpenMpiSegmentsAreRemovedByTheNextMpiJob() throws Exception {
        assumeTrue(MpirunJobRunner.available(), "Open MPI (mpirun, mpicc) is not installed");
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")) && Files.isDirectory(Path.of("/proc/self")), "no /dev/shm or /proc");
        String tag = "vader_segment.tessera-test." + Long.toHexString(System.nanoTime());
        Path stale = Files.writeString(Path.of("/dev/shm", tag + ".0"), "left by a killed job");
        Path fresh = Files.writeString(Path.of("/dev/shm", tag + ".1"), "a job starting now");
        Path inUse = Files.writeString(Path.of("/dev/shm", tag + ".2"), "mapped by a live job");
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 600_000);
        Files.setLastModifiedTime(stale, old);
        Files.setLastModifiedTime(inUse, old);
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(inUse,
                java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE);
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            ch.map(java.nio.channels.FileChannel.MapMode.READ_WRITE, 0, Files.size(inUse), arena);
            String staleName = stale.toString();
            // rank 0 waits (at most 60 s) for the clean-up, which runs in the background of local rank 0
            new MpirunJobRunner(false).run(2, world -> {
                for (int i = 0; i < 600 && world.rank() == 0 && Files.exists(Path.of(staleName)); i++) {
                    Thread.sleep(100);
                }
                world.barrier();
            });
            assertFalse(Files.exists(stale), "a stale, unmapped segment of this user was left");
            assertTrue(Files.exists(fresh), "a segment younger than a minute was removed");
            assertTrue(Files.exists(inUse), "a segment that a live process maps was removed");
        } finally {
            Files.deleteIfExists(stale);
            Files.deleteIfExists(fresh);
            Files.deleteIfExists(inUse);
        }
    }
}
