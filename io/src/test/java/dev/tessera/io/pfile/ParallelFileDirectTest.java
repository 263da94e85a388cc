package dev.tessera.io.pfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Datatype;
import dev.tessera.launch.SmpJob;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two-phase writeAll/readAll with the aggregators' whole pages through O_DIRECT and with
 * {@value ParallelFile#DIRECT_PROPERTY}=false (page cache): the same bytes either way, for
 * uneven pencils and blocks on 1-4 ranks, windows whose edges cut pages, data that starts
 * and ends off a page boundary and a file whose size is not a multiple of the page.
 */
class ParallelFileDirectTest {

    /** 9 x 61 x 67 doubles after a 100-byte header: 294,364 bytes, not a multiple of 4096. */
    private static final int[] SIZES = {9, 61, 67};
    private static final int HEADER = 100;
    private static final Duration JOB = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @AfterEach
    void directBackOn() {
        System.clearProperty(ParallelFile.DIRECT_PROPERTY);
    }

    /** Uneven pencils: the x dimension split into unequal parts, so every rank's runs are short. */
    private static Subarray pencil(int rank, int ranks) {
        int[] cuts = {0, 5, 23, 41, 67};
        int lo = ranks == 1 ? 0 : cuts[rank];
        int hi = ranks == 1 ? 67 : rank == ranks - 1 ? 67 : cuts[rank + 1];
        return Subarray.of(Datatype.DOUBLE, SIZES, new int[] {9, 61, hi - lo}, new int[] {0, 0, lo});
    }

    /**
     * 128 x 65 x 67 doubles (4.46 MB) in slabs: every rank of 1-3 writes and reads its own range
     * of more than 1 MiB itself (no two-phase), whole pages direct, its edges through the page cache.
     */
    private static final int[] SLAB_SIZES = {128, 65, 67};

    private static int[] sizes(String layout) {
        return layout.equals("slabs") ? SLAB_SIZES : SIZES;
    }

    private static Subarray box(String layout, int rank, int ranks) {
        return layout.equals("pencils") ? pencil(rank, ranks) : Blocks.block(rank, ranks, sizes(layout), Datatype.DOUBLE);
    }

    private static List<ParallelFile.Hints> hints(String layout) {
        return layout.equals("slabs") ? List.of(ParallelFile.Hints.DEFAULT) : HINTS;
    }

    /** Several aggregators and windows of 64 KiB + 24 bytes (edges off the page), and the default hints. */
    private static final List<ParallelFile.Hints> HINTS = List.of(
            new ParallelFile.Hints(2, (64 << 10) + 24, ParallelFile.CollectiveBuffering.ENABLE),
            new ParallelFile.Hints(1, 16L << 20, ParallelFile.CollectiveBuffering.ENABLE));

    private void writeAndReadBack(String layout, boolean direct) throws Exception {
        System.setProperty(ParallelFile.DIRECT_PROPERTY, Boolean.toString(direct));
        byte[] expected = Blocks.expectedFile(sizes(layout), 5);
        for (int ranks = 1; ranks <= 4; ranks++) {
            for (ParallelFile.Hints hints : hints(layout)) {
                Path file = dir.resolve(layout + "-" + direct + "-" + ranks + "-" + hints.aggregators() + ".raw");
                byte[] header = new byte[HEADER];
                Arrays.fill(header, (byte) 9);
                Files.write(file, header);
                int p = ranks;
                job(ranks, s -> {
                    Subarray b = box(layout, s.rank(), s.size());
                    try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.WRITE)) {
                        assertEquals(direct, f.transfersDirect(), "O_DIRECT taken on ext4 unless switched off");
                        f.setView(HEADER, b);
                        f.writeAll(Blocks.fill(b, 5));
                    }
                });
                String what = layout + ", " + p + " ranks, " + hints + ", direct " + direct;
                byte[] bytes = Files.readAllBytes(file);
                assertEquals(HEADER + expected.length, bytes.length, "file size, " + what);
                assertArrayEquals(header, Arrays.copyOf(bytes, HEADER), "header kept, " + what);
                assertArrayEquals(expected, Arrays.copyOfRange(bytes, HEADER, bytes.length), "array, " + what);
                job(ranks, s -> {
                    Subarray b = box(layout, s.rank(), s.size());
                    double[] got = new double[(int) b.elementCount()];
                    try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.READ)) {
                        f.setView(HEADER, b);
                        f.readAll(got);
                    }
                    assertArrayEquals(Blocks.fill(b, 5), got, "rank " + s.rank() + " read back, " + what);
                });
            }
        }
    }

    private static void job(int ranks, SmpJob.RankMain body) {
        SmpJob.run(ranks, new String[0], JOB, body);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pencils", "blocks", "slabs"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void directTransfersWriteAndReadTheSameBytes(String layout) throws Exception {
        writeAndReadBack(layout, true);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pencils", "blocks", "slabs"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void withDirectSwitchedOffThePageCachePathWritesAndReadsTheSameBytes(String layout) throws Exception {
        writeAndReadBack(layout, false);
    }

    /**
     * The file holds the header and the first {@code kept} bytes of the array only: pencils
     * (two-phase) where it ends in the first window, slabs (each rank its own range) where the
     * second rank's range ends past it, off a page boundary.
     */
    @ParameterizedTest(name = "{0}, {1} bytes")
    @org.junit.jupiter.params.provider.CsvSource({"pencils, 1000", "slabs, 3000001"})
    @Timeout(60)
    void readingPastTheEndOfAShortFileGivesZerosOnBothPaths(String layout, int kept) throws Exception {
        int[] n = sizes(layout);
        byte[] full = Blocks.expectedFile(n, 2);
        for (boolean direct : new boolean[] {true, false}) {
            System.setProperty(ParallelFile.DIRECT_PROPERTY, Boolean.toString(direct));
            Path file = dir.resolve("short-" + layout + "-" + direct + ".raw");
            byte[] content = new byte[HEADER + kept];
            System.arraycopy(full, 0, content, HEADER, kept);
            Files.write(file, content);
            job(2, s -> {
                Subarray b = box(layout, s.rank(), s.size());
                double[] got = new double[(int) b.elementCount()];
                Arrays.fill(got, -1);
                try (ParallelFile f = ParallelFile.open(s.world(), file, hints(layout).getFirst(), OpenMode.READ)) {
                    f.setView(HEADER, b);
                    f.readAll(got);
                }
                ByteBuffer want = ByteBuffer.allocate(got.length * 8).order(ByteOrder.nativeOrder());
                for (int z = 0; z < b.subsizes()[0]; z++) {
                    for (int y = 0; y < b.subsizes()[1]; y++) {
                        for (int x = 0; x < b.subsizes()[2]; x++) {
                            long g = ((long) (b.starts()[0] + z) * n[1] + b.starts()[1] + y) * n[2] + b.starts()[2] + x;
                            for (int k = 0; k < 8; k++) {
                                long at = g * 8 + k;
                                want.put(at < kept ? full[(int) at] : 0);
                            }
                        }
                    }
                }
                double[] wanted = new double[got.length];
                want.flip().asDoubleBuffer().get(wanted);
                assertArrayEquals(wanted, got, "rank " + s.rank() + ", direct " + direct);
            });
        }
    }

    @Test
    @Timeout(60)
    void aBadValueOfTheSwitchIsNamedByTheOpen() {
        System.setProperty(ParallelFile.DIRECT_PROPERTY, "maybe");
        Path file = dir.resolve("bad.raw");
        Throwable e = assertThrows(Throwable.class, () -> job(2, s -> {
            ParallelFile.open(s.world(), file, OpenMode.CREATE, OpenMode.WRITE).close();
        }));
        String all = messages(e);
        assertTrue(all.contains("-D" + ParallelFile.DIRECT_PROPERTY + "=maybe") && all.contains("expected true or false"), all);
        assertTrue(all.contains("rank"), all);
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t).append('\n');
            for (Throwable s : t.getSuppressed()) {
                sb.append(s).append('\n');
            }
        }
        return sb.toString();
    }
}
