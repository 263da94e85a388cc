package dev.tessera.io.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.io.pfile.ProcessJob;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A cache server's process killed for real (kill -9) in the middle of a run, in a job that goes
 * on when a rank dies ({@code tessera run --on-rank-failure continue}): 3 client ranks read the
 * same files through the cache and directly, and all finish with the file system's bytes.
 */
class DataCacheKillTest {

    private static final Pattern SERVING = Pattern.compile("server 1 pid (\\d+) is serving");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(180)
    void clientsFinishWithTheRightBytesWhenAServerProcessIsKilled(String device) throws Exception {
        Path backing = dir.resolve("inputs");
        DataCacheTest.makeFiles(backing, 16);
        CompletableFuture<Long> killed = new CompletableFuture<>();
        try (ProcessJob job = ProcessJob.start(5, device, List.of("--on-rank-failure", "continue"),
                DataCacheKillMain.class, List.of(backing.toString()), line -> {
                    Matcher m = SERVING.matcher(line);
                    if (m.find() && !killed.isDone()) {
                        long pid = Long.parseLong(m.group(1));
                        try {
                            Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
                            kill.waitFor(10, TimeUnit.SECONDS);
                            killed.complete(pid);
                        } catch (Exception e) {
                            killed.completeExceptionally(e);
                        }
                    }
                })) {
            int status = job.waitFor(150);
            String out = job.output();
            assertTrue(killed.isDone() && !killed.isCompletedExceptionally(), "server 1 was killed:\n" + out);
            for (int client = 2; client <= 4; client++) {
                assertTrue(out.contains("client " + client + " read 16 files") && out.contains("correct; gone [1]"),
                        "client " + client + " finished with the right bytes:\n" + out);
            }
            assertTrue(out.contains("server 0 served"), "server 0 ended normally:\n" + out);
            assertTrue(!out.contains("server 1 served"), "server 1 did not end by itself:\n" + out);
            // the clients learnt of the death from the framework (the cache's own timeout is 10 minutes)
            assertTrue(out.contains("cache server rank 1 is gone (its process died") && out.contains("rank 1 is gone"),
                    out);
            assertTrue(out.contains("tessera: rank 1 exited with status 137 (killed by signal 9); the job goes on"), out);
            assertEquals(137, status, "the launcher reports the dead rank's status at the end:\n" + out);
        }
    }
}
