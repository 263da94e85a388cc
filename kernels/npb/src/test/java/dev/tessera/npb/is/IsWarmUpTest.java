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
 * IS ranks 10 times untimed at one rank and, with more ranks, 40 times for classes S, W and A
 * (each rank's JVM compiles the bucket sort while the other ranks run): class S verifies either
 * way and its report says how many rankings ran untimed.
 */
@Timeout(120)
class IsWarmUpTest {

    @ParameterizedTest(name = "{0} ranks")
    @CsvSource({"1, 10", "2, 40"})
    void untimedRankingsDependOnTheNumberOfRanks(int ranks, int untimed) {
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
        assertEquals(untimed, IsKernel.warmUpIterations(0, ranks));
    }
}
