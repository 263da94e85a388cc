package dev.tessera.io.pfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for a test that needs a full disk. Needs root (or CAP_SYS_ADMIN);
 * elsewhere the test is skipped, with the reason.
 */
public final class SmallDisk implements AutoCloseable {

    private final Path mountPoint;

    private SmallDisk(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code kib} KiB in a fresh directory, or aborts the test (skipped) saying why. */
    public static SmallDisk mount(int kib) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("tessera-small-disk-");
        String reason = null;
        try {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + kib + "k", "tmpfs", dir.toString())
                    .redirectErrorStream(true).start();
            boolean done = p.waitFor(20, TimeUnit.SECONDS);
            if (!done || p.exitValue() != 0) {
                reason = "cannot mount a tmpfs (needs root): " + new String(p.getInputStream().readAllBytes()).trim();
            }
        } catch (IOException e) {
            reason = "cannot run mount: " + e.getMessage();
        }
        if (reason != null) {
            Files.deleteIfExists(dir);
            Assumptions.abort("full-disk test skipped: " + reason);
        }
        return new SmallDisk(dir);
    }

    public Path path() {
        return mountPoint;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        new ProcessBuilder("umount", "-l", mountPoint.toString()).inheritIO().start().waitFor(20, TimeUnit.SECONDS);
        Files.deleteIfExists(mountPoint);
    }
}
