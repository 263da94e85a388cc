package dev.tessera.npb.ep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * EP's counts of Gaussian pairs per square annulus, which NPB's verification does not check
 * (it checks the two sums only), against what NPB3.4-MPI's ep.S prints (mpirun -np 1, gfortran
 * -O3): each member counts into an array of its own and the rank adds them up.
 */
class EpCountsTest {

    /** NPB3.4-MPI EP class S, "Counts:" (13176389 pairs in all). */
    private static final long[] REFERENCE_S = {6140517, 5865300, 1100361, 68546, 1648, 17, 0, 0, 0, 0};

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads")
    @CsvSource({"1, 1", "1, 2", "2, 1", "2, 2"})
    @Timeout(120)
    void annulusCountsAreTheReferences(int ranks, int threads) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            KernelResult r = new EpKernel().run(session.world(), session.team(), 'S');
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        String detail = result.get().verificationDetail();
        assertTrue(detail.contains("No. Gaussian Pairs =        13176389"), detail);
        long[] counts = new long[EpKernel.NQ];
        Matcher m = Pattern.compile("(?m)^\\s*(\\d)\\s+(\\d+)$").matcher(detail);
        int found = 0;
        while (m.find()) {
            counts[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2));
            found++;
        }
        assertTrue(found == EpKernel.NQ, detail);
        assertArrayEquals(REFERENCE_S, counts, detail);
    }
}
