package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command line of the NPB-MZ program: help, and one clear line for bad arguments. */
@Timeout(60)
class NpbMzMainTest {

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        AtomicReference<String> failure = new AtomicReference<>();
        SmpJob.run(1, new String[0], Duration.ofSeconds(50), session -> failure.set(NpbMzMain.execute(session, args,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8))));
        return new String[] {failure.get(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void helpListsTheOptionsAndSucceeds() {
        String[] r = run("--help");
        assertNull(r[0]);
        for (String option : new String[] {"BENCHMARK", "--class", "--json", "--iterations", "--zone-threads",
            "--no-thread-balance", "--verbose", "-np N", "-d, --device D", "--jvm-opt OPT", "bin/tessera npb-mz sp-mz"}) {
            assertTrue(r[1].contains(option), r[1]);
        }
    }

    @Test
    void anUnknownBenchmarkIsOneLineNamingTheValidOnes() {
        String[] r = run("ft-mz", "--class", "S");
        assertEquals("npb-mz: unknown benchmark 'ft-mz' (valid: bt-mz, sp-mz, lu-mz)", r[0]);
        assertEquals(r[0] + System.lineSeparator(), r[2]);
    }

    @Test
    void anUnknownClassIsOneLineNamingTheValidOnes() {
        String[] r = run("sp-mz", "--class", "Q");
        assertEquals("npb-mz: SP-MZ has no class 'Q' (valid: S, W, A, B, C)", r[0]);
    }

    @Test
    void anUnknownOptionPointsToHelp() {
        String[] r = run("sp-mz", "--clas", "S");
        assertTrue(r[0].startsWith("npb-mz: Unknown option") && r[0].contains("'--clas'"), r[0]);
        assertTrue(r[0].endsWith("(see --help)"), r[0]);
    }

    @Test
    void aMissingBenchmarkClassIsReportedAsNotInThisBuild() {
        assertEquals("unknown benchmark 'xx-mz' (valid: bt-mz, sp-mz, lu-mz)",
                assertThrows(IllegalArgumentException.class, () -> ZoneBenchmarks.find("xx-mz")).getMessage());
        assertTrue(ZoneBenchmarks.find("SP-MZ").isPresent());
    }
}
