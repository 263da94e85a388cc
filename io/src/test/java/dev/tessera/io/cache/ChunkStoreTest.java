package dev.tessera.io.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The tiers and eviction of one server's chunk store. */
@Timeout(30)
class ChunkStoreTest {

    @TempDir
    Path dir;
    Path backing;

    @BeforeEach
    void files() throws Exception {
        backing = Files.createDirectories(dir.resolve("backing"));
        for (String n : List.of("a", "b", "c", "d")) {
            byte[] b = new byte[100];
            Arrays.fill(b, (byte) n.charAt(0));
            Files.write(backing.resolve(n), b);
        }
    }

    private static List<String> keys(Iterable<String> it) {
        List<String> out = new ArrayList<>();
        it.forEach(out::add);
        return out;
    }

    @Test
    void lruEvictsTheLeastRecentlyUsedChunk() throws Exception {
        ChunkStore s = new ChunkStore(backing, 100, 300, null, 0, EvictionPolicy.LRU);
        s.chunk("a", 0);
        s.chunk("b", 0);
        s.chunk("c", 0);
        assertEquals(ChunkStore.Tier.MEMORY, s.chunk("a", 0).tier(), "a is a hit and becomes the most recent");
        s.chunk("d", 0);
        assertEquals(List.of("0:c", "0:a", "0:d"), keys(s.memoryKeys()), "b left");
        assertEquals(300, s.memoryBytes());
    }

    @Test
    void fifoEvictsTheFirstChunkInWhateverWasUsedSince() throws Exception {
        ChunkStore s = new ChunkStore(backing, 100, 300, null, 0, EvictionPolicy.FIFO);
        s.chunk("a", 0);
        s.chunk("b", 0);
        s.chunk("c", 0);
        s.chunk("a", 0);
        s.chunk("d", 0);
        assertEquals(List.of("0:b", "0:c", "0:d"), keys(s.memoryKeys()), "a left although just used");
    }

    @Test
    void evictedChunksGoToTheDiskTierAndComeBackFromIt() throws Exception {
        ChunkStore s = new ChunkStore(backing, 100, 200, dir.resolve("spill"), 100, EvictionPolicy.LRU);
        s.chunk("a", 0);
        s.chunk("b", 0);
        s.chunk("c", 0); // a -> disk
        assertEquals(List.of("0:a"), keys(s.diskKeys()));
        s.chunk("d", 0); // b -> disk, a deleted from disk (budget 100)
        assertEquals(List.of("0:b"), keys(s.diskKeys()));
        ChunkStore.Chunk b = s.chunk("b", 0);
        assertEquals(ChunkStore.Tier.DISK, b.tier());
        assertEquals('b', b.data()[99]);
        assertEquals(ChunkStore.Tier.BACKING, s.chunk("a", 0).tier(), "a was evicted from both tiers");
        assertEquals(2, s.evictedFromDisk, "a, then c (pushed out by b's return)");
    }

    @Test
    void chunksOfALargeFileAreServedInPieces() throws Exception {
        byte[] big = new byte[250];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) i;
        }
        Files.write(backing.resolve("big"), big);
        ChunkStore s = new ChunkStore(backing, 100, 1000, null, 0, EvictionPolicy.LRU);
        assertArrayEquals(Arrays.copyOfRange(big, 200, 250), s.chunk("big", 2).data());
        assertEquals(250, s.chunk("big", 0).fileSize());
        assertEquals(0, s.chunk("big", 3).data().length);
    }

    @Test
    void namesOutsideTheDirectoryAndMissingFilesAreRejected() {
        ChunkStore s = new ChunkStore(backing, 100, 1000, null, 0, EvictionPolicy.LRU);
        CacheException e = assertThrows(CacheException.class, () -> s.chunk("../secret", 0));
        assertTrue(e.getMessage().contains("not inside the cache's directory"), e.getMessage());
        assertThrows(CacheException.class, () -> s.chunk("/etc/passwd", 0));
        NoSuchFileException m = assertThrows(NoSuchFileException.class, () -> s.chunk("nope", 0));
        assertTrue(m.getMessage().contains(backing.resolve("nope").toString()), m.getMessage());
    }

    @Test
    void namesSpreadOverAllServers() {
        int[] servers = {0, 3, 5};
        int[] hits = new int[6];
        for (int i = 0; i < 300; i++) {
            hits[CacheProtocol.shard("input/file-" + i + ".bin", servers)]++;
        }
        for (int s : servers) {
            assertTrue(hits[s] > 60, "server " + s + " owns " + hits[s] + " of 300 names");
        }
        assertEquals(CacheProtocol.shard("x", servers), CacheProtocol.shard("x", servers));
    }
}
