package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The partition pass ({@link IsKernel#PARTITION}): every key is either counted once into the
 * rank's histogram (its own range) or appended once, in input order, to the send buffer
 * (grouped by destination rank); none lost, none counted twice, the boundaries of the range
 * included. Then whole class S rankings by that path verify at 2 and 4 ranks.
 */
@Timeout(120)
class IsPartitionTest {

    private static final int MAX_KEY = 1 << 16;

    private static int[] keys(int n, long seed, int min, int range) {
        Random random = new Random(seed);
        int[] k = new int[n];
        for (int i = 0; i < n; i++) {
            k[i] = random.nextInt(MAX_KEY);
        }
        // The four keys around the range's ends, several times.
        int[] edges = {min - 1, min, min + range - 1, min + range};
        for (int i = 0; i < 64; i++) {
            int e = edges[i % 4];
            if (e >= 0 && e < MAX_KEY) {
                k[random.nextInt(n)] = e;
            }
        }
        return k;
    }

    @ParameterizedTest(name = "two ranks: range [{0}, {0} + {1})")
    @CsvSource({"0, 32768", "32768, 32768", "1000, 20000", "0, 65536", "65535, 1", "70000, 0", "17, 0"})
    void twoRanksCountOwnKeysAndAppendTheOthersOnce(int min, int range) {
        int n = 200_003;
        int[] keys = keys(n, 37 + min + range, min, range);
        int[] hist = new int[Math.max(range, 1) + 7];
        int[] scratch = new int[1 << 16];
        MemorySegment out = Arena.ofAuto().allocate((long) Integer.BYTES * n);
        int appended = IsRanking.partitionTwo(keys, n, min, range, hist, scratch, out);

        int[] expectedHist = new int[hist.length];
        int[] expectedOut = IntStream.of(keys).filter(k -> k < min || k >= min + range).toArray();
        for (int k : keys) {
            if (k >= min && k < min + range) {
                expectedHist[k - min]++;
            }
        }
        assertArrayEquals(expectedHist, hist, "own keys counted once each, nothing else counted");
        assertEquals(expectedOut.length, appended, "keys appended");
        assertArrayEquals(expectedOut, out.asSlice(0, (long) Integer.BYTES * appended).toArray(ValueLayout.JAVA_INT),
                "the other rank's keys, each once, in input order");
        assertEquals(n, appended + Arrays.stream(hist).sum(), "every key counted or appended");
    }

    @Test
    void manyRanksCountOwnKeysAndAppendOthersByDestination() {
        int n = 100_000;
        int shift = 6;
        int buckets = MAX_KEY >> shift;
        int ranks = 4;
        int me = 2;
        // Ranks own contiguous bucket ranges of unequal size; rank 3 none.
        int[] firstBucket = {0, 100, 700, 1024};
        int[] owner = new int[buckets];
        for (int r = 0; r < ranks - 1; r++) {
            for (int b = firstBucket[r]; b < firstBucket[r + 1]; b++) {
                owner[b] = r;
            }
        }
        int min = firstBucket[me] << shift;
        int range = (firstBucket[me + 1] - firstBucket[me]) << shift;
        int[] keys = keys(n, 38, min, range);
        int[] perRank = new int[ranks];
        for (int k : keys) {
            perRank[owner[k >> shift]]++;
        }
        int[] displ = new int[ranks];
        for (int r = 1; r < ranks; r++) {
            displ[r] = displ[r - 1] + (r - 1 == me ? 0 : perRank[r - 1]);
        }
        int[] pos = displ.clone();
        int[] hist = new int[range];
        MemorySegment out = Arena.ofAuto().allocate((long) Integer.BYTES * n);
        int appended = IsRanking.partitionMany(keys, n, shift, owner, me, min, hist, pos, out);

        assertEquals(n - perRank[me], appended, "keys appended");
        int[] expectedHist = new int[range];
        for (int k : keys) {
            if (owner[k >> shift] == me) {
                expectedHist[k - min]++;
            }
        }
        assertArrayEquals(expectedHist, hist, "own keys counted once each");
        for (int r = 0; r < ranks; r++) {
            if (r == me) {
                continue;
            }
            int dest = r;
            int[] expected = IntStream.of(keys).filter(k -> owner[k >> shift] == dest).toArray();
            assertEquals(displ[r] + expected.length, pos[r], "rank " + r + "'s keys end");
            assertArrayEquals(expected, out.asSlice((long) Integer.BYTES * displ[r], (long) Integer.BYTES
                    * expected.length).toArray(ValueLayout.JAVA_INT), "rank " + r + "'s keys, each once, in order");
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @CsvSource({"2", "4"})
    void classSVerifiesByThePartitionPass(int ranks) {
        String before = System.getProperty(IsKernel.PARTITION);
        System.setProperty(IsKernel.PARTITION, "true");
        KernelResult r;
        try {
            r = SmpRuns.run(new IsKernel(), 'S', ranks, 1);
        } finally {
            if (before == null) {
                System.clearProperty(IsKernel.PARTITION);
            } else {
                System.setProperty(IsKernel.PARTITION, before);
            }
        }
        assertTrue(r.verified(), r.verificationDetail());
        assertTrue(r.verificationDetail().contains("partition pass"), "took the partition path: " + r.verificationDetail());
    }
}
