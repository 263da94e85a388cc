package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

/** FT's untimed time steps and extra setups leave nothing behind: the timed checksums are those of a run without them. */
class FtWarmUpTest {

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads")
    @CsvSource({"1, 1", "1, 2", "2, 1"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void timedChecksumsAreThoseOfARunWithoutTheWarmUpStep(int ranks, int threads) {
        KernelResult cold = run(ranks, threads, 0);
        KernelResult warm = run(ranks, threads, -1);
        assertEquals(6, FtKernel.warmUpSteps('S'));
        assertTrue(cold.verified(), cold.verificationDetail());
        assertTrue(warm.verified(), warm.verificationDetail());
        // The six checksums as the detail lines print them (13 significant digits).
        assertEquals(cold.verificationDetail(), warm.verificationDetail());
        assertEquals("setup and forward FFT once untimed (as the reference)", cold.warmUp());
        assertEquals("setup and forward FFT, then 6 time steps (evolve, inverse FFT, checksum), then setup and forward"
                + " FFT 2 more times untimed (reference: setup and forward FFT)", warm.warmUp());
    }

    @Test
    @Timeout(10)
    void largerClassesWarmUpWithFewerSteps() {
        assertEquals(6, FtKernel.warmUpSteps('a'));
        assertEquals(2, FtKernel.warmUpSteps('B'));
        assertEquals(2, FtKernel.warmUpSteps('C'));
        assertEquals(2, FtKernel.warmUpSetups('a'));
        assertEquals(0, FtKernel.warmUpSetups('B'));
        assertEquals(0, FtKernel.warmUpSetups('C'));
        assertEquals("setup and forward FFT, then 1 time step (evolve, inverse FFT, checksum) untimed"
                + " (reference: setup and forward FFT)", FtKernel.warmUpText(1, 0));
    }

    /** warmUpSteps -1: the class's default. */
    private static KernelResult run(int ranks, int threads, int warmUpSteps) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            KernelResult r = new FtKernel(0, warmUpSteps).run(session.world(), session.team(), 'S');
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        return result.get();
    }
}
