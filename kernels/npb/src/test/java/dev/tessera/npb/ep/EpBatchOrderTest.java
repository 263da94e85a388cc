package dev.tessera.npb.ep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npb.KernelResult;
import dev.tessera.npb.SmpRuns;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Inside a rank, EP's members claim batches from a shared counter (whichever member is free
 * takes the next), and the sums are added up per batch in batch order: the result does not
 * depend on how many threads there are or on which member ran which batch.
 */
class EpBatchOrderTest {

    @Test
    @Timeout(120)
    void sumsAreTheSameBitForBitAtOneTwoAndThreeThreads() {
        double[] one = sums(1);
        for (int threads : new int[] {2, 3}) {
            double[] more = sums(threads);
            assertEquals(Double.doubleToRawLongBits(one[0]), Double.doubleToRawLongBits(more[0]),
                    "sx at 1 thread " + one[0] + ", at " + threads + " threads " + more[0]);
            assertEquals(Double.doubleToRawLongBits(one[1]), Double.doubleToRawLongBits(more[1]),
                    "sy at 1 thread " + one[1] + ", at " + threads + " threads " + more[1]);
        }
    }

    private static double[] sums(int threads) {
        EpKernel kernel = new EpKernel();
        KernelResult r = SmpRuns.run(kernel, 'S', 1, threads);
        assertTrue(r.verified(), r.verificationDetail());
        return kernel.lastSums();
    }
}
