package dev.tessera.npb.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * EP's untimed warm-up batches (not in the reference) run on counters and sums of their own: the
 * timed part's sums and counts are those of a run without them, bit for bit, and the report says
 * what ran.
 */
class EpWarmUpTest {

    @Test
    @Timeout(120)
    void theWarmUpLeavesTheSumsAndCountsAsWithoutIt() {
        EpKernel cold = new EpKernel(0);
        KernelResult without = SmpRuns.run(cold, 'S', 2, 2);
        EpKernel warm = new EpKernel(3);
        KernelResult with = SmpRuns.run(warm, 'S', 2, 2);
        assertTrue(without.verified(), without.verificationDetail());
        assertTrue(with.verified(), with.verificationDetail());
        assertEquals(Double.doubleToRawLongBits(cold.lastSums()[0]), Double.doubleToRawLongBits(warm.lastSums()[0]));
        assertEquals(Double.doubleToRawLongBits(cold.lastSums()[1]), Double.doubleToRawLongBits(warm.lastSums()[1]));
        // the counts per annulus are printed in the detail; the sums' line too
        assertEquals(without.verificationDetail().replaceAll("CPU Time = +[0-9.]+", ""),
                with.verificationDetail().replaceAll("CPU Time = +[0-9.]+", ""));
        assertEquals("none, batch buffers touched (as the reference)", without.warmUp());
        // 3 per thread at 2 threads: 6 of the rank's 128 batches of class S
        assertTrue(with.warmUp().matches("6 batches of 2\\^17 numbers untimed, [1-4] rounds? \\(again while the JIT"
                + " compiled, at most 4\\) \\(reference: none\\)"), with.warmUp());
    }

    @Test
    void theReportSaysWhatRan() {
        assertEquals("1 batch of 2^17 numbers untimed, 1 round (again while the JIT compiled, at most 4) (reference: none)",
                EpKernel.warmUpText(1, 1));
        assertEquals("16 batches of 2^17 numbers untimed, 3 rounds (again while the JIT compiled, at most 4)"
                + " (reference: none)", EpKernel.warmUpText(16, 3));
    }
}
