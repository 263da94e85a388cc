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
    void jvmOptionsOfAnSmpJobAreNamedAsNotUsed() {
        // the ranks of smp are threads of this JVM: a --jvm-opt (a heap size, say) would otherwise be lost silently
        Outcome o = run("run", "-np", "1", "--device", "smp", "--jvm-opt", "-Xmx1g", "--jvm-opt=-Dtessera.x=y", "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("tessera run: the smp device runs all ranks in this JVM, so --jvm-opt -Xmx1g"
                + " -Dtessera.x=y is not used"), o.err());
        assertTrue(o.err().contains("main class NoSuchMain not found"), o.err());
        Outcome plain = run("run", "-np", "1", "--device", "smp", "NoSuchMain");
        assertFalse(plain.err().contains("--jvm-opt"), plain.err());
    }

    @Test
    void anUnknownAotModeIsRefused() {
        Outcome o = run("run", "-np", "2", "--device", "shm", "--aot", "sometimes", "NoSuchMain");
        assertEquals(2, o.status(), o.err());
        assertTrue(o.err().contains("--aot must be auto, on or off, got 'sometimes'"), o.err());
    }
}
