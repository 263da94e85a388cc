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
import java.time.Duration;
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
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder("mpirun", "-np", "3", "--oversubscribe", java,
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ProcessRankCase.class.getName(), file.toString());
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.environment().put("OMPI_MCA_rmaps_base_oversubscribe", "1");
        dev.tessera.conformance.ChildProcesses.Outcome o = dev.tessera.conformance.ChildProcesses.run(pb,
                Duration.ofSeconds(90));
        String output = o.output();
        assertTrue(!o.timedOut(), "mpirun job finished: " + output);
        assertEquals(0, o.status(), output);
        assertTrue(output.contains("mpirun job ok on auto"), output);
        List<String> leftovers;
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            leftovers = s.map(Path::toString).filter(n -> n.contains("tessera-ompi-")).toList();
        }
        assertTrue(leftovers.isEmpty(), "rendezvous directories left behind: " + leftovers);
    }
}
