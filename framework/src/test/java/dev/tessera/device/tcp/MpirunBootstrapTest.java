package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.comm.Op;
import dev.tessera.conformance.ProcessRankCase;
import dev.tessera.conformance.RankCase;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The same program started by Open MPI's mpirun finds its rank and size and forms a tcp job. */
@Timeout(120)
class MpirunBootstrapTest {

    static boolean hasMpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, "mpirun"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void threeRanksUnderMpirunCommunicate(@TempDir Path dir) throws Exception {
        if (!hasMpirun()) {
            System.out.println("MpirunBootstrapTest skipped: mpirun not found on PATH (install openmpi-bin)");
        }
        assumeTrue(hasMpirun(), "mpirun not found on PATH");
        Path file = dir.resolve("case.ser");
        RankCase body = world -> {
            if (world.size() != 3) {
                throw new AssertionError("size " + world.size());
            }
            long sum = world.allreduce((long) world.rank() + 1, Op.SUM);
            if (sum != 6) {
                throw new AssertionError("sum " + sum);
            }
            if (world.rank() == 0) {
                System.out.println("mpirun job ok on " + world.deviceName());
            }
        };
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(body);
        }
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        ProcessBuilder pb = mpirun(file, tmp, null);
        dev.tessera.conformance.ChildProcesses.Outcome o = dev.tessera.conformance.ChildProcesses.run(pb,
                java.time.Duration.ofSeconds(90));
        String output = o.output();
        assertTrue(!o.timedOut(), "mpirun job finished: " + output);
        assertEquals(0, o.status(), output);
        assertTrue(output.contains("mpirun job ok on auto"), output);
        // The ranks met in a directory of this user's (TMPDIR here), not at a fixed name in /tmp, and it is gone.
        Path base = tmp.resolve("tessera-" + System.getProperty("user.name"));
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(base)));
        List<String> leftovers;
        try (var s = Files.list(base)) {
            leftovers = s.map(Path::toString).filter(n -> n.contains("ompi-")).toList();
        }
        assertTrue(leftovers.isEmpty(), "rendezvous directories left behind: " + leftovers);
    }

    /**
     * Before #28 another local user could make the rendezvous directory of an mpirun job first
     * (a fixed name in /tmp) and take rank 0's place. The directory's base is now this user's:
     * one that another user made first is refused with a clear error, and nothing is published.
     */
    @Test
    void aRendezvousBaseAnotherUserMadeIsRefused(@TempDir Path dir) throws Exception {
        assumeTrue(hasMpirun(), "mpirun not found on PATH");
        String why = dev.tessera.device.OtherUser.unavailable();
        assumeTrue(why == null, "skipped: " + why);
        Path tmp = dev.tessera.device.OtherUser.sharedTmp(dir);
        Path base = tmp.resolve("tessera-" + System.getProperty("user.name"));
        var made = dev.tessera.device.OtherUser.run(10, "mkdir", "-m", "777", base.toString());
        assertEquals(0, made.status(), made.output());
        RankCase body = world -> System.out.println("should not get here");
        Path file = dir.resolve("case.ser");
        try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
            out.writeObject(body);
        }
        ProcessBuilder pb = mpirun(file, tmp, "tcp");
        Process p = pb.start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(90, TimeUnit.SECONDS), "mpirun job finished");
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertTrue(p.exitValue() != 0, output);
        assertTrue(output.contains("refusing rendezvous directory " + base) && output.contains("owned by nobody"), output);
        assertTrue(!output.contains("should not get here"), output);
        try (var s = Files.list(base)) {
            assertEquals(List.of(), s.toList(), "nothing of the job in the other user's directory");
        }
    }

    private static ProcessBuilder mpirun(Path file, Path tmp, String device) {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder("mpirun", "-np", "3", "--oversubscribe", java,
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ProcessRankCase.class.getName(), file.toString());
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.environment().put("OMPI_MCA_rmaps_base_oversubscribe", "1");
        pb.environment().put("TMPDIR", tmp.toString());
        pb.environment().remove("XDG_RUNTIME_DIR");
        pb.environment().put("TESSERA_START_TIMEOUT", "20");
        if (device != null) {
            pb.environment().put("TESSERA_DEVICE", device);
        }
        pb.redirectErrorStream(true);
        return pb;
    }
}
