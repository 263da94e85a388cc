package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.smp.SmpFabric;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two jobs (smp ranks as threads) take turns through one baton file, as Tessera's and Open MPI's do. */
class BatonTest {

    private static List<Comm> job(int ranks) {
        SmpFabric fabric = new SmpFabric(ranks);
        List<Comm> worlds = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            worlds.add(dev.tessera.internal.CommAccess.get().createWorld(fabric.device(r), ThreadLevel.MULTIPLE,
                    new CollectiveTuning(), "localhost"));
        }
        return worlds;
    }

    private static Path batonFile(Path dir) throws Exception {
        Path f = dir.resolve("baton");
        Files.write(f, new byte[Baton.BYTES]);
        return f;
    }

    @Test
    void sidesTakeTurnsAndNeverOverlap(@TempDir Path dir) throws Exception {
        Path file = batonFile(dir);
        int segments = 6;
        AtomicInteger[] running = {new AtomicInteger(), new AtomicInteger()};
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<String> overlaps = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                int s = side;
                // side 0 has 2 ranks, side 1 has 3: the sides need not match
                for (Comm world : job(2 + side)) {
                    done.add(pool.submit(() -> {
                        Baton baton = Baton.parse(file + ":" + s, world);
                        for (int seg = 0; seg < segments; seg++) {
                            baton.await();
                            running[s].incrementAndGet();
                            if (running[1 - s].get() != 0) {
                                overlaps.add("side " + s + " segment " + seg + " rank " + world.rank());
                            }
                            if (world.rank() == 0) {
                                order.add(s + ":" + seg);
                            }
                            sleepMillis(2);   // widen the window in which an overlap would show
                            running[s].decrementAndGet();
                            baton.pass();
                        }
                        assertEquals(segments, baton.segments());
                        return null;
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(), overlaps);
        List<String> expected = new ArrayList<>();
        for (int seg = 0; seg < segments; seg++) {
            expected.add("0:" + seg);
            expected.add("1:" + seg);
        }
        assertEquals(expected, order);
    }

    @Test
    void twoBenchRanksInterleaveBlockByBlock(@TempDir Path dir) throws Exception {
        // OsuRank's segments (pre-warm, per size the warm-up and each block) must match osu_mpi.c's
        // count: two OsuRank jobs taking turns finish only if both count alike
        Path file = batonFile(dir);
        int[] sizes = {8, 1024};
        List<ByteArrayOutputStream> outs = List.of(new ByteArrayOutputStream(), new ByteArrayOutputStream());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                int s = side;
                PrintStream out = new PrintStream(outs.get(side), true, StandardCharsets.UTF_8);
                for (Comm world : job(2)) {
                    done.add(pool.submit(() -> {
                        OsuRank.run(world, Suite.REDUCE, sizes, 20, 1, 0, 3, 4, out, Baton.parse(file + ":" + s, world));
                        return null;
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (ByteArrayOutputStream bytes : outs) {
            ResultParser parser = new ResultParser();
            bytes.toString(StandardCharsets.UTF_8).lines().forEach(parser::accept);
            assertEquals(sizes.length, parser.points().size());
            parser.points().forEach(p -> assertEquals(3, p.time().count()));
        }
        // 1 pre-warm segment, then per size the warm-up and 3 blocks, on each side
        int segments = 1 + sizes.length * (1 + 3);
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.nativeOrder());
            ch.read(b, 0);
            assertEquals(2 * segments, b.getInt(0));
        }
    }

    @Test
    void badValuesAreRejected(@TempDir Path dir) throws Exception {
        Path file = batonFile(dir);
        Comm world = job(1).get(0);
        assertEquals(null, Baton.parse(null, world));
        assertEquals(null, Baton.parse(" ", world));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Baton.parse(file.toString(), world));
        assertTrue(e.getMessage().contains("PATH:SIDE"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Baton.parse(file + ":2", world));
        assertTrue(e.getMessage().contains("0 or 1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Baton.parse(file + ":x", world));
        assertTrue(e.getMessage().contains("0 or 1"), e.getMessage());
        assertThrows(UncheckedIOException.class, () -> Baton.parse(dir.resolve("missing") + ":0", world));
        Path shortFile = dir.resolve("short");
        Files.write(shortFile, new byte[8]);
        e = assertThrows(IllegalArgumentException.class, () -> Baton.parse(shortFile + ":1", world));
        assertTrue(e.getMessage().contains("needs " + Baton.BYTES), e.getMessage());
    }

    private static void sleepMillis(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
