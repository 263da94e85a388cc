package dev.tessera.io.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Datatype;
import dev.tessera.io.pfile.Subarray;
import dev.tessera.launch.SmpJob;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Checkpoints of in-JVM jobs: round trip, restart on another number of ranks, corruption, bad input. */
@Timeout(90)
class CheckpointerTest {

    @TempDir
    Path dir;

    private static void job(int ranks, SmpJob.RankMain body) {
        SmpJob.run(ranks, new String[0], Duration.ofSeconds(60), body);
    }

    private void saveSteps(int ranks, long... steps) {
        job(ranks, s -> {
            Checkpointer cp = new Checkpointer(s.world(), dir, 5);
            for (long step : steps) {
                cp.save(step, CheckpointCrashMain.data(s.rank(), s.size(), step));
            }
        });
    }

    @Test
    void saveThenRestoreGivesEveryRankItsArraysAndMetadataBack() {
        saveSteps(3, 1, 2);
        job(3, s -> {
            Restart r = new Checkpointer(s.world(), dir).restoreLatest().orElseThrow();
            assertEquals(2, r.step());
            assertEquals(3, r.savedRanks());
            assertArrayEquals(new long[] {2, s.rank(), 42}, r.longs("local"));
            assertEquals("rank " + s.rank(), r.rankMetadata(s.rank()).get("owner"));
            assertEquals(Map.of("step", "2", "owner", "rank 0"), r.metadata());
            Subarray b = CheckpointCrashMain.slab(s.rank(), s.size());
            assertArrayEquals(CheckpointCrashMain.field(b, 2), r.readDistributed("rho", b));
            assertTrue(r.skipped().isEmpty(), r.skipped().toString());
        });
        assertTrue(Files.isDirectory(dir.resolve("ckpt-000000000002")));
    }

    @ParameterizedTest(name = "saved on 4, restored on {0}")
    @ValueSource(ints = {1, 2, 3})
    void aDistributedArrayIsRestoredOnAnotherNumberOfRanks(int ranks) {
        saveSteps(4, 7);
        job(ranks, s -> {
            Restart r = new Checkpointer(s.world(), dir).restoreLatest().orElseThrow();
            assertEquals(4, r.savedRanks());
            Subarray b = CheckpointCrashMain.slab(s.rank(), s.size());
            assertArrayEquals(CheckpointCrashMain.field(b, 7), r.readDistributed("rho", b));
            assertEquals(CheckpointCrashMain.slab(3, 4), r.savedBlock("rho", 3));
            assertArrayEquals(new long[] {7, 3, 42}, r.rankArray(3, "local", long[].class));
            CheckpointException e = assertThrows(CheckpointException.class, () -> r.longs("local"));
            assertTrue(e.getMessage().contains("saved by 4 ranks, this job has " + ranks), e.getMessage());
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"rank-00001.bin", "dist-rho.raw", "MANIFEST"})
    void aFlippedByteIsDetectedAndTheCheckpointSkippedWithAWarningNamingIt(String victim) throws Exception {
        saveSteps(2, 1, 2);
        Path bad = dir.resolve("ckpt-000000000002").resolve(victim);
        try (RandomAccessFile f = new RandomAccessFile(bad.toFile(), "rw")) {
            long at = f.length() / 2;
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x10);
        }
        job(2, s -> {
            Restart r = new Checkpointer(s.world(), dir).restoreLatest().orElseThrow();
            assertEquals(1, r.step(), "the older, intact checkpoint");
            assertEquals(1, r.skipped().size(), r.skipped().toString());
            String w = r.skipped().getFirst();
            assertTrue(w.contains("ckpt-000000000002") && w.contains("checksum mismatch"), w);
            assertArrayEquals(new long[] {1, s.rank(), 42}, r.longs("local"));
        });
    }

    @Test
    void aTornCheckpointIsSkipped() throws Exception {
        saveSteps(2, 1, 2);
        Path rankFile = dir.resolve("ckpt-000000000002").resolve("rank-00000.bin");
        try (RandomAccessFile f = new RandomAccessFile(rankFile.toFile(), "rw")) {
            f.setLength(f.length() - 5);
        }
        Files.createDirectory(dir.resolve(".ckpt-000000000003.partial"));
        job(2, s -> {
            Restart r = new Checkpointer(s.world(), dir).restoreLatest().orElseThrow();
            assertEquals(1, r.step());
            String all = String.join("\n", r.skipped());
            assertTrue(all.contains(".ckpt-000000000003.partial") && all.contains("torn"), all);
            assertTrue(all.contains("rank-00000.bin") && all.contains("the manifest says"), all);
        });
    }

