package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import dev.tessera.npb.VectorSwitch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With several ranks IS groups each rank's keys by the rank their bucket goes to, in the
 * order read, instead of sorting them into buckets (docs/npb.md, "Stop 39"). The two loops
 * that do it write every key once, where it belongs, and nothing outside their parts; in a
 * ranking the send buffer holds, for each rank in turn, exactly the keys of that rank's
 * buckets in the order of keyArray, the same with 1, 2 and 3 team members, and every check
 * of the ten rankings passes (NPB's own verification of whole runs: KernelVerificationTest).
 */
@Timeout(120)
class IsPartitionTest {

    private static final int CLASS_S = 0;
    /** Marks the elements a loop must not write. */
    static final int UNTOUCHED = 0x7f7f7f7f;

    static int[] keys(int n, int maxKey, long seed) {
        Random random = new Random(seed);
        int[] keys = new int[n];
        for (int i = 0; i < n; i++) {
            keys[i] = random.nextInt(maxKey);
        }
        return keys;
    }

    private static int[] read(MemorySegment s) {
        return s.toArray(ValueLayout.JAVA_INT);
    }

    @ParameterizedTest(name = "split {0}")
    @ValueSource(ints = {0, 1, 700, 1024, 2047, 2048})
    void splitTwoWritesBothSidesInReadOrder(int split) {
        int[] keys = keys(5000, 2048, split);
        int lo = 3;
        int hi = 4990;
        int[] below = IntStream.range(lo, hi).map(i -> keys[i]).filter(k -> k < split).toArray();
        int[] above = IntStream.range(lo, hi).map(i -> keys[i]).filter(k -> k >= split).toArray();
        // The low part at 10, a gap of 7, the high part after it, and room past its end.
        int low = 10;
        int high = low + below.length + 7;
        MemorySegment out = Arena.ofAuto().allocate((long) Integer.BYTES * (high + above.length + 9));
        out.fill((byte) 0x7f);
        long n = IsRanking.splitTwo(keys, lo, hi, split, out, low, high);
        assertEquals(below.length, n, "keys below the split");
        int[] expected = new int[(int) (out.byteSize() / Integer.BYTES)];
        Arrays.fill(expected, UNTOUCHED);
        System.arraycopy(below, 0, expected, low, below.length);
        System.arraycopy(above, 0, expected, high, above.length);
        assertArrayEquals(expected, read(out));
        // the Vector API form (the surefire JVM has jdk.incubator.vector): the same keys in the same
        // places, and nothing written outside them (the gap and the room past the end stay untouched)
        out.fill((byte) 0x7f);
        assertEquals(below.length, IsVectorSplit.splitTwo(keys, lo, hi, split, out, low, high), "vector: keys below the split");
        assertArrayEquals(expected, read(out), "vector form");
    }

    @Test
    void partitionManyGroupsByOwnerInReadOrder() {
        int shift = 4;
        int buckets = 64;
        int[] owner = new int[buckets];
        for (int b = 0; b < buckets; b++) {
            owner[b] = b < 10 ? 0 : b < 11 ? 1 : b < 40 ? 2 : 3;
        }
        int[] keys = keys(3000, buckets << shift, 77);
        int lo = 5;
        int hi = 2999;
        int[] start = new int[4];
        int[][] parts = new int[4][];
        int at = 2;
        for (int r = 0; r < 4; r++) {
            int rank = r;
            parts[r] = IntStream.range(lo, hi).map(i -> keys[i]).filter(k -> owner[k >> shift] == rank).toArray();
            start[r] = at;
            at += parts[r].length;
        }
        MemorySegment out = Arena.ofAuto().allocate((long) Integer.BYTES * (at + 5));
        out.fill((byte) 0x7f);
        int[] pos = start.clone();
        IsRanking.partitionMany(keys, lo, hi, shift, owner, pos, out);
        int[] expected = new int[at + 5];
        Arrays.fill(expected, UNTOUCHED);
        for (int r = 0; r < 4; r++) {
            System.arraycopy(parts[r], 0, expected, start[r], parts[r].length);
            assertEquals(start[r] + parts[r].length, pos[r], "rank " + r + "'s position after its last key");
        }
        assertArrayEquals(expected, read(out));
    }

    /**
     * Rank by rank, after the ten timed rankings of class S at {@code ranks} x {@code threads}
     * and the full verification: keys, send counts and send buffer (partitionForTest), then
     * {checks passed}.
     */
    private static int[][][] partitions(int ranks, int threads) {
        // the bucket path at two ranks too (the adaptive split's layout: IsAdaptiveSplitTest)
        String saved = System.getProperty(IsKernel.SPLIT);
        System.setProperty(IsKernel.SPLIT, "buckets");
        try {
            return partitionsAsSet(ranks, threads);
        } finally {
            if (saved == null) {
                System.clearProperty(IsKernel.SPLIT);
            } else {
                System.setProperty(IsKernel.SPLIT, saved);
            }
        }
    }

    private static int[][][] partitionsAsSet(int ranks, int threads) {
        ConcurrentHashMap<Integer, int[][]> out = new ConcurrentHashMap<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            int c = CLASS_S;
            var world = session.world();
            IsRanking r = new IsRanking(world, session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[c],
                    IsKernel.MAX_KEY_LOG_2[c], IsKernel.NUM_BUCKETS_LOG_2[c], IsKernel.TEST_INDEX[c],
                    IsKernel.TEST_RANK[c]);
            r.createSequence(IsKernel.findMySeed(world.rank(), world.size(), 4L << IsKernel.TOTAL_KEYS_LOG_2[c],
                    IsKernel.SEED, IsKernel.MULTIPLIER), IsKernel.MULTIPLIER);
            r.rank(1);
            r.resetVerification();
            for (int i = 1; i <= IsKernel.MAX_ITERATIONS; i++) {
                r.rank(i);
            }
            int[][] sent = r.partitionForTest();
            r.fullVerify();
            int[][] result = Arrays.copyOf(sent, 4);
            result[3] = new int[] {r.passedVerification()};
            out.put(world.rank(), result);
        });
        int[][][] result = new int[ranks][][];
        for (int i = 0; i < ranks; i++) {
            result[i] = out.get(i);
        }
        return result;
    }

    /** Each rank's part of the send buffer in keyArray's order, and all checks of the ten rankings pass. */
    @ParameterizedTest(name = "{0} ranks x {1} threads")
    @CsvSource({"2, 1", "2, 2", "2, 3", "4, 1", "4, 2", "4, 3"})
    void sendBufferHoldsEachRanksBucketsInKeyOrder(int ranks, int threads) {
        int shift = IsKernel.MAX_KEY_LOG_2[CLASS_S] - IsKernel.NUM_BUCKETS_LOG_2[CLASS_S];
        int[][][] got = partitions(ranks, threads);
        int passed = 0;
        for (int[][] rank : got) {
            passed += rank[3][0];
        }
        assertEquals(IsKernel.TEST_ARRAY_SIZE * IsKernel.MAX_ITERATIONS + ranks, passed, "checks passed, all ranks");
        // Each rank's buckets, from the keys every rank holds: rank r owns buckets up to its last
        // key's bucket; the parts of one send buffer are consecutive ranges of buckets.
        int[] lastBucket = new int[ranks];
        Arrays.fill(lastBucket, -1);
        for (int[][] rank : got) {
            int[] sendCount = rank[1];
            int[] sent = rank[2];
            int at = 0;
            for (int r = 0; r < ranks; r++) {
                for (int i = at; i < at + sendCount[r]; i++) {
                    lastBucket[r] = Math.max(lastBucket[r], sent[i] >> shift);
                }
                at += sendCount[r];
            }
            assertEquals(sent.length, at, "every key is sent to some rank");
        }
        for (int r = 1; r < ranks; r++) {
            assertTrue(lastBucket[r] > lastBucket[r - 1], "ranks' buckets in order: " + Arrays.toString(lastBucket));
        }
        for (int me = 0; me < ranks; me++) {
            int[] keys = got[me][0];
            int[] expected = new int[keys.length];
            int n = 0;
            for (int r = 0; r < ranks; r++) {
                int first = r == 0 ? 0 : lastBucket[r - 1] + 1;
                int last = lastBucket[r];
                for (int key : keys) {
                    if (first <= key >> shift && key >> shift <= last) {
                        expected[n++] = key;
                    }
                }
            }
            assertEquals(keys.length, n, "rank " + me + ": every key is in some rank's buckets");
            assertArrayEquals(expected, got[me][2], "rank " + me + "'s send buffer");
        }
    }

    @Test
    void theReportNamesThePartitionFormAtTwoRanks() {
        KernelResult two = SmpRuns.run(new IsKernel(), 'S', 2, 1);
        assertTrue(two.verified(), two.verificationDetail());
        // class S: 32768 keys per rank, fewer than the vector form's smallest block
        String form = IsRanking.VectorSplit.ON ? "two-rank partition: scalar (32768 keys per thread; the vector form from 262144"
                : "two-rank partition: scalar (";
        assertTrue(two.verificationDetail().contains(form), two.verificationDetail());
        if (IsRanking.VectorSplit.ON) {
            String lanes = IsRanking.VectorSplit.COMPRESS ? "16 lanes of int, compress" : "8 lanes of int, a permutation";
            assertTrue(IsRanking.VectorSplit.describe(1 << 18).startsWith("two-rank partition: Vector API, " + lanes),
                    IsRanking.VectorSplit.describe(1 << 18));
        }
        KernelResult one = SmpRuns.run(new IsKernel(), 'S', 1, 1);
        assertFalse(one.verificationDetail().contains("partition"), one.verificationDetail());
    }

    @Test
    void aSwitchValueOtherThanTrueOrFalseIsRefusedBeforeAnyWork() {
        String saved = System.getProperty(VectorSwitch.PROPERTY);
        try {
            System.setProperty(VectorSwitch.PROPERTY, "fast");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IsKernel().check('S', 2));
            assertTrue(e.getMessage().contains(VectorSwitch.PROPERTY) && e.getMessage().contains("'fast'"), e.getMessage());
            System.setProperty(VectorSwitch.PROPERTY, "off");
            new IsKernel().check('S', 2);
        } finally {
            if (saved == null) {
                System.clearProperty(VectorSwitch.PROPERTY);
            } else {
                System.setProperty(VectorSwitch.PROPERTY, saved);
            }
        }
    }
}
