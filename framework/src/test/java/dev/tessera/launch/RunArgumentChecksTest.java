package dev.tessera.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Bad arguments to {@code tessera run} get one clear line and status 2 before anything starts (issue #28, item 11). */
@Timeout(60)
class RunArgumentChecksTest {

    private record Outcome(int status, String err) {
    }

    private static synchronized Outcome run(String... args) {
        PrintStream previous = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = new CommandLine(new TesseraCommand());
            cli.setStopAtPositional(true);
            cli.setErr(new java.io.PrintWriter(System.err, true));
            int status = cli.execute(args);
            return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(previous);
        }
    }

    @Test
    void aNegativeStartTimeoutIsRefused() {
        Outcome o = run("run", "-np", "2", "--device", "tcp", "--start-timeout", "-5", "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("--start-timeout must be at least 1 second, got -5"), o.err());
    }

    @Test
    void aNegativeNodeCountIsRefused() {
        Outcome o = run("run", "-np", "2", "--device", "auto", "--emulate-nodes", "-1", "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("--emulate-nodes must not be negative, got -1"), o.err());
    }

    @Test
    void aMissingHostfileIsAClearError(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-hostfile");
        Outcome o = run("run", "-np", "2", "--device", "tcp", "--hostfile", missing.toString(), "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("--hostfile " + missing + ": no such file"), o.err());
        assertFalse(o.err().contains("NoSuchFileException"), o.err());
    }

    @Test
    void anUnknownAotModeIsRefused() {
        Outcome o = run("run", "-np", "2", "--device", "shm", "--aot", "sometimes", "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("--aot must be auto, on or off, got 'sometimes'"), o.err());
    }
}
