package dev.tessera.io.pfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The same collective write from real rank processes on the shm and tcp devices. */
class ParallelFileProcessTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(120)
    void threeRankProcessesWriteTheSameBytesAsInJvmRanks(String device) throws Exception {
        Path file = dir.resolve("procs.raw");
        try (ProcessJob job = ProcessJob.start(3, device, ParallelFileProcessMain.class, List.of(file.toString()), l -> { })) {
            assertEquals(0, job.waitFor(100), job.output());
        }
        byte[] all = Files.readAllBytes(file);
        int tile = Blocks.expectedFile(new int[] {7, 5, 6}, 5).length;
        assertEquals(3 * tile, all.length, "three tiles: writeAll, then two iwriteAll");
        for (int t = 0; t < 3; t++) {
            assertArrayEquals(Blocks.expectedFile(new int[] {7, 5, 6}, 5 + t),
                    java.util.Arrays.copyOfRange(all, t * tile, (t + 1) * tile), "tile " + t);
        }
    }
}
