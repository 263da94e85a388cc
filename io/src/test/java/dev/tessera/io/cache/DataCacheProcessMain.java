package dev.tessera.io.cache;

import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** Rank 0 serves the files of a directory; the other ranks read each through the cache and compare with the file. */
public final class DataCacheProcessMain {

    public static void main(String[] args) throws Exception {
        Path backing = Path.of(args[0]);
        List<String> names;
        try (Stream<Path> s = Files.walk(backing)) {
            names = s.filter(Files::isRegularFile).map(p -> backing.relativize(p).toString()).sorted().toList();
        }
        try (Session s = Tessera.init(args)) {
            DataCache.run(s.world(), CacheConfig.of(backing, 0).withChunkBytes(DataCacheTest.CHUNK), client -> {
                for (String n : names) {
                    if (!Arrays.equals(Files.readAllBytes(backing.resolve(n)), client.read(n))) {
                        throw new IllegalStateException("rank " + s.rank() + ": other bytes for " + n);
                    }
                }
                if (client.fallbacks() != 0) {
                    throw new IllegalStateException("rank " + s.rank() + ": fell back to the file system");
                }
                System.out.println("rank " + s.rank() + " read " + names.size() + " files");
            });
        }
    }
}
