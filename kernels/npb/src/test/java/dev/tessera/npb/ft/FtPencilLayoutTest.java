package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The 2D (pencil) layout, which the reference picks by itself only for np > nz (128 ranks
 * for class S), forced on small process grids as its inputft.data allows.
 */
class FtPencilLayoutTest {

    @ParameterizedTest(name = "class S on a {0} x {1} process grid, {2} threads, verifies")
    @CsvSource({"2, 1, 1", "2, 2, 1", "4, 2, 2", "2, 4, 1"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesOnAPencilGrid(int np1, int np2, int threads) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(np1 * np2, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            KernelResult r = new FtKernel(np1).run(session.world(), session.team(), 'S');
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        assertTrue(result.get().verified(), result.get().verificationDetail());
    }
}
