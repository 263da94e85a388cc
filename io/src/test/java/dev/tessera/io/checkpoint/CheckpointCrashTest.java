package dev.tessera.io.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.io.pfile.ProcessJob;
import dev.tessera.io.pfile.Subarray;
import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rank process killed with SIGKILL in the middle of writing checkpoint 2 leaves
 * checkpoint 1 loadable, and the job restarts from it (on another number of ranks) and
 * goes on checkpointing.
 */
class CheckpointCrashTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(150)
    void aRankKilledWhileWritingACheckpointLeavesThePreviousOneLoadableAndTheJobRestartable() throws Exception {
        CompletableFuture<Long> midWrite = new CompletableFuture<>();
        int status;
        String output;
        try (ProcessJob job = ProcessJob.start(2, "shm", CheckpointCrashMain.class, List.of(dir.toString()), line -> {
            int at = line.indexOf("MIDWRITE pid ");
            if (at >= 0) {
                midWrite.complete(Long.parseLong(line.substring(at + 13).trim()));
            }
        })) {
            long pid = midWrite.get(90, TimeUnit.SECONDS);
            Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -9 " + pid);
            status = job.waitFor(60);
            output = job.output();
        }
        assertNotEquals(0, status, output);
        assertTrue(output.contains("SAVED 1 rank 0") && output.contains("SAVED 1 rank 1"), output);
        assertTrue(!output.contains("SAVED 2"), output);
        assertTrue(Files.isDirectory(dir.resolve(".ckpt-000000000002.partial")), "the torn checkpoint is left hidden");
        assertTrue(!Files.exists(dir.resolve("ckpt-000000000002")), "and never committed");

        SmpJob.run(3, new String[0], Duration.ofSeconds(60), s -> {
            Checkpointer cp = new Checkpointer(s.world(), dir);
            Restart r = cp.restoreLatest().orElseThrow();
            assertEquals(1, r.step());
            assertTrue(r.skipped().stream().anyMatch(w -> w.contains(".ckpt-000000000002.partial") && w.contains("torn")),
                    r.skipped().toString());
            Subarray b = CheckpointCrashMain.slab(s.rank(), s.size());
            assertArrayEquals(CheckpointCrashMain.field(b, 1), r.readDistributed("rho", b));
            assertArrayEquals(new long[] {1, 1, 42}, r.rankArray(1, "local", long[].class));
            // The job goes on from step 1 and saves step 2 over the torn attempt.
            cp.save(2, CheckpointCrashMain.data(s.rank(), s.size(), 2));
            Restart again = cp.restoreLatest().orElseThrow();
            assertEquals(2, again.step());
            assertArrayEquals(CheckpointCrashMain.field(b, 2), again.readDistributed("rho", b));
        });
        assertTrue(!Files.exists(dir.resolve(".ckpt-000000000002.partial")));
    }
}
