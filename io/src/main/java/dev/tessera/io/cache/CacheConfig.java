package dev.tessera.io.cache;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * Configuration of a data cache, the same on every rank.
 *
 * @param servers      ranks of the communicator that serve; every other rank is a client
 * @param backingDir   the shared directory that files are named relative to
 * @param memoryBytes  byte budget of each server's memory tier
 * @param spillDir     each server's local-disk tier directory (a subdirectory per server rank is used), or null for none
 * @param diskBytes    byte budget of each server's local-disk tier
 * @param eviction     LRU or FIFO, for both tiers
 * @param chunkBytes   files move in chunks of this size (large files never travel as one message)
 * @param timeout      how long a client waits for a reply before it declares the server gone
 */
public record CacheConfig(int[] servers, Path backingDir, long memoryBytes, Path spillDir, long diskBytes,
                          EvictionPolicy eviction, int chunkBytes, Duration timeout) {

    public CacheConfig {
        if (servers == null || servers.length == 0) {
            throw new IllegalArgumentException("CacheConfig: at least one server rank is needed");
        }
        servers = servers.clone();
        if (Arrays.stream(servers).distinct().count() != servers.length || Arrays.stream(servers).anyMatch(r -> r < 0)) {
            throw new IllegalArgumentException("CacheConfig: server ranks must be distinct and >= 0, got " + Arrays.toString(servers));
        }
        if (backingDir == null) {
            throw new IllegalArgumentException("CacheConfig: backingDir must not be null");
        }
        if (memoryBytes < 0 || diskBytes < 0 || chunkBytes < 1 || timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("CacheConfig: budgets must be >= 0, chunkBytes >= 1 and timeout > 0");
        }
    }

    /** Servers {@code servers} over {@code backingDir}: 256 MiB of memory each, no disk tier, LRU, 1 MiB chunks, 10 s timeout. */
    public static CacheConfig of(Path backingDir, int... servers) {
        return new CacheConfig(servers, backingDir, 256L << 20, null, 0, EvictionPolicy.LRU, 1 << 20, Duration.ofSeconds(10));
    }

    public CacheConfig withMemory(long bytes) {
        return new CacheConfig(servers, backingDir, bytes, spillDir, diskBytes, eviction, chunkBytes, timeout);
    }

    public CacheConfig withDisk(Path dir, long bytes) {
        return new CacheConfig(servers, backingDir, memoryBytes, dir, bytes, eviction, chunkBytes, timeout);
    }

    public CacheConfig withEviction(EvictionPolicy policy) {
        return new CacheConfig(servers, backingDir, memoryBytes, spillDir, diskBytes, policy, chunkBytes, timeout);
    }

    public CacheConfig withChunkBytes(int bytes) {
        return new CacheConfig(servers, backingDir, memoryBytes, spillDir, diskBytes, eviction, bytes, timeout);
    }

    public CacheConfig withTimeout(Duration t) {
        return new CacheConfig(servers, backingDir, memoryBytes, spillDir, diskBytes, eviction, chunkBytes, t);
    }

    /** True if {@code rank} is a server. */
    public boolean isServer(int rank) {
        return Arrays.stream(servers).anyMatch(s -> s == rank);
    }
}
