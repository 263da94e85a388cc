package dev.tessera.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs commands as a second local user ({@code nobody}, through {@code setpriv}), for tests
 * of what another user of the machine can do to a job. Needs root; {@link #unavailable()}
 * says why not where it is not possible, for the test's skip message.
 */
public final class OtherUser {

    private static final List<String> PREFIX = List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups");

    private OtherUser() {
    }

    /** Null when commands can run as nobody, else the reason they cannot. */
    public static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "tests as a second user need root (to switch to nobody), running as " + System.getProperty("user.name");
        }
        try {
            Result r = run(10, "true");
            return r.status() == 0 ? null : "setpriv --reuid=nobody failed: " + r.output();
        } catch (IOException e) {
            return "setpriv not available: " + e.getMessage();
        }
    }

    /** What a command run as nobody printed (stdout and stderr) and its exit status. */
    public record Result(int status, String output) {
    }

    /** Runs {@code command} as nobody; waits at most {@code seconds}. */
    public static Result run(int seconds, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(PREFIX);
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out");
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** A directory like /tmp (mode 1777) under {@code parent} (made 0755), where nobody can create things. */
    public static Path sharedTmp(Path parent) throws IOException {
        Path tmp = parent.resolve("shared-tmp");
        Files.createDirectories(tmp);
        Files.setPosixFilePermissions(parent, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            if (new ProcessBuilder("chmod", "1777", tmp.toString()).start().waitFor() != 0) {
                throw new IOException("chmod 1777 " + tmp + " failed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return tmp;
    }
}
