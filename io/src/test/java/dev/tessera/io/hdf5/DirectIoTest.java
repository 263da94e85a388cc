package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large writes and reads that bypass the page cache (O_DIRECT): parts whose file range
 * starts and ends inside a page (partial pages through the page cache, whole pages direct)
 * give the same file, byte for byte, as writes through the page cache, and read back right,
 * serially and from two ranks aggregating pencils. Skipped where the temporary directory's
 * file system refuses O_DIRECT (tmpfs).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DirectIoTest {

    private static final long N = 1_500_000; // 12 MB of doubles: several 4 MiB staging buffers
    private static final long[][] PARTS = {{0, 123_457}, {123_457, 1_000_001}, {1_000_001, N}}; // unaligned bytes

    @TempDir
    Path dir;

    @AfterEach
    void restoreProperty() {
        System.clearProperty(Hdf5Writer.DIRECT_PROPERTY);
    }

    private static double value(long i) {
        return i * 0.5 - 7;
    }

    private static double[] values(long from, long to) {
        double[] a = new double[Math.toIntExact(to - from)];
        for (int i = 0; i < a.length; i++) {
            a[i] = value(from + i);
        }
        return a;
    }

    /** Writes the 1-d dataset in PARTS (after a small dataset, so the big one is not the first thing in the file). */
    private Path writeSerial(String name, boolean direct) {
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, Boolean.toString(direct));
        Path f = dir.resolve(name);
        try (Hdf5Writer w = Hdf5Writer.create(f, Hdf5Backend.TESSERA)) {
            w.root().writeDataset("small", new long[] {3}, new int[] {1, 2, 3});
            Hdf5Dataset d = w.root().createDataset("phi", Hdf5Type.DOUBLE, new long[] {N}, Hdf5Layout.contiguous());
            for (long[] part : PARTS) {
                d.write(new long[] {part[0]}, new long[] {part[1] - part[0]}, values(part[0], part[1]));
            }
            assertEquals(direct, w.writesDirect(), "O_DIRECT in use");
        }
        return f;
    }

    private void assumeDirectIo() {
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "true");
        try (Hdf5Writer w = Hdf5Writer.create(dir.resolve("probe.h5"), Hdf5Backend.TESSERA)) {
            assumeTrue(w.writesDirect(), "the file system of " + dir + " does not take O_DIRECT");
        }
    }

    @Test
    void directWritesGiveTheSameFileAsPageCacheWritesAndReadBack() throws Exception {
        assumeDirectIo();
        Path direct = writeSerial("direct.h5", true);
        Path buffered = writeSerial("buffered.h5", false);
        assertArrayEquals(Files.readAllBytes(buffered), Files.readAllBytes(direct));

        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "true");
        try (Hdf5Reader r = Hdf5Reader.open(direct, Hdf5Backend.TESSERA)) {
            assertArrayEquals(values(0, N), (double[]) r.read("/phi"));
            // a box starting and ending inside pages, read through whole-page direct reads
            assertArrayEquals(values(333_333, 1_333_337),
                    (double[]) r.read("/phi", new long[] {333_333}, new long[] {1_000_004}));
            assertArrayEquals(new int[] {1, 2, 3}, (int[]) r.read("/small"));
        }
        String out = ExternalReaders.h5py("import h5py, numpy as np\n"
                + "d = h5py.File('" + direct + "', 'r')['phi'][...]\n"
                + "print(d.shape[0], bool((d == np.arange(" + N + ") * 0.5 - 7).all()))");
        assertEquals(N + " True", out.strip());
    }

    @Test
    void twoRanksAggregatingPencilsWriteDirectAndGiveTheSameDatasetAsMappedWrites() throws Exception {
        assumeDirectIo();
        long[] shape = {16, 256, 256}; // 8 MiB; pencils split x: 1 KiB runs
        Path direct = dir.resolve("pencils-direct.h5");
        Path mapped = dir.resolve("pencils-mapped.h5");
        for (Path f : new Path[] {direct, mapped}) {
            System.setProperty(Hdf5Writer.DIRECT_PROPERTY, Boolean.toString(f == direct));
            SmpJob.run(2, new String[0], Duration.ofSeconds(60), s -> {
                long[] offset = {0, 0, 128L * s.rank()};
                long[] count = {16, 256, 128};
                double[] block = new double[16 * 256 * 128];
                int i = 0;
                for (long z = 0; z < 16; z++) {
                    for (long y = 0; y < 256; y++) {
                        for (long x = offset[2]; x < offset[2] + 128; x++) {
                            block[i++] = value((z * 256 + y) * 256 + x);
                        }
                    }
                }
                try (ParallelHdf5File file = ParallelHdf5File.create(s.world(), f)) { // AUTO
                    DistributedDataset d = file.createDataset("/phi", Hdf5Type.DOUBLE, shape);
                    assertEquals(f == direct, file.directWrites());
                    d.write(offset, count, block);
                }
            });
        }
        assertArrayEquals(Files.readAllBytes(mapped), Files.readAllBytes(direct));
        try (Hdf5Reader r = Hdf5Reader.open(direct, Hdf5Backend.TESSERA)) {
            assertArrayEquals(values(0, 16 * 256 * 256), (double[]) r.read("/phi"));
        }
    }

    @Test
    void aBadPropertyValueIsNamed() {
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "maybe");
        var e = assertThrows(IllegalArgumentException.class, () -> Hdf5Writer.create(dir.resolve("x.h5"), Hdf5Backend.TESSERA));
        assertTrue(e.getMessage().contains("tessera.io.hdf5.direct=maybe") && e.getMessage().contains("true or false"),
                e.getMessage());
    }
}
