package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tessera.launch.SmpJob;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * With several ranks, IS counts a rank's own keys where the bucket sort put them (never sent
 * to itself) and then the keys received: two off-heap segments read as one sequence. The
 * members' blocks of that sequence cross from one segment into the other at any point; the
 * counts must equal those of the keys laid end to end, for 1, 2 and 3 members, whichever
 * segment is empty. The whole ranking with the self part left out of the alltoallv is
 * checked by NPB's own verification at 2 and 4 ranks (KernelVerificationTest, ProcessDeviceTest).
 */
@Timeout(120)
class IsOwnKeysTest {

    private static final int CLASS_S = 0;
    private static final int RANGE = 1 << 11;
    private static final int MIN = 9;

    private static int[] expected(int[] keys) {
        int[] c = new int[RANGE];
        for (int key : keys) {
            c[key - MIN]++;
        }
        for (int i = 1; i < RANGE; i++) {
            c[i] += c[i - 1];
        }
        return c;
    }

    /** keys[0, split) at element aFrom of one segment, keys[split, n) at element bFrom of another. */
    private static IsRanking.Keys twoSegments(int[] keys, int split, int aFrom, int bFrom) {
        Arena arena = Arena.ofAuto();
        MemorySegment a = arena.allocate((long) Integer.BYTES * (aFrom + split + 3));
        MemorySegment b = arena.allocate((long) Integer.BYTES * (bFrom + keys.length - split + 3));
        // Keys outside the range around each part: counting one of them would fail the count
        // (or throw), so reading past a part's end shows.
        a.fill((byte) 0x7f);
        b.fill((byte) 0x7f);
        MemorySegment.copy(keys, 0, a, ValueLayout.JAVA_INT, (long) Integer.BYTES * aFrom, split);
        MemorySegment.copy(keys, split, b, ValueLayout.JAVA_INT, (long) Integer.BYTES * bFrom, keys.length - split);
        return new IsRanking.Keys(a, aFrom, split, b, bFrom, keys.length - split);
    }

    /** The counts; asserts that they took no recount (a miscount by the 16-bit tables would be redone wide). */
    private static int[] count(int threads, IsRanking.Keys keys) {
        AtomicReference<int[]> out = new AtomicReference<>();
        AtomicBoolean wide = new AtomicBoolean();
        SmpJob.run(1, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            IsRanking r = new IsRanking(session.world(), session.team(), 'S', IsKernel.TOTAL_KEYS_LOG_2[CLASS_S],
                    IsKernel.MAX_KEY_LOG_2[CLASS_S], IsKernel.NUM_BUCKETS_LOG_2[CLASS_S], IsKernel.TEST_INDEX[CLASS_S],
                    IsKernel.TEST_RANK[CLASS_S]);
            out.set(Arrays.copyOf(r.countForTest(keys, MIN, RANGE), RANGE));
            wide.set(r.recountedWide());
        });
        assertFalse(wide.get(), "the 16-bit count added up without a recount");
        return out.get();
    }

    @ParameterizedTest(name = "{0} threads, own keys {1} of 100001")
    @CsvSource({"1, 40000", "2, 40000", "2, 50000", "2, 70001", "3, 1", "3, 33334", "3, 99999", "2, 0", "2, 100001",
        "1, 0", "1, 100001"})
    void ownAndReceivedKeysAreCountedAsOneSequence(int threads, int split) {
        Random random = new Random(34);
        int[] keys = new int[100_001];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = MIN + random.nextInt(RANGE);
        }
        assertArrayEquals(expected(keys), count(threads, twoSegments(keys, split, 17, 5)));
    }

    @Test
    void keyNumbersRunThroughBothSegments() {
        int[] keys = {11, 12, 13, 14, 15};
        IsRanking.Keys k = twoSegments(keys, 2, 4, 1);
        int[] read = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            read[i] = k.get(i);
        }
        assertArrayEquals(keys, read);
        assertEquals(5, k.total);
    }
}
