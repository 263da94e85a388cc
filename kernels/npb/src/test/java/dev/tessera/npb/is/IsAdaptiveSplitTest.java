package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * With two ranks IS splits the keys at a key value without counting buckets first
 * ({@link IsRanking#rankSplitTwo}): the middle of the key range, checked every ranking by the
 * counts of the two sides, with the bucket count of is.c when they are off balance. The
 * two-sided split writes every key once inside its block, and a ranking of keys that the
 * middle does not balance falls back once, moves the split and still ranks every key right.
 */
@Timeout(120)
class IsAdaptiveSplitTest {

    private static final int CLASS_S = 0;
    private static final int UNTOUCHED = IsPartitionTest.UNTOUCHED;

    private static int[] keys(int n, int maxKey, long seed) {
        return IsPartitionTest.keys(n, maxKey, seed);
    }

    private static int[] reversed(int[] a) {
        int[] r = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[a.length - 1 - i];
        }
        return r;
    }

    private static int[] sorted(int[] a) {
        int[] r = a.clone();
        Arrays.sort(r);
        return r;
    }

    @ParameterizedTest(name = "split {0}, low side ascending {1}")
    @CsvSource({"0, true", "1, false", "700, true", "700, false", "1024, true", "2047, false", "2048, true", "2048, false"})
    void splitTwoSidedFillsItsBlockFromBothEnds(int split, boolean lowAscending) {
        int[] keys = keys(5003, 2048, split * 31L + (lowAscending ? 1 : 0));
        int lo = 3;
        int hi = 4990;
        IntPredicate asc = k -> (k < split) == lowAscending;
        int[] ascending = IntStream.range(lo, hi).map(i -> keys[i]).filter(asc).toArray();
        int[] descending = IntStream.range(lo, hi).map(i -> keys[i]).filter(asc.negate()).toArray();
        int below = lowAscending ? ascending.length : descending.length;
        // The block [at, at + n) with room on both sides that must stay untouched.
        int at = 11;
        int n = hi - lo;
        MemorySegment out = Arena.ofAuto().allocate((long) Integer.BYTES * (at + n + 13));
        int[] expected = new int[at + n + 13];
        Arrays.fill(expected, UNTOUCHED);
        System.arraycopy(ascending, 0, expected, at, ascending.length);
        System.arraycopy(reversed(descending), 0, expected, at + ascending.length, descending.length);

        out.fill((byte) 0x7f);
        assertEquals(below, IsRanking.splitTwoSided(keys, lo, hi, split, out, at, at + n, lowAscending), "keys below");
        assertArrayEquals(expected, out.toArray(ValueLayout.JAVA_INT), "scalar: one side in read order, the other reversed");

        // The Vector API form stores each vector's keys for the descending side in read order just
        // below the last ones: the same keys on that side, in another order.
        out.fill((byte) 0x7f);
        assertEquals(below, IsVectorSplit.splitTwoSided(keys, lo, hi, split, out, at, at + n, lowAscending), "vector: keys below");
        checkSides("vector", expected, out.toArray(ValueLayout.JAVA_INT), at, ascending.length, descending, n);

        // The permutation form (8 lanes, AVX2) also stores whole vectors into the gap between the
        // two sides: the same block, and nothing outside it written.
        out.fill((byte) 0x7f);
        assertEquals(below, IsVectorSplit.splitTwoSidedPermute(keys, lo, hi, split, out, at, at + n, lowAscending),
                "permutation: keys below");
        checkSides("permutation", expected, out.toArray(ValueLayout.JAVA_INT), at, ascending.length, descending, n);
        assertThrows(IllegalArgumentException.class,
                () -> IsVectorSplit.splitTwoSidedPermute(keys, lo, hi, split, out, at, at + n + 1, lowAscending),
                "a range wider than the keys");
    }

    /**
     * A vector form's output: the room before and the ascending side as the scalar form wrote them,
     * the descending side's keys in any order, the room after untouched.
     */
    private static void checkSides(String form, int[] expected, int[] got, int at, int ascending, int[] descending, int n) {
        assertArrayEquals(Arrays.copyOfRange(expected, 0, at + ascending), Arrays.copyOfRange(got, 0, at + ascending),
                form + ": the room before, then the ascending side in read order");
        assertArrayEquals(sorted(descending), sorted(Arrays.copyOfRange(got, at + ascending, at + n)),
                form + ": the descending side's keys");
        assertArrayEquals(Arrays.copyOfRange(expected, at + n, expected.length), Arrays.copyOfRange(got, at + n, got.length),
                form + ": the room after");
    }

    /** Runs {@code body} with {@link IsKernel#SPLIT} set to {@code value} (null: unset), restoring it after. */
    private static void withSplit(String value, Runnable body) {
        String saved = System.getProperty(IsKernel.SPLIT);
        try {
            if (value == null) {
                System.clearProperty(IsKernel.SPLIT);
            } else {
                System.setProperty(IsKernel.SPLIT, value);
            }
            body.run();
        } finally {
            if (saved == null) {
                System.clearProperty(IsKernel.SPLIT);
            } else {
                System.setProperty(IsKernel.SPLIT, saved);
            }
        }
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3})
    void npbKeysVerifyAndTheReportSaysHowTheyWereSplit(int threads) {
        withSplit(null, () -> {
            KernelResult r = SmpRuns.run(new IsKernel(), 'S', 2, threads);
            assertTrue(r.verified(), r.verificationDetail());
            String expected = threads <= 2 ? "two-rank split: adaptive, at key 1024 of 2048, no bucket count ("
                    : "two-rank split: bucket counts every ranking, as is.c (more than two threads)";
            assertTrue(r.verificationDetail().contains(expected), r.verificationDetail());
        });
        withSplit("buckets", () -> {
            KernelResult r = SmpRuns.run(new IsKernel(), 'S', 2, threads);
            assertTrue(r.verified(), r.verificationDetail());
            assertTrue(r.verificationDetail().contains("two-rank split: bucket counts every ranking"), r.verificationDetail());
        });
    }

    /**
     * Class W, the smallest whose blocks (512K keys per rank) take the Vector API form of the
     * split where it runs: it verifies, and the report says which form ran.
     */
    @Test
    void classWAtTwoRanksSplitsWithTheVectorFormWhereItRuns() {
        withSplit(null, () -> {
            KernelResult r = SmpRuns.run(new IsKernel(), 'W', 2, 1);
            assertTrue(r.verified(), r.verificationDetail());
            String form = IsRanking.VectorSplit.ON ? "two-rank partition: Vector API, " : "two-rank partition: scalar (";
            assertTrue(r.verificationDetail().contains(form), r.verificationDetail());
            assertTrue(r.verificationDetail().contains("two-rank split: adaptive, at key 32768 of 65536"), r.verificationDetail());
        });
    }

    /**
     * Two ranks, class S sizes, keys of {@code skewed}'s distribution instead of NPB's; two
     * rankings. Per rank: {fallbacks after the first, fallbacks after the second, split,
     * full verification passed (1/0)}, then every key value's count of keys at most it (-1
     * outside the rank's range), then the rank's keys.
     */
    private static int[][][] rankTwice(int threads, boolean skewed) {
        ConcurrentHashMap<Integer, int[][]> out = new ConcurrentHashMap<>();
        int c = CLASS_S;
        int maxKey = 1 << IsKernel.MAX_KEY_LOG_2[c];
        SmpJob.run(2, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            var world = session.world();
            IsRanking r = new IsRanking(world, session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[c],
                    IsKernel.MAX_KEY_LOG_2[c], IsKernel.NUM_BUCKETS_LOG_2[c], IsKernel.TEST_INDEX[c], IsKernel.TEST_RANK[c]);
            r.createSequence(IsKernel.findMySeed(world.rank(), world.size(), 4L << IsKernel.TOTAL_KEYS_LOG_2[c],
                    IsKernel.SEED, IsKernel.MULTIPLIER), IsKernel.MULTIPLIER);
            if (skewed) {
                // Four keys in five in the lowest eighth of the range: the middle leaves rank 0 with 90 %.
                Random random = new Random(7 + world.rank());
                int[] keys = r.keysForTest();
                int n = (1 << IsKernel.TOTAL_KEYS_LOG_2[c]) / 2;
                for (int i = 0; i < n; i++) {
                    keys[i] = random.nextInt(5) < 4 ? random.nextInt(maxKey / 8) : random.nextInt(maxKey);
                }
            }
            r.rank(IsKernel.MAX_ITERATIONS);
            int first = r.splitFallbacks();
            r.rank(IsKernel.MAX_ITERATIONS);
            int[] atMost = new int[maxKey];
            for (int k = 0; k < maxKey; k++) {
                atMost[k] = (int) r.keysAtMostForTest(k);
            }
            int[] ranked = Arrays.copyOf(r.keysForTest(), (1 << IsKernel.TOTAL_KEYS_LOG_2[c]) / 2);
            r.resetVerification();
            r.fullVerify();   // sorts into the key array
            out.put(world.rank(), new int[][] {{first, r.splitFallbacks(), r.split(), r.passedVerification()}, atMost, ranked});
        });
        return new int[][][] {out.get(0), out.get(1)};
    }

    /** Each key value's count of keys at most it, over both ranks' keys. */
    private static int[] atMost(int[][][] got, int maxKey) {
        int[] c = new int[maxKey];
        for (int[][] rank : got) {
            for (int k : rank[2]) {
                c[k]++;
            }
        }
        for (int k = 1; k < maxKey; k++) {
            c[k] += c[k - 1];
        }
        return c;
    }

    private static void assertRanked(int[][][] got, int maxKey) {
        int[] expected = atMost(got, maxKey);
        int split = got[0][0][2];
        for (int k = 0; k < maxKey; k++) {
            int owner = k < split ? 0 : 1;
            assertEquals(expected[k], got[owner][1][k], "keys at most " + k + " by rank " + owner);
            assertEquals(-1, got[1 - owner][1][k], "key " + k + " outside rank " + (1 - owner) + "'s range");
        }
        assertEquals(1, got[0][0][3], "rank 0's full verification");
        assertEquals(1, got[1][0][3], "rank 1's full verification");
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2})
    void keysTheMiddleDoesNotBalanceFallBackOnceAndAreRankedRight(int threads) {
        int maxKey = 1 << IsKernel.MAX_KEY_LOG_2[CLASS_S];
        int[][][] got = rankTwice(threads, true);
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(1, got[rank][0][0], "rank " + rank + ": the first ranking counted buckets");
            assertEquals(1, got[rank][0][1], "rank " + rank + ": the second ranking kept the buckets' split");
        }
        int split = got[0][0][2];
        assertEquals(split, got[1][0][2], "both ranks split at the same key");
        assertNotEquals(maxKey / 2, split, "the split moved");
        assertTrue(split < maxKey / 4, "the split moved towards the keys: " + split);
        assertRanked(got, maxKey);
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2})
    void npbKeysSplitAtTheMiddleAndAreRankedRight(int threads) {
        int maxKey = 1 << IsKernel.MAX_KEY_LOG_2[CLASS_S];
        int[][][] got = rankTwice(threads, false);
        for (int rank = 0; rank < 2; rank++) {
            assertEquals(0, got[rank][0][1], "rank " + rank + ": no bucket count");
            assertEquals(maxKey / 2, got[rank][0][2], "rank " + rank + "'s split");
        }
        assertRanked(got, maxKey);
    }

    @Test
    void aSplitValueOtherThanAdaptiveOrBucketsIsRefusedBeforeAnyWork() {
        withSplit("middle", () -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new IsKernel().check('S', 2));
            assertTrue(e.getMessage().contains(IsKernel.SPLIT) && e.getMessage().contains("'middle'"), e.getMessage());
        });
        withSplit("Buckets", () -> new IsKernel().check('S', 2));
    }
}
