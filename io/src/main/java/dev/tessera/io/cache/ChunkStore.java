package dev.tessera.io.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A server's chunks of files in three tiers: memory, then local disk, then the backing
 * directory. A chunk read from the backing directory or the disk tier goes into memory;
 * when memory exceeds its byte budget the first chunk in line (least recently used, or
 * first in) moves to the disk tier, and when that exceeds its budget its first chunk is
 * deleted. Both tiers are {@link LinkedHashMap}s in access order (LRU) or insertion order
 * (FIFO), so the line is kept without extra bookkeeping. A chunk larger than the memory
 * budget is served but not kept. Not thread-safe: one server thread owns it.
 */
final class ChunkStore {

    /** Where a chunk was found. */
    enum Tier { MEMORY, DISK, BACKING }

    /** A chunk and the size of its file. */
    record Chunk(byte[] data, long fileSize, Tier tier) {
    }

    private final Path backing;
    private final int chunkBytes;
    private final long memoryBudget;
    private final long diskBudget;
    private final Path spill;
    private final LinkedHashMap<String, byte[]> memory;
    private final LinkedHashMap<String, long[]> disk;
    private long nextSpillId;
    private final Map<String, Long> fileSizes = new LinkedHashMap<>();
    private long memoryBytes;
    private long diskBytes;
    final long[] served = new long[Tier.values().length];
    long evictedFromMemory;
    long evictedFromDisk;

    ChunkStore(Path backing, int chunkBytes, long memoryBudget, Path spill, long diskBudget, EvictionPolicy policy) {
        this.backing = backing;
        this.chunkBytes = chunkBytes;
        this.memoryBudget = memoryBudget;
        this.spill = spill;
        this.diskBudget = spill == null ? 0 : diskBudget;
        boolean lru = policy == EvictionPolicy.LRU;
        this.memory = new LinkedHashMap<>(64, 0.75f, lru);
        this.disk = new LinkedHashMap<>(64, 0.75f, lru);
    }

    /** The resolved file for a name; rejects absolute names and names that climb out of the backing directory. */
    static Path resolve(Path backing, String name) {
        Path p = backing.resolve(name).normalize();
        if (name.isEmpty() || Path.of(name).isAbsolute() || !p.startsWith(backing.normalize())) {
            throw new CacheException("file name '" + name + "' is not inside the cache's directory " + backing);
        }
        return p;
    }

    /** Chunk {@code index} of file {@code name}; throws NoSuchFileException if the file does not exist. */
    Chunk chunk(String name, long index) throws IOException {
        String key = index + ":" + name;
        byte[] data = memory.get(key);
        if (data != null) {
            served[Tier.MEMORY.ordinal()]++;
            return new Chunk(data, fileSizes.get(name), Tier.MEMORY);
        }
        Tier tier;
        long[] onDisk = disk.remove(key);
        if (onDisk != null) {
            Path f = spillFile(onDisk[1]);
            data = Files.readAllBytes(f);
            Files.deleteIfExists(f);
            diskBytes -= onDisk[0];
            tier = Tier.DISK;
        } else {
            data = readBacking(name, index);
            tier = Tier.BACKING;
        }
        served[tier.ordinal()]++;
        keep(key, data);
        return new Chunk(data, fileSizes.get(name), tier);
    }

    private byte[] readBacking(String name, long index) throws IOException {
        Path file = resolve(backing, name);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            fileSizes.put(name, size);
            long from = index * chunkBytes;
            int n = (int) Math.max(0, Math.min(chunkBytes, size - from));
            ByteBuffer bb = ByteBuffer.allocate(n);
            while (bb.hasRemaining() && ch.read(bb, from + bb.position()) >= 0) {
                // read until full or end of file
            }
            return bb.array();
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file.toString());
        }
    }

    private void keep(String key, byte[] data) throws IOException {
        if (data.length > memoryBudget) {
            return;
        }
        memory.put(key, data);
        memoryBytes += data.length;
        Iterator<Map.Entry<String, byte[]>> it = memory.entrySet().iterator();
        while (memoryBytes > memoryBudget && it.hasNext()) {
            Map.Entry<String, byte[]> first = it.next();
            it.remove();
            memoryBytes -= first.getValue().length;
            evictedFromMemory++;
            spillToDisk(first.getKey(), first.getValue());
        }
    }

    private void spillToDisk(String key, byte[] data) throws IOException {
        if (data.length > diskBudget) {
            return;
        }
        Files.createDirectories(spill);
        long id = nextSpillId++;
        Files.write(spillFile(id), data);
        disk.put(key, new long[] {data.length, id});
        diskBytes += data.length;
        Iterator<Map.Entry<String, long[]>> it = disk.entrySet().iterator();
        while (diskBytes > diskBudget && it.hasNext()) {
            Map.Entry<String, long[]> first = it.next();
            it.remove();
            diskBytes -= first.getValue()[0];
            evictedFromDisk++;
            Files.deleteIfExists(spillFile(first.getValue()[1]));
        }
    }

    private Path spillFile(long id) {
        return spill.resolve("chunk-" + id);
    }

    /** Keys in memory, first to leave first ("index:name"). */
    Iterable<String> memoryKeys() {
        return memory.keySet();
    }

    Iterable<String> diskKeys() {
        return disk.keySet();
    }

    long memoryBytes() {
        return memoryBytes;
    }

    long diskBytes() {
        return diskBytes;
    }
}
