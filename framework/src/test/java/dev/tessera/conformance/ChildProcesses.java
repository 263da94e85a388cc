package dev.tessera.conformance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Child processes of tests (mpirun, a rank, a JVM): output read on a thread of its own, a
 * time limit, and the whole process tree killed on every way out (the limit, a failed
 * assertion, an exception, JUnit's @Timeout interrupting the test), so that no test
 * leaves processes running.
 */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /** Exit status (124 when the limit ran out) and everything the process printed (stderr merged). */
    public record Outcome(int status, String output) {
        public boolean timedOut() {
            return status == 124;
        }
    }

    /** Starts {@code pb} with stderr merged into stdout, waits up to {@code limit}, and returns its outcome. */
    public static Outcome run(ProcessBuilder pb, Duration limit) throws IOException, InterruptedException {
        Process p = pb.redirectErrorStream(true).start();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            Thread reader = Thread.ofPlatform().daemon().name("child-output-" + p.pid()).start(() -> copy(p.getInputStream(), bytes));
            boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
            if (!done) {
                killTree(p);
                reader.join(2000);
                return new Outcome(124, "timed out after " + limit.toSeconds() + " s\n" + text(bytes));
            }
            reader.join(5000);
            return new Outcome(p.exitValue(), text(bytes));
        } finally {
            killTree(p);
        }
    }

    /** Kills {@code p} and every process below it, children first; waits briefly for it to go. */
    public static void killTree(Process p) {
        if (p == null) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        if (p.isAlive()) {
            p.destroyForcibly();
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String text(ByteArrayOutputStream bytes) {
        synchronized (bytes) {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] chunk = new byte[8192];
        try (in) {
            for (int n; (n = in.read(chunk)) >= 0; ) {
                synchronized (out) {
                    out.write(chunk, 0, n);
                }
            }
        } catch (IOException e) {
            // the process ended or was killed: what was read stays
        }
    }
}
