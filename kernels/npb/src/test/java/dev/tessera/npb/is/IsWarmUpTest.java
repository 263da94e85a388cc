package dev.tessera.npb.is;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * IS ranks 40 times untimed for classes S, W and A at every number of ranks (each rank's JVM
 * compiles the bucket sort while the other ranks run): class S verifies at one and two ranks and
 * its report says how many rankings ran untimed.
 */
@Timeout(120)
class IsWarmUpTest {

    @ParameterizedTest(name = "{0} ranks")
    @CsvSource({"1, 40", "2, 40"})
    void untimedRankingsAreTheSameAtEveryNumberOfRanks(int ranks, int untimed) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            KernelResult r = new IsKernel().run(session.world(), session.team(), 'S');
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        KernelResult r = result.get();
        assertTrue(r.verified(), r.verificationDetail());
        assertEquals(untimed + " rankings untimed (reference: 1)", r.warmUp());
        assertEquals(untimed, IsKernel.warmUpIterations(0));
    }
}
