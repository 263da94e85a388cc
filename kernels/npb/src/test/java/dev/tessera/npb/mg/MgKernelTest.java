package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MgKernelTest {

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads verifies")
    @CsvSource({"1, 1", "1, 2", "2, 1", "2, 2", "4, 1", "4, 2"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifies(int ranks, int threads) {
        KernelResult r = run(ranks, threads, 'S');
        assertTrue(r.verified(), r.verificationDetail());
        assertEquals("MG", r.name());
        assertEquals("32x32x32", r.size());
        assertEquals(4, r.iterations());
        assertTrue(r.mops() > 0);
    }

    @ParameterizedTest(name = "class S on {0} ranks verifies (coarse levels replicated)")
    @CsvSource({"8", "16"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesWhereCoarseLevelsHaveFewerPointsThanRanks(int ranks) {
        // 8: 2 x 2 x 2 ranks, levels 1 replicated; 16: 2 x 2 x 4 ranks, levels 1 and 2 replicated.
        KernelResult r = run(ranks, 1, 'S');
        assertTrue(r.verified(), r.verificationDetail());
    }

    @Test
    @Timeout(10)
    void checkRefusesRankCountsThatAreNotPowersOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('S', 6));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void checkRefusesRanksThatWouldLeaveTheFinestLevelWithOnePointAlongAnAxis() {
        // 8192 ranks: a 16 x 16 x 32 grid, 32 ranks along z for the 32 points of class S.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('S', 8192));
        assertTrue(e.getMessage().contains("at least 2 points"), e.getMessage());
        new MgKernel().check('S', 4096);
    }

    @Test
    @Timeout(10)
    void checkRefusesUnknownClassLetters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('X', 1));
        assertTrue(e.getMessage().contains("'X'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('E', 1));
    }

    @Test
    @Timeout(10)
    void checkAcceptsWhatTheReferenceRuns() {
        new MgKernel().check('S', 1);
        new MgKernel().check('b', 8);
    }

    @Test
    @Timeout(10)
    void heapFootprintOfClassBAtOneRankIsItsArraysAndFitsInFourGiB() {
        double gib = new MgKernel().heapBytesPerRank('B', 1, 1) / (double) (1L << 30);
        assertTrue(gib > 0.4 && gib < 0.75, "class B footprint " + gib + " GiB");
        assertTrue(new MgKernel().heapBytesPerRank('B', 2, 1) < new MgKernel().heapBytesPerRank('B', 1, 1) * 0.8);
    }

    private static KernelResult run(int ranks, int threads, char cls) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            KernelResult r = new MgKernel().run(session.world(), session.team(), cls);
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        return result.get();
    }
}
