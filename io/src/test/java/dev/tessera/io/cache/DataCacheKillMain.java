package dev.tessera.io.cache;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Ranks 0 and 1 serve the files of a directory, the others read every file through the cache
 * and directly and compare. Server 1 prints its pid once it has served a few chunks (the test
 * then kills it with kill -9); clients keep reading, pass after pass, until they have noticed
 * that server 1 is gone, then read everything once more.
 */
public final class DataCacheKillMain {

    /** Passes a client makes at most before giving up on noticing the dead server. */
    static final int MAX_PASSES = 10_000;

    public static void main(String[] args) throws Exception {
        Path backing = Path.of(args[0]);
        List<String> names;
        try (Stream<Path> s = Files.walk(backing)) {
            names = s.filter(Files::isRegularFile).map(p -> backing.relativize(p).toString()).sorted().toList();
        }
        // a timeout far beyond the test's: the clients must learn of the death from the framework, not by waiting
        CacheConfig config = CacheConfig.of(backing, 0, 1).withChunkBytes(DataCacheTest.CHUNK)
                .withTimeout(Duration.ofMinutes(10));
        try (Session s = Tessera.init(args)) {
            DataCache cache = DataCache.open(s.world(), config);
            if (cache.isServer()) {
                CacheServer server = cache.server();
                if (s.rank() == 1) {
                    DataCacheTest.afterChunks(server, 3, () ->
                            System.out.println("server 1 pid " + ProcessHandle.current().pid() + " is serving"));
                }
                server.serve();
                System.out.println("server " + s.rank() + " served " + server.chunksServed() + " chunks");
                cache.close();
                return;
            }
            CacheClient client = cache.client();
            List<String> order = new ArrayList<>(names);
            int passes = 0;
            boolean lastPass = false;
            while (!lastPass) {
                lastPass = client.goneServers().contains(1);   // one whole pass after noticing
                if (++passes > MAX_PASSES) {
                    throw new IllegalStateException("rank " + s.rank() + ": server 1 still answers after " + MAX_PASSES + " passes");
                }
                Collections.shuffle(order, new Random(s.rank() * 1000L + passes));
                for (String n : order) {
                    if (!Arrays.equals(Files.readAllBytes(backing.resolve(n)), client.read(n))) {
                        throw new IllegalStateException("rank " + s.rank() + ": other bytes for " + n + " in pass " + passes);
                    }
                }
            }
            System.out.println("client " + s.rank() + " read " + names.size() + " files " + passes
                    + " times, correct; gone " + client.goneServers() + ", fallbacks " + client.fallbacks()
                    + ", from cache " + client.bytesFromCache());
            cache.close();
        }
    }
}
