package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MG's extra untimed V-cycles leave nothing behind: the timed norm is that of a run with the reference's one. */
class MgWarmUpTest {

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads")
    @CsvSource({"1, 1", "1, 2", "2, 1"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void timedNormIsThatOfARunWithTheReferencesOneCycle(int ranks, int threads) {
        KernelResult asReference = SmpRuns.run(new MgKernel(1), 'S', ranks, threads, Duration.ofSeconds(100));
        KernelResult warm = SmpRuns.run(new MgKernel(-1), 'S', ranks, threads, Duration.ofSeconds(100));
        assertEquals(6, MgKernel.warmUpCycles('S'));
        assertTrue(asReference.verified(), asReference.verificationDetail());
        assertTrue(warm.verified(), warm.verificationDetail());
        // The L2 norm and its error as the detail lines print them (14 significant digits).
        assertEquals(asReference.verificationDetail(), warm.verificationDetail());
        assertEquals("1 V-cycle untimed, then initialised again (as the reference)", asReference.warmUp());
        assertEquals("6 V-cycles untimed, then initialised again (reference: 1)", warm.warmUp());
    }

    @Test
    @Timeout(10)
    void largerClassesWarmUpWithFewerCycles() {
        assertEquals(6, MgKernel.warmUpCycles('a'));
        assertEquals(2, MgKernel.warmUpCycles('B'));
        assertEquals(2, MgKernel.warmUpCycles('C'));
    }
}