    @Test
    void noCheckpointMeansAnEmptyRestore() {
        job(2, s -> assertEquals(Optional.empty(), new Checkpointer(s.world(), dir.resolve("none")).restoreLatest()));
    }

    @Test
    void onlyTheNewestKeepCheckpointsRemain() {
        job(2, s -> {
            Checkpointer cp = new Checkpointer(s.world(), dir, 2);
            for (long step = 1; step <= 4; step++) {
                cp.save(step, CheckpointCrashMain.data(s.rank(), s.size(), step));
            }
        });
        assertFalse(Files.exists(dir.resolve("ckpt-000000000002")));
        assertTrue(Files.exists(dir.resolve("ckpt-000000000003")) && Files.exists(dir.resolve("ckpt-000000000004")));
    }

    @Test
    void missingOrOverlappingBlocksFailOnEveryRankAndKeepTheEarlierCheckpoint() {
        saveSteps(2, 1);
        ConcurrentHashMap<String, String> messages = new ConcurrentHashMap<>();
        job(2, s -> {
            Checkpointer cp = new Checkpointer(s.world(), dir);
            int[] sizes = {4, 3};
            // Missing: rank 1 forgets its rows.
            Subarray mine = Subarray.of(Datatype.DOUBLE, sizes, new int[] {s.rank() == 0 ? 2 : 1, 3}, new int[] {s.rank() == 0 ? 0 : 2, 0});
            CheckpointException e = assertThrows(CheckpointException.class, () -> cp.save(2,
                    new CheckpointData().distributed("u", mine, new double[(int) mine.elementCount()])));
            messages.put("missing" + s.rank(), e.getMessage());
            // Overlapping: both ranks claim row 1, and together hold the right count of elements.
            Subarray over = Subarray.of(Datatype.DOUBLE, sizes, new int[] {2, 3}, new int[] {s.rank() == 0 ? 0 : 1, 0});
            Subarray rest = Subarray.of(Datatype.DOUBLE, sizes, new int[] {s.rank() == 0 ? 2 : 2, 3}, new int[] {s.rank() == 0 ? 0 : 1, 0});
            e = assertThrows(CheckpointException.class, () -> cp.save(3,
                    new CheckpointData().distributed("u", over, new double[(int) over.elementCount()])
                            .distributed("v", rest, new double[(int) rest.elementCount()])));
            messages.put("overlap" + s.rank(), e.getMessage());
            assertEquals(1, cp.restoreLatest().orElseThrow().step(), "the earlier checkpoint is still the latest");
        });
        for (int r = 0; r < 2; r++) {
            String m = messages.get("missing" + r);
            assertTrue(m.contains("'u' hold 9 elements in all, the global array [4, 3] has 12") && m.contains(dir.toString()), m);
        }
        String m = messages.get("overlap0");
        assertTrue(m.contains("hold 12 elements") || m.contains("overlaps"), m);
        assertTrue(Files.exists(dir.resolve("ckpt-000000000001")));
    }

    @Test
    void aBlockWithTheWrongNumberOfElementsIsRejectedWhereItIsGiven() {
        Subarray b = Subarray.of(Datatype.DOUBLE, new int[] {4, 4}, new int[] {2, 4}, new int[] {0, 0});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CheckpointData().distributed("rho", b, new double[7]));
        assertTrue(e.getMessage().contains("7 elements given for a block of 8"), e.getMessage());
        List.of();
    }

    @Test
    void aFullDiskFailsTheSaveOnEveryRankNamingPathAndRankAndTheEarlierCheckpointStaysLoadable() throws Exception {
        try (dev.tessera.io.pfile.SmallDisk disk = dev.tessera.io.pfile.SmallDisk.mount(512)) {
            Path root = disk.path().resolve("ckpts");
            ConcurrentHashMap<Integer, String> messages = new ConcurrentHashMap<>();
            job(2, s -> {
                Checkpointer cp = new Checkpointer(s.world(), root);
                cp.save(1, CheckpointCrashMain.data(s.rank(), s.size(), 1));
                Subarray big = Subarray.of(Datatype.DOUBLE, new int[] {2, 65536}, new int[] {1, 65536}, new int[] {s.rank(), 0});
                CheckpointException e = assertThrows(CheckpointException.class, () -> cp.save(2,
                        CheckpointCrashMain.data(s.rank(), s.size(), 2).distributed("big", big, new double[65536])));
                messages.put(s.rank(), e.getMessage());
                Restart r = cp.restoreLatest().orElseThrow();
                assertEquals(1, r.step());
                assertArrayEquals(new long[] {1, s.rank(), 42}, r.longs("local"));
            });
            for (String m : messages.values()) {
                assertTrue(m.contains("No space left on device") && m.contains(root.toString()) && m.contains("rank "), m);
            }
        }
    }
}
