package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.launch.process.ProcessLauncher;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NpbMain as {@code tessera run --device shm} starts it: one JVM per rank, real processes
 * talking through shared memory. Class S verifies at np = 1, 2 and 4; the exit status and
 * the JSON line come back through the launcher.
 */
@Timeout(240)
class ProcessDeviceTest {

    record Job(int status, String output) {
    }

    static Job launch(int ranks, int threads, String... args) throws Exception {
        return launchWith(List.of("-Xmx256m"), ranks, threads, args);
    }

    static Job launchWith(List<String> jvmOptions, int ranks, int threads, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), threads, "shm", false, List.of(), NpbMain.class.getName(),
                List.of(args), jvmOptions, Duration.ofSeconds(60), false);
        int status = new ProcessLauncher(sink, sink, Duration.ofSeconds(200), 0).run(spec);
        return new Job(status, bytes.toString(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0} class S on shm, {1} ranks x {2} threads")
    @CsvSource({"ep, 1, 2", "is, 2, 1", "cg, 2, 2", "cg, 4, 1", "is, 4, 1"})
    void classSVerifiesOnSharedMemoryProcesses(String kernel, int ranks, int threads) throws Exception {
        Job job = launch(ranks, threads, kernel, "--class", "S", "--json");
        assertEquals(0, job.status(), job.output());
        String json = job.output().lines().filter(l -> l.startsWith("{")).findFirst().orElse("");
        assertTrue(json.contains("\"verified\":true"), job.output());
        assertTrue(json.contains("\"np\":" + ranks), json);
        assertTrue(json.contains("\"threads\":" + threads), json);
        assertTrue(json.contains("\"device\":\"shm\""), json);
    }

    /**
     * MG's vector stencils need the incubator module in each rank JVM: without it (these rank JVMs
     * get only the options given here) MG runs its scalar loops and verifies; with it, the vector
     * forms, and the JDK's incubator warning does not disturb the report or the JSON line.
     */
    @ParameterizedTest(name = "mg class S on shm, 2 ranks, module given: {0}")
    @CsvSource({"false", "true"})
    void mgRunsScalarWithoutTheVectorModuleAndVectorWithIt(boolean module) throws Exception {
        List<String> options = module ? List.of("-Xmx256m", "--add-modules=jdk.incubator.vector") : List.of("-Xmx256m");
        Job job = launchWith(options, 2, 1, "mg", "--class", "S");
        assertEquals(0, job.status(), job.output());
        assertTrue(job.output().matches("(?s).*Verification\\s+=\\s+SUCCESSFUL.*"), job.output());
        assertTrue(job.output().contains(module ? "resid and psinv: Vector API" : "resid and psinv: scalar (no module"),
                job.output());
        Job json = launchWith(options, 2, 1, "mg", "--class", "S", "--json");
        assertEquals(0, json.status(), json.output());
        assertTrue(json.output().lines().anyMatch(l -> l.startsWith("{") && l.contains("\"verified\":true")),
                json.output());
    }

    @ParameterizedTest(name = "{0} refused at np {1}")
    @CsvSource({"cg, 3", "is, 3"})
    void aRankCountTheReferenceRefusesEndsTheJobWithStatus2(String kernel, int ranks) throws Exception {
        Job job = launch(ranks, 1, kernel, "--class", "S");
        assertEquals(NpbMain.REFUSED, job.status(), job.output());
        assertTrue(job.output().contains("power of two"), job.output());
    }
}
