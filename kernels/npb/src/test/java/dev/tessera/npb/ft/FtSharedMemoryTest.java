package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.launch.process.ProcessLauncher;
import dev.tessera.npb.NpbMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** FT class S through NpbMain on the shm device: one JVM per rank, as {@code tessera run --device shm} starts it. */
@Timeout(240)
class FtSharedMemoryTest {

    @ParameterizedTest(name = "ft class S on shm, {0} ranks x {1} threads")
    @CsvSource({"2, 1", "2, 2"})
    void classSVerifiesOnSharedMemoryProcesses(int ranks, int threads) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), threads, "shm", false, List.of(), NpbMain.class.getName(),
                List.of("ft", "--class", "S", "--json"), List.of("-Xmx256m"), Duration.ofSeconds(60), false);
        int status = new ProcessLauncher(sink, sink, Duration.ofSeconds(200), 0).run(spec);
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, output);
        String json = output.lines().filter(l -> l.startsWith("{")).findFirst().orElse("");
        assertTrue(json.contains("\"name\":\"FT\""), output);
        assertTrue(json.contains("\"verified\":true"), output);
        assertTrue(json.contains("\"np\":" + ranks), json);
        assertTrue(json.contains("\"threads\":" + threads), json);
    }
}
