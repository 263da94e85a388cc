package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Writes to a full file system (a 256 KiB tmpfs, mounted when the tests run as root). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FullDiskTest {

    @TempDir
    Path dir;
    Path small;
    boolean mounted;

    @BeforeEach
    void mountSmallTmpfs() throws Exception {
        small = Files.createDirectory(dir.resolve("small"));
        var r = ExternalReaders.run(List.of("mount", "-t", "tmpfs", "-o", "size=256k", "tessera-io-test", small.toString()), 30);
        mounted = r.exit() == 0;
        assumeTrue(mounted, "cannot mount a small tmpfs (needs root): " + r.err().strip());
    }

    @AfterEach
    void unmount() {
        if (mounted) {
            ExternalReaders.run(List.of("umount", small.toString()), 30);
        }
    }

    @Test
    void aCollectiveWriteToAFullDiskFailsOnEveryRankNamingTheFileAndKeepsEarlierFiles() {
        Path earlier = small.resolve("earlier.h5");
        try (Hdf5Writer w = Hdf5Writer.create(earlier)) {
            w.root().writeDataset("x", new long[] {3}, new double[] {1, 2, 3});
        }
        Path full = small.resolve("full.h5");
        var e = assertThrows(IllegalStateException.class, () -> SmpJob.run(2, new String[0], Duration.ofSeconds(60), s -> {
            try (ParallelHdf5File f = ParallelHdf5File.create(s.world(), full)) {
                int n = 64 * 1024; // 512 KiB per rank, 1 MiB in all
                f.createDataset("/big", Hdf5Type.DOUBLE, 2L * n).write(new long[] {(long) s.rank() * n}, new long[] {n},
                        new double[n]);
            }
        }));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("full.h5") && m.contains("rank") && m.contains("/big")
                && m.toLowerCase().contains("no space left"), m);
        try (Hdf5Reader r = Hdf5Reader.open(earlier)) {
            assertArrayEquals(new double[] {1, 2, 3}, (double[]) r.read("/x"));
        }
    }

    @Test
    void aPencilWriteThroughFileMappingsToAFullDiskFailsOnEveryRankNamingTheFile() {
        Path full = small.resolve("pencils.h5");
        long[] shape = {128, 128, 8};   // 1 MiB; each rank holds 4 of the 8 columns: 32-byte runs, written mapped
        var e = assertThrows(IllegalStateException.class, () -> SmpJob.run(2, new String[0], Duration.ofSeconds(60), s -> {
            try (ParallelHdf5File f = ParallelHdf5File.create(s.world(), full, ParallelHdf5File.WriteOptions.defaults()
                    .withStrategy(WriteStrategy.INDEPENDENT))) {
                f.createDataset("/pencils", Hdf5Type.DOUBLE, shape).write(new long[] {0, 0, 4L * s.rank()},
                        new long[] {128, 128, 4}, new double[128 * 128 * 4]);
            }
        }));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("pencils.h5") && m.contains("rank") && m.contains("/pencils")
                && m.toLowerCase().contains("no space left"), m);
    }

    @Test
    void aSerialWriteToAFullDiskNamesTheFileAndTheDataset() {
        Path full = small.resolve("serial.h5");
        try (Hdf5Writer w = Hdf5Writer.create(full)) {
            var e = assertThrows(java.io.UncheckedIOException.class,
                    () -> w.root().writeDataset("field", new long[] {100_000}, new double[100_000]));
            assertTrue(e.getMessage().contains("serial.h5") && e.getMessage().contains("/field")
                    && e.getMessage().toLowerCase().contains("no space left"), e.getMessage());
        } catch (java.io.UncheckedIOException closing) {
            // close may also find no space for the metadata: what matters is the write's error above
        }
    }
}
