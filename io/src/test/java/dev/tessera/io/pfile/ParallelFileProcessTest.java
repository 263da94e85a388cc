package dev.tessera.io.pfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The same collective write from real rank processes on the shm device. */
class ParallelFileProcessTest {

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void threeRankProcessesWriteTheSameBytesAsInJvmRanks() throws Exception {
        Path file = dir.resolve("procs.raw");
        try (ProcessJob job = ProcessJob.start(3, "shm", ParallelFileProcessMain.class, List.of(file.toString()), l -> { })) {
            assertEquals(0, job.waitFor(100), job.output());
        }
        assertArrayEquals(Blocks.expectedFile(new int[] {7, 5, 6}, 5), Files.readAllBytes(file));
    }
}
