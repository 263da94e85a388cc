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

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesOnEightRanks() {
        // 2 x 2 x 2 ranks: every rank owns exactly one point of the coarsest level.
        assertTrue(run(8, 1, 'S').verified());
    }

    @Test
    @Timeout(10)
    void checkRefusesRankCountsThatAreNotPowersOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('S', 6));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void checkRefusesRanksThatWouldIdleOnTheCoarsestLevel() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MgKernel().check('A', 16));
        assertTrue(e.getMessage().contains("coarsest level"), e.getMessage());
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
