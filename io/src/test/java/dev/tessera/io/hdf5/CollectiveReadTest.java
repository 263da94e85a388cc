package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.launch.SmpJob;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collective read {@link DistributedDataset#readAll}: uneven pencils on 1 to 4 ranks
 * read back exactly the values written, through the two-phase read (aggregators reading
 * whole windows, past the page cache where the file system takes it, and through the page
 * cache where it is switched off) and through every rank reading its own box; AUTO's choice;
 * errors on one rank reach all.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CollectiveReadTest {

    private static final Duration JOB = Duration.ofSeconds(90);
    /** 8 MiB of doubles; pencils split x, so every run is at most 2 KiB. */
    private static final long[] SHAPE = {16, 256, 256};

    @TempDir
    Path dir;

    @AfterEach
    void restoreProperty() {
        System.clearProperty(Hdf5Writer.DIRECT_PROPERTY);
    }

    private static double value(long z, long y, long x) {
        return (z * SHAPE[1] + y) * SHAPE[2] + x + 0.25;
    }

    private static double[] fill(long[] offset, long[] count) {
        return Blocks.fill(offset, count, CollectiveReadTest::value);
    }

    /** Uneven pencils: x split at uneven points over p ranks, and on 4 ranks also y (2 x 2). */
    private static long[][] pencil(int p, int r) {
        long[] xs = switch (p) {
            case 1 -> new long[] {0, 256};
            case 2 -> new long[] {0, 101, 256};
            case 3 -> new long[] {0, 37, 190, 256};
            default -> new long[] {0, 77, 256};
        };
        if (p == 4) {
            long y0 = r / 2 == 0 ? 0 : 99;
            long ny = r / 2 == 0 ? 99 : 256 - 99;
            return new long[][] {{0, y0, xs[r % 2]}, {SHAPE[0], ny, xs[r % 2 + 1] - xs[r % 2]}};
        }
        return new long[][] {{0, 0, xs[r]}, {SHAPE[0], SHAPE[1], xs[r + 1] - xs[r]}};
    }

    /** The whole array written by one rank, through the page cache (the reads are what is tested). */
    private Path writeFile(String name) {
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "false");
        Path f = dir.resolve(name);
        try (Hdf5Writer w = Hdf5Writer.create(f, Hdf5Backend.TESSERA)) {
            w.root().writeDataset("small", new long[] {3}, new int[] {1, 2, 3}); // the big one starts off a page boundary
            w.root().writeDataset("phi", SHAPE, fill(new long[3], SHAPE));
        }
        System.clearProperty(Hdf5Writer.DIRECT_PROPERTY);
        return f;
    }

    private void readBack(Path f, int p, ReadStrategy strategy, int windowBytes, int aggregatorsPerNode, String what) {
        SmpJob.run(p, new String[0], JOB, s -> {
            long[][] b = pencil(p, s.rank());
            double[] got = (double[]) DistributedDataset.readAll(s.world(), f, "/phi", b[0], b[1], strategy,
                    windowBytes, aggregatorsPerNode);
            assertArrayEquals(fill(b[0], b[1]), got, what + ": rank " + s.rank() + " of " + p);
        });
    }

    private boolean directTaken(Path f) {
        try (Hdf5Reader r = Hdf5Reader.open(f, Hdf5Backend.TESSERA)) {
            return r.directAvailable();
        }
    }

    @Test
    void pencilsOnOneToFourRanksReadBackThroughDirectAggregators() {
        Path f = writeFile("direct.h5");
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "true");
        assumeTrue(directTaken(f), "the file system of " + dir + " does not take O_DIRECT");
        for (int p = 1; p <= 4; p++) {
            // 1.5 MiB + 24 bytes: windows of more than 1 MiB (read direct) whose edges fall inside
            // pages and cut runs; the last window of a domain is short (read through the page cache)
            readBack(f, p, ReadStrategy.AGGREGATED, (3 << 19) + 24, 1, "direct, one aggregator");
            readBack(f, p, ReadStrategy.AUTO, AggregatedRead.WINDOW_BYTES, 1, "AUTO");
        }
        readBack(f, 4, ReadStrategy.AGGREGATED, (3 << 19) + 24, 2, "direct, two aggregators");
    }

    @Test
    void pencilsOnOneToFourRanksReadBackWithoutDirectIo() {
        Path f = writeFile("buffered.h5");
        System.setProperty(Hdf5Writer.DIRECT_PROPERTY, "false");
        assertTrue(!Hdf5Writer.directEnabled());
        for (int p = 1; p <= 4; p++) {
            // tiny windows: thousands of rounds, every edge cutting a run, buffers reused
            readBack(f, p, ReadStrategy.AGGREGATED, 4000, 2, "page cache, aggregated");
            readBack(f, p, ReadStrategy.AUTO, AggregatedRead.WINDOW_BYTES, 1, "page cache, AUTO (independent)");
        }
    }

    @Test
    void overlappingAndEmptyBoxesAndChunkedFilesReadBack() {
        Path f = writeFile("odd.h5");
        SmpJob.run(3, new String[0], JOB, s -> {
            // rank 0 and 1 ask for overlapping boxes, rank 2 for nothing
            long[][] b = switch (s.rank()) {
                case 0 -> new long[][] {{2, 10, 5}, {5, 200, 100}};
                case 1 -> new long[][] {{3, 50, 60}, {9, 100, 3}};
                default -> new long[][] {{0, 0, 0}, {0, 0, 0}};
            };
            double[] got = (double[]) DistributedDataset.readAll(s.world(), f, "/phi", b[0], b[1],
                    ReadStrategy.AGGREGATED, 100_000, 1);
            assertArrayEquals(fill(b[0], b[1]), got, "rank " + s.rank());
        });
        Path c = dir.resolve("chunked.h5");
        try (Hdf5Writer w = Hdf5Writer.create(c, Hdf5Backend.TESSERA)) {
            Hdf5Dataset d = w.root().createDataset("phi", Hdf5Type.DOUBLE, SHAPE, Hdf5Layout.chunked(4, 32, 32).deflate(1));
            d.write(new long[3], SHAPE, fill(new long[3], SHAPE));
        }
        SmpJob.run(2, new String[0], JOB, s -> {
            long[][] b = pencil(2, s.rank());
            assertArrayEquals(fill(b[0], b[1]),
                    (double[]) DistributedDataset.readAll(s.world(), c, "/phi", b[0], b[1], ReadStrategy.AGGREGATED));
        });
    }

    @Test
    void autoAggregatesShortRunsWhenReadingDirectOrOnSeveralNodes() {
        List<BlockClaim> pencils = List.of(claim(0, pencil(2, 0)), claim(1, pencil(2, 1)));
        List<BlockClaim> slabs = List.of(new BlockClaim(0, new long[] {0, 0, 0}, new long[] {8, 256, 256}, null),
                new BlockClaim(1, new long[] {8, 0, 0}, new long[] {8, 256, 256}, null));
        List<BlockClaim> sparse = List.of(new BlockClaim(0, new long[] {0, 0, 0}, new long[] {1, 1, 8}, null),
                new BlockClaim(1, new long[] {15, 255, 0}, new long[] {1, 1, 8}, null));
        assertEquals(ReadStrategy.AGGREGATED, DistributedDataset.chooseRead(pencils, SHAPE, 8, 1, true));
        assertEquals(ReadStrategy.AGGREGATED, DistributedDataset.chooseRead(pencils, SHAPE, 8, 2, false));
        assertEquals(ReadStrategy.INDEPENDENT, DistributedDataset.chooseRead(pencils, SHAPE, 8, 1, false));
        assertEquals(ReadStrategy.INDEPENDENT, DistributedDataset.chooseRead(slabs, SHAPE, 8, 1, true));
        // two short runs at the two ends of the dataset: an aggregator would read all of it
        assertEquals(ReadStrategy.INDEPENDENT, DistributedDataset.chooseRead(sparse, SHAPE, 8, 1, true));
    }

    private static BlockClaim claim(int rank, long[][] b) {
        return new BlockClaim(rank, b[0], b[1], null);
    }

    @Test
    void aBadBoxOnOneRankIsNamedOnEveryRank() {
        Path f = writeFile("bad.h5");
        List<String> messages = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        RuntimeException job = assertThrows(RuntimeException.class, () -> SmpJob.run(3, new String[0], JOB, s -> {
            long[][] b = pencil(3, s.rank());
            if (s.rank() == 2) {
                b[1][2] += 1; // one element past the end in x
            }
            try {
                DistributedDataset.readAll(s.world(), f, "/phi", b[0], b[1]);
            } catch (IllegalArgumentException e) {
                messages.add(e.getMessage());
                throw e;
            }
        }));
        // the first rank to throw ends the job; every rank that got as far as its own error names rank 2
        assertTrue(!messages.isEmpty(), String.valueOf(job));
        assertTrue(job.getMessage().contains("rank 2") && job.getMessage().contains("outside the dataset's shape"),
                job.getMessage());
        for (String m : messages) {
            assertTrue(m.contains("DistributedDataset.readAll(/phi)") && m.contains("rank 2")
                    && m.contains("outside the dataset's shape") && m.contains(f.toString()), m);
        }
    }
}
