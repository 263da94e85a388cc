package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IS's population count and prefix sum on one rank's team: with several members each counts
 * into 16-bit counters; a counter that would wrap (more than 65535 keys of one value in a
 * member's block) must not give wrong ranks, the count is redone with ints.
 */
@Timeout(120)
class IsNarrowCountTest {

    private static final int CLASS_S = 0;
    private static final int RANGE = 1 << 11;

    /** Inclusive prefix sums of the populations of keys[0, n) - min over [0, range). */
    private static int[] expected(int[] keys, int n, int min, int range) {
        int[] c = new int[range];
        for (int i = 0; i < n; i++) {
            c[keys[i] - min]++;
        }
        for (int i = 1; i < range; i++) {
            c[i] += c[i - 1];
        }
        return c;
    }

    private static int[] count(int threads, int[] keys, int min, AtomicBoolean wide) {
        AtomicReference<int[]> out = new AtomicReference<>();
        SmpJob.run(1, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            IsRanking r = new IsRanking(session.world(), session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[CLASS_S],
                    IsKernel.MAX_KEY_LOG_2[CLASS_S], IsKernel.NUM_BUCKETS_LOG_2[CLASS_S], IsKernel.TEST_INDEX[CLASS_S],
                    IsKernel.TEST_RANK[CLASS_S]);
            // twice: the second count starts from the tables the first one left
            r.countForTest(keys, keys.length, min, RANGE);
            out.set(Arrays.copyOf(r.countForTest(keys, keys.length, min, RANGE), RANGE));
            wide.set(r.recountedWide());
        });
        return out.get();
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3})
    void spreadKeysAreCountedWithSixteenBitCounters(int threads) {
        Random random = new Random(22);
        int[] keys = new int[300_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = 5 + random.nextInt(RANGE);
        }
        AtomicBoolean wide = new AtomicBoolean();
        assertArrayEquals(expected(keys, keys.length, 5, RANGE), count(threads, keys, 5, wide));
        assertEquals(false, wide.get(), "no counter wrapped, no recount");
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {1, 2, 3})
    void aValueHeldMoreThan65535TimesIsCountedRight(int threads) {
        int[] keys = new int[400_000];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = i % 10 == 0 ? 7 + i % RANGE : 1000; // about 360000 keys of one value
        }
        AtomicBoolean wide = new AtomicBoolean();
        assertArrayEquals(expected(keys, keys.length, 7, RANGE), count(threads, keys, 7, wide));
        assertEquals(threads > 1, wide.get(), "16-bit counters wrapped and the count was redone with ints");
    }
}
