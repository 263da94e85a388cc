package dev.tessera.npb.mg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MG's untimed work beyond the reference's (extra V-cycles, the ghost exchanges and collectives
 * of the message warm-up, the wait for the JIT) leaves nothing behind: the timed norm is, bit for
 * bit, that of a run with the reference's one V-cycle alone.
 */
class MgWarmUpTest {

    private static final String JIT_WAIT = "; then waited for the JIT compilers to be idle";

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads")
    @CsvSource({"1, 1", "1, 2", "2, 1", "4, 1"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void timedNormIsThatOfARunWithTheReferencesOneCycle(int ranks, int threads) {
        MgKernel reference = new MgKernel(1, null, 0);
        MgKernel warmed = new MgKernel(-1, null, 256);
        KernelResult asReference = SmpRuns.run(reference, 'S', ranks, threads, Duration.ofSeconds(100));
        KernelResult warm = SmpRuns.run(warmed, 'S', ranks, threads, Duration.ofSeconds(100));
        assertEquals(6, MgKernel.warmUpCycles('S'));
        assertTrue(asReference.verified(), asReference.verificationDetail());
        assertTrue(warm.verified(), warm.verificationDetail());
        assertEquals(Double.doubleToRawLongBits(reference.lastNorm()), Double.doubleToRawLongBits(warmed.lastNorm()),
                reference.lastNorm() + " against " + warmed.lastNorm());
        assertEquals(asReference.verificationDetail(), warm.verificationDetail());
        // with two or more ranks, the message warm-up and the wait for the JIT; class S splits only its
        // finest level (32^3) over the ranks: one exchange of it per round
        // with two or more threads, the team's warm-up first (300 rounds of 6 regions)
        String wait = ranks > 1 ? JIT_WAIT : "";
        String exchanges = ranks > 1 ? "; 256 ghost exchanges untimed" : "";
        String team = threads > 1 ? "; " + 6 * MgKernel.TEAM_WARM_ROUNDS + " team regions on scratch blocks untimed" : "";
        assertEquals("1 V-cycle untimed, then initialised again (as the reference)" + team + wait, asReference.warmUp());
        assertEquals("6 V-cycles untimed, then initialised again (reference: 1)" + team + exchanges + wait, warm.warmUp());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void finerSplitLevelsAreExchangedAQuarterAsOftenAsTheNextCoarser() {
        // class W at 2 x 1: levels 5, 6 and 7 (32^3 .. 128^3) split, 4 and below replicated;
        // 256 rounds: 256 exchanges of level 5, 64 of level 6, 16 of level 7
        MgKernel kernel = new MgKernel(1, null, 256);
        KernelResult r = SmpRuns.run(kernel, 'W', 2, 1, Duration.ofSeconds(100));
        assertTrue(r.verified(), r.verificationDetail());
        assertEquals("1 V-cycle untimed, then initialised again (as the reference); 336 ghost exchanges untimed"
                + JIT_WAIT, r.warmUp());
    }

    @Test
    @Timeout(10)
    void largerClassesWarmUpWithFewerCycles() {
        assertEquals(6, MgKernel.warmUpCycles('a'));
        assertEquals(2, MgKernel.warmUpCycles('B'));
        assertEquals(2, MgKernel.warmUpCycles('C'));
    }

    @Test
    @Timeout(10)
    void theWarmUpTextNamesWhatRan() {
        assertEquals("6 V-cycles untimed, then initialised again (reference: 1)", MgKernel.warmUpText(6, 0, 0, false));
        assertEquals("2 V-cycles untimed, then initialised again (reference: 1); 5313 ghost exchanges untimed"
                + JIT_WAIT, MgKernel.warmUpText(2, 0, 5313, true));
        assertEquals("6 V-cycles untimed, then initialised again (reference: 1); 1800 team regions on scratch blocks untimed",
                MgKernel.warmUpText(6, 1800, 0, false));
    }

    @Test
    @Timeout(10)
    void aNegativeExchangeWarmUpIsRefused() {
        String before = System.getProperty("tessera.npb.mg.exchangeWarmUp");
        System.setProperty("tessera.npb.mg.exchangeWarmUp", "-1");
        try {
            assertThrows(IllegalArgumentException.class, MgKernel::exchangeWarmUpFromProperty);
        } finally {
            if (before == null) {
                System.clearProperty("tessera.npb.mg.exchangeWarmUp");
            } else {
                System.setProperty("tessera.npb.mg.exchangeWarmUp", before);
            }
        }
        assertEquals(MgKernel.EXCHANGE_WARM_UP, MgKernel.exchangeWarmUpFromProperty());
    }
}
