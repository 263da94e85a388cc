package dev.tessera.io.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.io.pfile.ProcessJob;
import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Clients read through the cache the same bytes as from the file system, also when a server dies mid-run. */
class DataCacheTest {

    static final int CHUNK = 16 << 10;

    @TempDir
    Path dir;

    /** Files of 0 bytes to several chunks, with contents that differ everywhere. */
    static List<String> makeFiles(Path backing, int count) throws Exception {
        Files.createDirectories(backing.resolve("sub"));
        List<String> names = new ArrayList<>();
        Random rnd = new Random(42);
        for (int i = 0; i < count; i++) {
            String name = (i % 3 == 0 ? "sub/" : "") + "input-" + i + ".bin";
            int size = i == 0 ? 0 : i % 4 == 1 ? 3 * CHUNK + 17 : rnd.nextInt(2 * CHUNK);
            byte[] b = new byte[size];
            rnd.nextBytes(b);
            Files.write(backing.resolve(name), b);
            names.add(name);
        }
        return names;
    }

    /** Runs {@code action} on a thread of its own once {@code server} has served {@code chunks} chunks. */
    static void afterChunks(CacheServer server, int chunks, Runnable action) {
        Thread.ofPlatform().daemon().start(() -> {
            while (server.chunksServed() < chunks) {
                Thread.onSpinWait();
            }
            action.run();
        });
    }

    @Test
    @Timeout(120)
    void clientsReadTheSameBytesThroughTheCacheAsDirectlyWithOneServerKilledDuringTheRun() throws Exception {
        Path backing = dir.resolve("inputs");
        List<String> names = makeFiles(backing, 16);
        CacheConfig config = CacheConfig.of(backing, 0, 1, 2)
                .withChunkBytes(CHUNK)
                .withMemory(4L * CHUNK)                 // small: eviction happens
                .withDisk(dir.resolve("local"), 8L * CHUNK)
                .withTimeout(Duration.ofMillis(1500));
        AtomicLong fallbacks = new AtomicLong();
        AtomicLong cached = new AtomicLong();
        ConcurrentHashMap<Integer, Long> served = new ConcurrentHashMap<>();
        SmpJob.run(6, new String[0], Duration.ofSeconds(100), s -> {
            DataCache cache = DataCache.open(s.world(), config);
            if (cache.isServer()) {
                CacheServer server = cache.server();
                if (s.rank() == 1) {
                    afterChunks(server, 3, server::halt);   // server 1 stops answering and tells no one
                }
                server.serve();
                served.put(s.rank(), server.chunksServed());
                return;
            }
            CacheClient client = cache.client();
            List<String> order = new ArrayList<>(names);
            for (int pass = 0; pass < 3; pass++) {
                Collections.shuffle(order, new Random(s.rank() * 10 + pass));
                for (String n : order) {
                    assertArrayEquals(Files.readAllBytes(backing.resolve(n)), client.read(n), "rank " + s.rank() + " file " + n);
                }
            }
            assertTrue(client.goneServers().isEmpty() || client.goneServers().equals(java.util.Set.of(1)), client.goneServers().toString());
            fallbacks.addAndGet(client.fallbacks());
            cached.addAndGet(client.bytesFromCache());
            cache.closeClient();
        });
        assertTrue(fallbacks.get() > 0, "some reads fell back to the file system");
        assertTrue(cached.get() > 0, "and the others came through the cache");
        assertTrue(served.get(0) > 0 && served.get(2) > 0, "the surviving servers served: " + served);
        assertTrue(served.get(1) >= 3 && served.get(1) < served.get(0) + served.get(2), "server 1 died early: " + served);
    }

    @Test
    @Timeout(60)
    void aMissingFileIsAnErrorNamingItAndTheRankAndTheCacheGoesOn() throws Exception {
        Path backing = dir.resolve("inputs");
        List<String> names = makeFiles(backing, 3);
        ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
        SmpJob.run(3, new String[0], Duration.ofSeconds(50), s -> DataCache.run(s.world(),
                CacheConfig.of(backing, 0).withChunkBytes(CHUNK), client -> {
                    CacheException e = assertThrows(CacheException.class, () -> client.read("no/such.bin"));
                    messages.put(s.rank(), e.getMessage());
                    assertThrows(CacheException.class, () -> client.read("../outside.bin"));
                    assertArrayEquals(Files.readAllBytes(backing.resolve(names.get(1))), client.read(names.get(1)));
                    assertEquals(0, client.fallbacks());
                }));
        for (int r = 1; r < 3; r++) {
            String m = messages.get(r);
            assertTrue(m.contains("rank " + r) && m.contains(backing.resolve("no/such.bin").toString())
                    && m.contains("server rank 0"), m);
        }
    }

    @Test
    @Timeout(120)
    void rankProcessesOnShmReadThroughTheCache() throws Exception {
        Path backing = dir.resolve("inputs");
        makeFiles(backing, 8);
        try (ProcessJob job = ProcessJob.start(3, "shm", DataCacheProcessMain.class, List.of(backing.toString()), l -> { })) {
            assertEquals(0, job.waitFor(100), job.output());
            assertTrue(job.output().contains("rank 1 read 8 files") && job.output().contains("rank 2 read 8 files"), job.output());
        }
    }
}
