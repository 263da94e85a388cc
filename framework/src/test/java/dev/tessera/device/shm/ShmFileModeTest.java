package dev.tessera.device.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.device.JobFailure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shm device's shared file holds every message of the job: it is created mode 0600
 * (issue #28, item 8), so that no other local user can open and map it during start-up,
 * the window in which it has a name (it was 0644 under the usual umask 022).
 */
@Timeout(60)
class ShmFileModeTest {

    @Test
    void theSharedFileIsOwnerOnlyWhileRanksJoin(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tessera-mode-test");
        JobFailure failure = new JobFailure();
        CompletableFuture<ShmDevice> first = CompletableFuture.supplyAsync(
                () -> ShmFile.join(file, 0, 2, Duration.ofSeconds(50), failure));
        while (!Files.exists(file) && !first.isDone()) {
            LockSupport.parkNanos(1_000_000L);
        }
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(file)); // rank 1 has not joined yet
        ShmDevice second = ShmFile.join(file, 1, 2, Duration.ofSeconds(50), failure);
        ShmDevice zero = first.get();
        try {
            assertEquals("rw-------", mode, "mode of the shared file " + file + " during start-up");
        } finally {
            second.close();
            zero.close();
        }
    }
}
