package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Collective writes and distributed reads of {@link DistributedDataset} on smp ranks. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistributedDatasetTest {

    private static final Duration JOB = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private Path write(int p, String name, ParallelHdf5File.WriteOptions options, Hdf5Layout layout) {
        Path f = dir.resolve(name + "-np" + p + ".h5");
        SmpJob.run(p, new String[0], JOB, s -> {
            try (ParallelHdf5File file = ParallelHdf5File.create(s.world(), f, options)) {
                file.root().attribute("ranks", p);
                DistributedDataset d = file.createDataset("/fields/phi", Hdf5Type.DOUBLE, Blocks.SHAPE, layout);
                d.attribute("units", "V");
                long[][] b = Blocks.of(p, s.rank());
                d.write(b[0], b[1], Blocks.fill(b[0], b[1]));
            }
        });
        return f;
    }

    /** The dataset's stored bytes: the contiguous block, or the chunks in index order. */
    private static byte[] storedBytes(Path f) throws Exception {
        try (Hdf5Reader r = Hdf5Reader.open(f); FileChannel ch = FileChannel.open(f)) {
            DatasetInfo info = r.dataset("/fields/phi");
            ByteBuffer b = ByteBuffer.allocate((int) (info.elements() * 8));
            ch.read(b, info.address());
            return b.array();
        }
    }

    @Test
    void writesOnOneToFourRanksWithUnevenBlocksGiveByteIdenticalDatasets() throws Exception {
        double[] expected = Blocks.whole();
        var defaults = ParallelHdf5File.WriteOptions.defaults();
        var options = Map.of(
                "independent", defaults.withStrategy(WriteStrategy.INDEPENDENT),
                // 200-byte windows and two aggregators: 20 rounds each, window edges cutting runs,
                // window buffers reused many times
                "aggregated", new ParallelHdf5File.WriteOptions(WriteStrategy.AGGREGATED, 2, 200));
        Map<String, byte[]> reference = new HashMap<>();
        for (int p = 1; p <= 4; p++) {
            for (var o : options.entrySet()) {
                Path f = write(p, o.getKey(), o.getValue(), Hdf5Layout.contiguous());
                try (Hdf5Reader r = Hdf5Reader.open(f)) {
                    assertArrayEquals(expected, (double[]) r.read("/fields/phi"), o.getKey() + " on " + p + " ranks");
                }
                byte[] bytes = storedBytes(f);
                byte[] first = reference.putIfAbsent("contiguous", bytes);
                if (first != null) {
                    assertArrayEquals(first, bytes, o.getKey() + " on " + p + " ranks differs from the first file");
                }
            }
            Path c = write(p, "chunked", defaults, Hdf5Layout.chunked(4, 4, 4).deflate(4));
            try (Hdf5Reader r = Hdf5Reader.open(c)) {
                assertArrayEquals(expected, (double[]) r.read("/fields/phi"), "chunked on " + p + " ranks");
            }
        }
        String check = "e = np.fromfunction(lambda z, y, x: np.sin(z * 0.7) * 100 + y * 1.5 - x / 3.0, (13, 11, 7))\n"
                + "for name in ['independent', 'aggregated', 'chunked']:\n"
                + "    f = h5py.File('" + dir + "/' + name + '-np4.h5', 'r')\n"
                + "    d = f['fields/phi']\n"
                + "    print(name, d.shape, d.chunks, d.compression, f.attrs['ranks'], d.attrs['units'].decode(),"
                + " np.abs(d[...] - e).max() < 1e-12)\n";
        assertEquals("independent (13, 11, 7) None None 4 V True\n"
                + "aggregated (13, 11, 7) None None 4 V True\n"
                + "chunked (13, 11, 7) (4, 4, 4) gzip 4 V True", ExternalReaders.h5py(check));
    }

    @Test
    void aDatasetWrittenOnFourRanksIsReadOnThree() {
        Path f = write(4, "restart", ParallelHdf5File.WriteOptions.defaults(), Hdf5Layout.contiguous());
        Path c = write(4, "restart-chunked", ParallelHdf5File.WriteOptions.defaults(), Hdf5Layout.chunked(5, 3, 7).deflate(1));
        double[] expected = Blocks.whole();
        for (Path file : new Path[] {f, c}) {
            double[] assembled = new double[expected.length];
            long[][] splits = {{0, 3}, {3, 6}, {9, 2}}; // uneven in y, so every reader reads strided runs
            SmpJob.run(3, new String[0], JOB, s -> {
                long[] shape = DistributedDataset.shapeOf(file, "/fields/phi");
                long[] offset = {0, splits[s.rank()][0], 0};
                long[] count = {shape[0], splits[s.rank()][1], shape[2]};
                double[] mine = (double[]) DistributedDataset.read(s.world(), file, "/fields/phi", offset, count);
                assertArrayEquals(Blocks.fill(offset, count), mine, "rank " + s.rank() + " of 3 reading " + file);
                synchronized (assembled) {
                    int i = 0;
                    for (long z = 0; z < count[0]; z++) {
                        for (long y = 0; y < count[1]; y++) {
                            for (long x = 0; x < count[2]; x++) {
                                assembled[(int) ((z * 11 + offset[1] + y) * 7 + x)] = mine[i++];
                            }
                        }
                    }
                }
            });
            assertArrayEquals(expected, assembled, file.toString());
        }
    }

    private IllegalStateException failingWrite(int p, java.util.function.IntFunction<long[][]> blocks) {
        Path f = dir.resolve("bad.h5");
        return assertThrows(IllegalStateException.class, () -> SmpJob.run(p, new String[0], JOB, s -> {
            try (ParallelHdf5File file = ParallelHdf5File.create(s.world(), f)) {
                DistributedDataset d = file.createDataset("/phi", Hdf5Type.DOUBLE, Blocks.SHAPE);
                long[][] b = blocks.apply(s.rank());
                d.write(b[0], b[1], new double[(int) new Hyperslab(b[0], b[1]).volume()]);
            }
        }));
    }

    @Test
    void overlappingBlocksAreRefusedOnEveryRankNamingBothRanks() {
        var e = failingWrite(3, r -> r == 2 ? new long[][] {{1, 0, 0}, {12, 11, 7}} : Blocks.of(3, r));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("rank 2's block") && m.contains("overlaps rank") && m.contains("bad.h5")
                && m.contains("/phi"), m);
    }

    @Test
    void missingBlocksAreRefusedWithTheCoverage() {
        var e = failingWrite(3, r -> r == 1 ? new long[][] {{2, 0, 0}, {6, 11, 7}} : Blocks.of(3, r));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("cover 924 of the 1001 elements") && m.contains("missing blocks") && m.contains("rank 1"), m);
    }

    @Test
    void aBlockOfTheWrongRankIsRefusedNamingTheRank() {
        var e = failingWrite(3, r -> r == 1 ? new long[][] {{2, 0}, {7, 11}} : Blocks.of(3, r));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("rank 1:") && m.contains("3 dimensions") && m.contains("/phi"), m);
    }

    @Test
    void divergentCollectiveCallsAreDetected() {
        Path f = dir.resolve("diverge.h5");
        var e = assertThrows(IllegalStateException.class, () -> SmpJob.run(2, new String[0], JOB, s -> {
            try (ParallelHdf5File file = ParallelHdf5File.create(s.world(), f)) {
                file.createDataset("/phi", Hdf5Type.DOUBLE, 4, s.rank() == 0 ? 4 : 5);
            }
        }));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("rank 1 made a different call") && m.contains("/phi"), m);
    }

    @Test
    void readingAMissingDatasetNamesTheFileTheDatasetAndTheRank() {
        Path f = write(2, "present", ParallelHdf5File.WriteOptions.defaults(), Hdf5Layout.contiguous());
        var e = assertThrows(IllegalStateException.class, () -> SmpJob.run(2, new String[0], JOB, s ->
                DistributedDataset.read(s.world(), f, "/fields/absent", new long[] {0}, new long[] {1})));
        String m = String.valueOf(e.getCause().getMessage());
        assertTrue(m.contains("/fields/absent") && m.contains("present-np2.h5") && m.contains("(rank "), m);
    }

    @Test
    void autoLetsEveryRankWriteLongRunsAndAggregatesShortRunsAcrossNodesOrWithDirectIo() {
        long[] shape = {64, 64, 64};
        var slabs = java.util.List.of(new BlockClaim(0, new long[] {0, 0, 0}, new long[] {32, 64, 64}, null),
                new BlockClaim(1, new long[] {32, 0, 0}, new long[] {32, 64, 64}, null));
        var columns = java.util.List.of(new BlockClaim(0, new long[] {0, 0, 0}, new long[] {64, 64, 32}, null),
                new BlockClaim(1, new long[] {0, 0, 32}, new long[] {64, 64, 32}, null));
        for (boolean direct : new boolean[] {false, true}) {
            assertEquals(WriteStrategy.INDEPENDENT, DistributedDataset.choose(slabs, shape, 8, 1, direct));
            assertEquals(WriteStrategy.INDEPENDENT, DistributedDataset.choose(slabs, shape, 8, 2, direct)); // 1 MiB runs
            assertEquals(WriteStrategy.AGGREGATED, DistributedDataset.choose(columns, shape, 8, 2, direct)); // 256 B runs
        }
        // one node: short runs go through a file mapping, unless aggregators can write past the page cache
        assertEquals(WriteStrategy.INDEPENDENT, DistributedDataset.choose(columns, shape, 8, 1, false));
        assertEquals(WriteStrategy.AGGREGATED, DistributedDataset.choose(columns, shape, 8, 1, true));
    }
}
