package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The switch that makes one rank rank as is.c does at np = 1 (bucket sort into the send
 * buffer, an exchange with itself that moves nothing, the count over the bucket-sorted keys):
 * it takes that path (it allocates the reference's three SIZE_OF_BUFFERS arrays) and passes all
 * 51 of class S's checks, with 1 and 2 team members; without it the rank counts in place.
 */
@Timeout(120)
class IsBucketsAtOneRankTest {

    private static final int CLASS_S = 0;

    @ParameterizedTest(name = "{0} threads, buckets {1}")
    @CsvSource({"1, true", "2, true", "1, false", "2, false"})
    void oneRankVerifiesEitherWay(int threads, boolean buckets) {
        ConcurrentLinkedQueue<long[]> out = new ConcurrentLinkedQueue<>();
        SmpJob.run(1, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            int c = CLASS_S;
            IsRanking r = new IsRanking(session.world(), session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[c],
                    IsKernel.MAX_KEY_LOG_2[c], IsKernel.NUM_BUCKETS_LOG_2[c], IsKernel.TEST_INDEX[c],
                    IsKernel.TEST_RANK[c], buckets);
            r.createSequence(IsKernel.findMySeed(0, 1, 4L << IsKernel.TOTAL_KEYS_LOG_2[c], IsKernel.SEED,
                    IsKernel.MULTIPLIER), IsKernel.MULTIPLIER);
            r.rank(1);
            r.resetVerification();
            for (int i = 1; i <= IsKernel.MAX_ITERATIONS; i++) {
                r.rank(i);
            }
            r.fullVerify();
            out.add(new long[] {r.passedVerification(), r.keyArrayInts(), r.failures().isEmpty() ? 0 : 1});
        });
        long[] result = out.remove();
        int numKeys = 1 << IsKernel.TOTAL_KEYS_LOG_2[CLASS_S];
        assertEquals(IsKernel.TEST_ARRAY_SIZE * IsKernel.MAX_ITERATIONS + 1, result[0], "checks passed");
        assertEquals(0, result[2], "no failure lines");
        long expectedInts = buckets ? 3L * IsRanking.bufferSize(numKeys, 1) : 2L * numKeys;
        assertEquals(expectedInts, result[1],
                buckets ? "the bucket path: the reference's three SIZE_OF_BUFFERS arrays" : "in place: keys and copy");
    }
}
