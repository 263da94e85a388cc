package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The key arrays IS allocates: with one rank only the keys and the copy the full
 * verification sorts from (no alltoallv send buffer, nothing sized for keys received from
 * other ranks); with more ranks the reference's three SIZE_OF_BUFFERS arrays. The heap
 * estimate that refuses a class too large for -Xmx counts the same.
 */
@Timeout(120)
class IsKeyArraysTest {

    private static final int CLASS_S = 0;

    private static long allocated(int ranks) {
        ConcurrentLinkedQueue<Long> ints = new ConcurrentLinkedQueue<>();
        SmpJob.run(ranks, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            IsRanking r = new IsRanking(session.world(), session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[CLASS_S],
                    IsKernel.MAX_KEY_LOG_2[CLASS_S], IsKernel.NUM_BUCKETS_LOG_2[CLASS_S], IsKernel.TEST_INDEX[CLASS_S],
                    IsKernel.TEST_RANK[CLASS_S]);
            if (session.rank() == 0) {
                ints.add(r.keyArrayInts());
            }
        });
        return ints.remove();
    }

    @Test
    void oneRankHoldsTwoIntsPerKey() {
        int numKeys = 1 << IsKernel.TOTAL_KEYS_LOG_2[CLASS_S];
        assertEquals(2L * numKeys, allocated(1), "key ints at one rank (keys and the full-verification copy)");
        assertEquals(2L * numKeys, IsRanking.keyArrayInts(numKeys, 1), "key ints the heap estimate counts at one rank");
    }

    @Test
    void twoRanksHoldTheReferencesThreeBuffers() {
        int numKeys = (1 << IsKernel.TOTAL_KEYS_LOG_2[CLASS_S]) / 2;
        long expected = 3L * IsRanking.bufferSize(numKeys, 2);
        assertEquals(expected, allocated(2), "key ints per rank at two ranks");
        assertEquals(expected, IsRanking.keyArrayInts(numKeys, 2));
    }

    @Test
    void classCAtOneRankFitsInOneAndAQuarterGiB() {
        long bytes = new IsKernel().heapBytesPerRank('C', 1, 1);
        assertTrue(bytes < (5L << 30) / 4, "class C heap estimate at 1 x 1: " + (bytes >> 20) + " MiB");
    }
}
