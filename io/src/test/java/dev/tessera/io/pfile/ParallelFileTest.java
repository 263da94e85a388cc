package dev.tessera.io.pfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Datatype;
import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Collective and independent parallel-file I/O through views, on in-JVM jobs of 1-4 ranks. */
class ParallelFileTest {

    private static final int[] SIZES = {7, 5, 6};
    private static final Duration JOB = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private static void job(int ranks, SmpJob.RankMain body) {
        SmpJob.run(ranks, new String[0], JOB, body);
    }

    /** Hints that force several aggregators and many small rounds, so every path of two-phase I/O runs. */
    private static final ParallelFile.Hints SMALL_ROUNDS = new ParallelFile.Hints(2, 40, ParallelFile.CollectiveBuffering.ENABLE);

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void writeAllOfUnevenBlocksGivesTheGlobalArrayInRowMajorOrder(int ranks) throws Exception {
        for (ParallelFile.Hints hints : List.of(ParallelFile.Hints.DEFAULT, SMALL_ROUNDS)) {
            Path file = dir.resolve("field-" + ranks + "-" + hints.aggregators() + ".raw");
            job(ranks, s -> {
                Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
                try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.CREATE, OpenMode.WRITE)) {
                    f.setView(16, b);
                    f.writeAll(Blocks.fill(b, 3));
                }
            });
            byte[] bytes = Files.readAllBytes(file);
            byte[] expected = Blocks.expectedFile(SIZES, 3);
            assertEquals(16 + expected.length, bytes.length, "file size");
            assertArrayEquals(expected, Arrays.copyOfRange(bytes, 16, bytes.length), "global array in row-major order");
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void readAllGivesEachRankItsBlockWhateverDecompositionWroteTheFile(int ranks) throws Exception {
        Path file = dir.resolve("written-on-4.raw");
        job(4, s -> {
            Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.CREATE, OpenMode.WRITE)) {
                f.setView(0, b);
                f.writeAll(Blocks.fill(b, 1));
            }
        });
        for (ParallelFile.Hints hints : List.of(ParallelFile.Hints.DEFAULT, SMALL_ROUNDS)) {
            job(ranks, s -> {
                Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
                double[] got = new double[(int) b.elementCount()];
                try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.READ)) {
                    f.setView(0, b);
                    f.readAll(got);
                }
                assertArrayEquals(Blocks.fill(b, 1), got, "rank " + s.rank() + " block " + b);
            });
        }
    }

    @Test
    @Timeout(60)
    void theFilePointerAdvancesSoConsecutiveWriteAllsTileTheView() throws Exception {
        Path file = dir.resolve("steps.raw");
        int[] sizes = {4, 6};
        job(3, s -> {
            Subarray b = Subarray.of(Datatype.INT, sizes, new int[] {4, s.rank() == 0 ? 2 : s.rank() == 1 ? 3 : 1},
                    new int[] {0, s.rank() == 0 ? 0 : s.rank() == 1 ? 2 : 5});
            try (ParallelFile f = ParallelFile.open(s.world(), file, SMALL_ROUNDS, OpenMode.CREATE, OpenMode.WRITE)) {
                f.setView(0, b);
                for (int step = 0; step < 2; step++) {
                    int[] data = new int[(int) b.elementCount()];
                    Arrays.fill(data, 100 * step + s.rank());
                    f.writeAll(data);
                }
                assertEquals(2 * b.elementCount(), f.position());
            }
        });
        int[] owner = {0, 0, 1, 1, 1, 2};
        java.nio.IntBuffer ib = java.nio.ByteBuffer.wrap(Files.readAllBytes(file)).order(java.nio.ByteOrder.nativeOrder()).asIntBuffer();
        assertEquals(2 * 24, ib.remaining());
        for (int i = 0; i < 48; i++) {
            assertEquals(100 * (i / 24) + owner[i % 6], ib.get(i), "element " + i);
        }
    }

    @Test
    @Timeout(60)
    void writeAtAndReadAtAddressElementsOfTheViewAndNonblockingOnesComplete() throws Exception {
        Path file = dir.resolve("independent.raw");
        job(2, s -> {
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                // Columns: rank r sees column r of a 3x2 array of doubles, after a 8-byte header.
                f.setView(8, Subarray.of(Datatype.DOUBLE, new int[] {3, 2}, new int[] {3, 1}, new int[] {0, s.rank()}));
                IoRequest w = f.iwriteAt(1, new double[] {10 + s.rank(), 20 + s.rank()});
                assertEquals(16, w.await());
                f.writeAt(0, new double[] {s.rank()});
                f.sync();
                double[] back = new double[3];
                assertEquals(24, f.ireadAt(0, back).await());
                assertArrayEquals(new double[] {s.rank(), 10 + s.rank(), 20 + s.rank()}, back);
            }
        });
        java.nio.DoubleBuffer db = java.nio.ByteBuffer.wrap(Files.readAllBytes(file), 8, 48).order(java.nio.ByteOrder.nativeOrder()).asDoubleBuffer();
        double[] all = new double[6];
        db.get(all);
        assertArrayEquals(new double[] {0, 1, 10, 11, 20, 21}, all);
    }

    @Test
    @Timeout(60)
    void nonblockingWriteAllCompletesWithTheSameBytes() throws Exception {
        Path file = dir.resolve("iwrite.raw");
        job(3, s -> {
            Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.CREATE, OpenMode.WRITE)) {
                f.setView(0, b);
                IoRequest r = f.iwriteAll(Blocks.fill(b, 9));
                assertEquals(b.dataBytes(), r.await());
            }
        });
        assertArrayEquals(Blocks.expectedFile(SIZES, 9), Files.readAllBytes(file));
    }

    @Test
    @Timeout(60)
    void overlappingViewsAreRejectedOnEveryRankBeforeAnyByteIsWritten() throws Exception {
        Path file = dir.resolve("overlap.raw");
        byte[] before = "earlier content that must survive".getBytes();
        Files.write(file, before);
        ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
        job(3, s -> {
            // Rank 2's block is rank 1's shifted by one row: they share rows.
            int start = s.rank() == 2 ? 3 : 2 * s.rank();
            Subarray b = Subarray.of(Datatype.LONG, new int[] {8, 4}, new int[] {2, 4}, new int[] {start, 0});
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.WRITE)) {
                f.setView(0, b);
                ParallelFileException e = assertThrows(ParallelFileException.class, () -> f.writeAll(new long[8]));
                messages.put(s.rank(), e.getMessage());
            }
        });
        assertEquals(3, messages.size(), "every rank throws");
        for (String m : messages.values()) {
            assertTrue(m.contains("rank 1") && m.contains("overlaps rank 2") && m.contains(file.toString()), m);
        }
        assertArrayEquals(before, Files.readAllBytes(file), "nothing written");
    }

    @Test
    @Timeout(60)
    void aMissingFileFailsTheOpenOnEveryRankNamingTheRankAndPath() {
        Path missing = dir.resolve("no-such-dir").resolve("input.raw");
        ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
        job(3, s -> {
            ParallelFileException e = assertThrows(ParallelFileException.class,
                    () -> ParallelFile.open(s.world(), missing, OpenMode.READ));
            messages.put(s.rank(), e.getMessage());
            s.world().barrier(); // the communicator still works after the failed open
        });
        assertEquals(3, messages.size());
        for (String m : messages.values()) {
            assertTrue(m.contains("rank 0") && m.contains(missing.toString()) && m.contains("no such file"), m);
        }
    }

    @Test
    @Timeout(60)
    void aBufferOfTheWrongTypeOrAReadOnlyFileIsAnErrorNamingTheRank() throws Exception {
        Path file = dir.resolve("typed.raw");
        Files.write(file, new byte[64]);
        ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
        job(2, s -> {
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.READ)) {
                f.setView(0, Subarray.of(Datatype.DOUBLE, new int[] {2, 4}, new int[] {1, 4}, new int[] {s.rank(), 0}));
                ParallelFileException e = assertThrows(ParallelFileException.class,
                        () -> {
                            if (s.rank() == 1) {
                                f.readAll(new int[4]);
                            } else {
                                f.readAll(new double[4]);
                            }
                        });
                messages.put(s.rank(), e.getMessage());
                assertThrows(ParallelFileException.class, () -> f.writeAll(new double[4]));
            }
        });
        for (String m : messages.values()) {
            assertTrue(m.contains("rank 1: buffer of INT elements but the view's element type is DOUBLE")
                    && m.contains("ParallelFile.readAll(" + file), m);
        }
        assertThrows(IllegalArgumentException.class,
                () -> Subarray.of(Datatype.DOUBLE, new int[] {4, 4}, new int[] {3, 2}, new int[] {2, 0}),
                "a block that does not fit");
    }

    @Test
    @Timeout(60)
    void exclusiveCreateOfAnExistingFileFailsAndLeavesItAlone() throws Exception {
        Path file = dir.resolve("exists.raw");
        Files.write(file, new byte[] {1, 2, 3});
        job(2, s -> assertThrows(ParallelFileException.class, () -> ParallelFile.open(s.world(), file,
                OpenMode.WRITE, OpenMode.CREATE, OpenMode.EXCLUSIVE)));
        assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(file));
    }

    @Test
    void aggregatorsAreSpreadOverTheRanks() {
        assertArrayEquals(new int[] {0, 2}, AggregatorChoice.evenly(4, 2));
        assertArrayEquals(new int[] {0, 1, 2}, AggregatorChoice.evenly(3, 5));
        assertArrayEquals(new int[] {0}, AggregatorChoice.nodeLeaders(new int[] {0, 0, 0}));
        assertArrayEquals(new int[] {0, 2}, AggregatorChoice.nodeLeaders(new int[] {0, 0, 1, 1}));
        assertArrayEquals(new int[] {0, 1, 3}, AggregatorChoice.nodeLeaders(new int[] {0, 1, 0, 2}));
    }

    @Test
    @Timeout(60)
    void byDefaultEveryRankOfASingleNodeAggregates() throws Exception {
        Path file = dir.resolve("one-node.raw");
        ConcurrentHashMap<Integer, String> chosen = new ConcurrentHashMap<>();
        SmpJob.run(3, new String[0], Duration.ofSeconds(50), s -> {
            try (ParallelFile f = ParallelFile.open(s.world(), file, OpenMode.CREATE, OpenMode.WRITE)) {
                chosen.put(s.rank(), Arrays.toString(f.aggregators()));
            }
        });
        assertEquals(List.of("[0, 1, 2]", "[0, 1, 2]", "[0, 1, 2]"), List.copyOf(new java.util.TreeMap<>(chosen).values()));
    }


    @Test
    @Timeout(60)
    void aFullDiskFailsTheWriteOnEveryRankNamingPathAndRankAndKeepsEarlierFiles() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(256)) {
            Path earlier = disk.path().resolve("earlier.raw");
            Path big = disk.path().resolve("big.raw");
            ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
            job(2, s -> {
                try (ParallelFile f = ParallelFile.open(s.world(), earlier, OpenMode.CREATE, OpenMode.WRITE)) {
                    f.setView(0, Subarray.of(Datatype.LONG, new int[] {2, 512}, new int[] {1, 512}, new int[] {s.rank(), 0}));
                    long[] mine = new long[512];
                    Arrays.fill(mine, 7 + s.rank());
                    f.writeAll(mine);
                }
                try (ParallelFile f = ParallelFile.open(s.world(), big, OpenMode.CREATE, OpenMode.WRITE)) {
                    f.setView(0, Subarray.of(Datatype.DOUBLE, new int[] {2, 65536}, new int[] {1, 65536}, new int[] {s.rank(), 0}));
                    ParallelFileException e = assertThrows(ParallelFileException.class, () -> f.writeAll(new double[65536]));
                    messages.put(s.rank(), e.getMessage());
                }
            });
            assertEquals(2, messages.size());
            for (String m : messages.values()) {
                assertTrue(m.contains("ParallelFile.writeAll(" + big + ")") && m.contains("rank 0")
                        && m.contains("No space left on device"), m);
            }
            java.nio.LongBuffer lb = java.nio.ByteBuffer.wrap(Files.readAllBytes(earlier)).order(java.nio.ByteOrder.nativeOrder()).asLongBuffer();
            assertEquals(1024, lb.remaining());
            assertEquals(7, lb.get(0));
            assertEquals(8, lb.get(1023));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ENABLE", "DISABLE", "AUTOMATIC"})
    @Timeout(60)
    void bytesBetweenTheRanksBlocksKeepTheirEarlierContent(String buffering) throws Exception {
        Path file = dir.resolve("holes.raw");
        byte[] before = new byte[6 * 4];
        Arrays.fill(before, (byte) 9);
        Files.write(file, before);
        ParallelFile.Hints hints = new ParallelFile.Hints(1, 7, ParallelFile.CollectiveBuffering.valueOf(buffering));
        job(2, s -> {
            // A 6x4 byte array; rank 0 writes rows 0 and 2 (two views tile), rank 1 row 4; rows 1, 3, 5 are holes.
            Subarray b = Subarray.of(Datatype.BYTE, new int[] {2, 4}, new int[] {1, 4}, new int[] {0, 0});
            try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.WRITE)) {
                f.setView(s.rank() == 0 ? 0 : 16, b);
                byte[] data = new byte[s.rank() == 0 ? 8 : 4];
                Arrays.fill(data, (byte) (s.rank() + 1));
                f.writeAll(data);
            }
        });
        byte[] expected = before.clone();
        Arrays.fill(expected, 0, 4, (byte) 1);
        Arrays.fill(expected, 8, 12, (byte) 1);
        Arrays.fill(expected, 16, 20, (byte) 2);
        assertArrayEquals(expected, Files.readAllBytes(file));
    }

    @Test
    @Timeout(60)
    void atThreadLevelMultipleNonblockingCollectivesRunBehindTheCallerAndKeepTheirOrder() throws Exception {
        Path file = dir.resolve("multiple.raw");
        SmpJob.run(3, new String[] {"--thread-level", "MULTIPLE"}, JOB, s -> {
            Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, SMALL_ROUNDS, OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                f.setView(0, b);
                IoRequest first = f.iwriteAll(Blocks.fill(b, 2));
                IoRequest second = f.iwriteAll(Blocks.fill(b, 4)); // the second tile of the view, after the first
                double[] back = new double[(int) b.elementCount()];
                f.seek(0);
                IoRequest read = f.ireadAll(back);
                assertEquals(b.dataBytes(), second.await());
                assertEquals(b.dataBytes(), first.await());
                assertEquals(b.dataBytes(), read.await());
                assertArrayEquals(Blocks.fill(b, 2), back);
            }
        });
        byte[] all = Files.readAllBytes(file);
        byte[] one = Blocks.expectedFile(SIZES, 2);
        assertArrayEquals(one, Arrays.copyOfRange(all, 0, one.length));
        assertArrayEquals(Blocks.expectedFile(SIZES, 4), Arrays.copyOfRange(all, one.length, all.length));
    }
}
