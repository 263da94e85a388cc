package dev.tessera.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Program options come from the command line, else TESSERA_* variables, else their defaults; bad input names the option. */
class ProgramOptionsTest {

    private static ProgramOptions heat() {
        return ProgramOptions.of("heat3d", "test solver")
                .add("n", 32, "grid points")
                .add("t-end", 0.02, "simulated time")
                .add("verbose", false, "print every step")
                .add("out", "result.h5", "output file")
                .add("seed", 7L, "random seed");
    }

    @Test
    void defaultsHoldWithoutArgumentsOrVariables() {
        ProgramOptions o = heat().environment(Map.of());
        assertTrue(o.parse(List.of(), null));
        assertEquals(32, o.getInt("n"));
        assertEquals(0.02, o.getDouble("t-end"));
        assertFalse(o.getBoolean("verbose"));
        assertEquals("result.h5", o.getString("out"));
        assertEquals(7L, o.getLong("seed"));
    }

    @Test
    void petscAndGnuSpellingsBothWork() {
        ProgramOptions o = heat().environment(Map.of());
        assertTrue(o.parse(List.of("-n", "64", "--t-end=0.5", "-verbose", "--out", "x.h5"), null));
        assertEquals(64, o.getInt("n"));
        assertEquals(0.5, o.getDouble("t-end"));
        assertTrue(o.getBoolean("verbose"));
        assertEquals("x.h5", o.getString("out"));
    }

    @Test
    void theEnvironmentSetsWhatTheCommandLineDoesNot() {
        ProgramOptions o = heat().environment(Map.of("TESSERA_N", "128", "TESSERA_T_END", "1.5"));
        assertTrue(o.parse(List.of("-t-end", "2.5"), null));
        assertEquals(128, o.getInt("n"));
        assertEquals(2.5, o.getDouble("t-end"), "the command line wins over the environment");
    }

    @Test
    void helpListsEveryOptionWithItsDefaultAndVariable() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ProgramOptions o = heat().environment(Map.of());
        assertFalse(o.parse(List.of("--help"), new PrintStream(out, true, StandardCharsets.UTF_8)));
        assertTrue(o.helpRequested());
        String help = out.toString(StandardCharsets.UTF_8);
        for (String expected : List.of("-n", "default: 32", "TESSERA_N", "--t-end", "TESSERA_T_END", "default: result.h5", "-verbose")) {
            assertTrue(help.contains(expected), expected + " in:\n" + help);
        }
    }

    @Test
    void badInputNamesTheProgramAndTheOption() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> heat().environment(Map.of()).parse(List.of("-nx", "3"), null));
        assertTrue(unknown.getMessage().contains("heat3d") && unknown.getMessage().contains("-nx"), unknown.getMessage());
        IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> heat().environment(Map.of()).parse(List.of("-n", "many"), null));
        assertTrue(notANumber.getMessage().contains("many") && notANumber.getMessage().contains("-n"), notANumber.getMessage());
        IllegalArgumentException badVariable = assertThrows(IllegalArgumentException.class,
                () -> heat().environment(Map.of("TESSERA_N", "lots")).parse(List.of(), null));
        assertTrue(badVariable.getMessage().contains("lots"), badVariable.getMessage());
        assertThrows(IllegalArgumentException.class, () -> heat().add("n", 1, "twice"));
    }
}
