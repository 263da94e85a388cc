package dev.tessera.io.pfile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code iwriteAll}/{@code ireadAll} as schedules of nonblocking collectives at the default
 * thread level (FUNNELED): they return before the other ranks have even joined, progress when
 * tested, can be several in flight, and agree on errors, on 2-4 in-JVM ranks.
 */
class NonblockingCollectiveIoTest {

    private static final int[] SIZES = {7, 5, 6};
    private static final Duration JOB = Duration.ofSeconds(60);
    /** Two aggregators, 40-byte rounds, always two-phase: many rounds of nonblocking transfers. */
    private static final ParallelFile.Hints SMALL_ROUNDS = new ParallelFile.Hints(2, 40, ParallelFile.CollectiveBuffering.ENABLE);

    @TempDir
    Path dir;

    /**
     * Rank 0 starts iwriteAll while the other ranks have not called it yet (they wait for
     * rank 0's signal): the call must return, and the request cannot be complete, since the
     * other ranks' accesses are not known yet. A blocking implementation deadlocks here.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void iwriteAllReturnsBeforeTheOtherRanksJoinAndCompletesWhenTested(int ranks) throws Exception {
        for (ParallelFile.Hints hints : List.of(ParallelFile.Hints.DEFAULT, SMALL_ROUNDS)) {
            Path file = dir.resolve("early-" + ranks + "-" + hints.aggregators() + ".raw");
            CountDownLatch rank0Started = new CountDownLatch(1);
            SmpJob.run(ranks, new String[0], JOB, s -> {
                Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
                try (ParallelFile f = ParallelFile.open(s.world(), file, hints, OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                    f.setView(0, b);
                    if (s.rank() != 0) {
                        assertTrue(rank0Started.await(30, TimeUnit.SECONDS), "rank 0 never returned from iwriteAll");
                    }
                    IoRequest w = f.iwriteAll(Blocks.fill(b, 5));
                    if (s.rank() == 0) {
                        assertFalse(w.test(), "complete although the other ranks have not started their part");
                        rank0Started.countDown();
                    }
                    while (!w.test()) {
                        Thread.onSpinWait(); // the rank's own work would go here
                    }
                    assertEquals(b.dataBytes(), w.await());
                    f.seek(0);
                    double[] back = new double[(int) b.elementCount()];
                    IoRequest r = f.ireadAll(back);
                    assertEquals(b.dataBytes(), r.await());
                    assertArrayEquals(Blocks.fill(b, 5), back, "rank " + s.rank());
                }
            });
            assertArrayEquals(Blocks.expectedFile(SIZES, 5), Files.readAllBytes(file));
        }
    }

    /** Several nonblocking collectives in flight at FUNNELED run in call order, whatever order they are awaited in. */
    @Test
    @Timeout(60)
    void severalInFlightAtFunneledKeepTheirOrder() throws Exception {
        Path file = dir.resolve("order.raw");
        SmpJob.run(3, new String[0], JOB, s -> {
            Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, SMALL_ROUNDS, OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                f.setView(0, b);
                IoRequest first = f.iwriteAll(Blocks.fill(b, 2));
                IoRequest second = f.iwriteAll(Blocks.fill(b, 4)); // the second tile of the view
                double[] back = new double[(int) b.elementCount()];
                f.seek(0);
                IoRequest read = f.ireadAll(back);
                assertEquals(b.dataBytes(), read.await()); // awaiting the last runs the earlier ones first
                assertTrue(first.test() && second.test());
                assertEquals(b.dataBytes(), first.await());
                assertEquals(b.dataBytes(), second.await());
                assertArrayEquals(Blocks.fill(b, 2), back);
            }
        });
        byte[] all = Files.readAllBytes(file);
        byte[] one = Blocks.expectedFile(SIZES, 2);
        assertArrayEquals(one, Arrays.copyOfRange(all, 0, one.length));
        assertArrayEquals(Blocks.expectedFile(SIZES, 4), Arrays.copyOfRange(all, one.length, all.length));
    }

    /** A bad buffer on one rank fails that nonblocking call on every rank with the same message; the next call works. */
    @Test
    @Timeout(60)
    void aBadBufferOnOneRankFailsTheNonblockingCallOnEveryRankNamingIt() throws Exception {
        Path file = dir.resolve("bad.raw");
        ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
        SmpJob.run(3, new String[0], JOB, s -> {
            Subarray b = Blocks.block(s.rank(), s.size(), SIZES, Datatype.DOUBLE);
            try (ParallelFile f = ParallelFile.open(s.world(), file, SMALL_ROUNDS, OpenMode.CREATE, OpenMode.WRITE)) {
                f.setView(0, b);
                IoRequest bad = s.rank() == 1
                        ? f.iwriteAll(java.lang.foreign.MemorySegment.ofArray(new int[(int) b.elementCount()]), Datatype.INT)
                        : f.iwriteAll(Blocks.fill(b, 1));
                ParallelFileException e = assertThrows(ParallelFileException.class, bad::await);
                messages.put(s.rank(), e.getMessage());
                f.seek(0);
                assertEquals(b.dataBytes(), f.iwriteAll(Blocks.fill(b, 3)).await());
            }
        });
        assertEquals(3, messages.size());
        assertEquals(1, messages.values().stream().distinct().count(), "every rank gets the same message: " + messages);
        String m = messages.get(0);
        assertTrue(m.contains("ParallelFile.writeAll") && m.contains("rank 1") && m.contains(file.toString())
                && m.contains("INT"), m);
        assertArrayEquals(Blocks.expectedFile(SIZES, 3), Files.readAllBytes(file));
    }
}
