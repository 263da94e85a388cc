package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A collective write by real rank processes: bin/tessera run -np 3 --device shm. */
class ProcessJobTest {

    @TempDir
    Path dir;

    static Path tessera() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("bin/tessera")) && Files.isDirectory(p.resolve("framework"))) {
                return p.resolve("bin/tessera");
            }
        }
        return null;
    }

    @ParameterizedTest
    @ValueSource(strings = {"AGGREGATED", "CHUNKED"})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void threeRankProcessesOnShmWriteADatasetThatH5pyReads(String mode) throws Exception {
        Path tessera = tessera();
        assumeTrue(tessera != null, "bin/tessera not found above the working directory");
        assumeTrue(Files.exists(tessera.getParent().getParent().resolve("framework/target/tessera-framework.jar")),
                "framework/target/tessera-framework.jar is not built (mvn package builds it)");
        Path file = dir.resolve("procs-" + mode + ".h5");
        List<String> cmd = new ArrayList<>(List.of(tessera.toString(), "run", "-np", "3", "--device", "shm",
                "--jvm-opt=-Xmx128m", "--jvm-opt=-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                DistributedWriteProgram.class.getName(), file.toString(), mode));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the job did not finish: " + out);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), out);
        for (int r = 0; r < 3; r++) {
            assertTrue(out.contains("rank " + r + " of 3 read back OK"), out);
        }
        assertEquals("(13, 11, 7) True", ExternalReaders.h5py("d = h5py.File('" + file + "', 'r')['fields/phi']\n"
                + "e = np.fromfunction(lambda z, y, x: np.sin(z * 0.7) * 100 + y * 1.5 - x / 3.0, (13, 11, 7))\n"
                + "print(d.shape, np.abs(d[...] - e).max() < 1e-12)"));
    }
}
