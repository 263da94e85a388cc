package dev.tessera.bench.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** One run of a program (Tessera's or a reference) for a sweep or a comparison, timed and read. */
public final class ProgramRun {

    private ProgramRun() {
    }

    /** Runs one command; its outcome, or null (with the output's tail on stderr) if it failed without a time. */
    public static RunOutcome run(List<String> cmd, Map<String, String> env, Pattern userTime, long timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Path log = Files.createTempFile("tessera-sweep", ".log");
        pb.redirectOutput(log.toFile());
        long start = System.nanoTime();
        Process p = pb.start();
        boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        double wall = (System.nanoTime() - start) * 1e-9;
        if (!finished) {
            p.destroyForcibly().waitFor();
        }
        String output = Files.readString(log);
        Files.deleteIfExists(log);
        if (!finished) {
            System.err.println("tessera: " + String.join(" ", cmd) + " did not finish within " + timeoutSeconds + " s");
            return null;
        }
        RunOutcome o = RunOutcome.parse(output, userTime, wall);
        if (p.exitValue() != 0 && o.timeFrom().equals("wall clock")) {
            System.err.println("tessera: " + String.join(" ", cmd) + " failed (exit status " + p.exitValue() + "):\n"
                    + NpbReference.tail(output, 1500));
            return null;
        }
        if (p.exitValue() != 0) {
            System.err.println("tessera: " + String.join(" ", cmd) + " exited with status " + p.exitValue()
                    + (Boolean.FALSE.equals(o.verified()) ? " (verification failed)" : ""));
        }
        return o;
    }
}
