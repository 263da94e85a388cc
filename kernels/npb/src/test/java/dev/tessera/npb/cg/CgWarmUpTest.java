package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import dev.tessera.npb.Randlc;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The untimed warm-up iterations leave nothing behind: after {@link CgKernel#warmUp} the
 * solver's next iteration gives exactly (bit for bit) the zeta of a solver that starts cold
 * from x = (1, ..., 1), as the reference's timed iterations do. Verification alone would not
 * notice a missing reset: the power iteration converges, so a warm start still verifies.
 */
@Timeout(120)
class CgWarmUpTest {

    @ParameterizedTest(name = "class S, 1 rank x {0} threads")
    @ValueSource(ints = {1, 2})
    void warmUpThenResetGivesTheColdStartsIteration(int threads) {
        SmpJob.run(1, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            int na = CgKernel.NA[0];
            double shift = CgKernel.SHIFT[0];
            CgGrid grid = new CgGrid(0, 1, na);
            CgMatrix matrix = CgMatrix.generate(na, CgKernel.NONZER[0], CgKernel.RCOND, shift, grid,
                    Randlc.multiply(CgKernel.TRAN, CgKernel.AMULT));

            CgSolver cold = new CgSolver(session.world(), session.team(), grid, matrix, na);
            cold.resetX();
            double first = cold.iterate(shift);
            double second = cold.iterate(shift);

            CgSolver warm = new CgSolver(session.world(), session.team(), grid, matrix, na);
            CgKernel.warmUp(warm, shift, CgKernel.WARM_UP_ITERATIONS[0]);
            assertEquals(first, warm.iterate(shift), 0.0, "zeta of the first iteration after the warm-up");
            assertEquals(second, warm.iterate(shift), 0.0, "zeta of the second iteration after the warm-up");
        });
    }

    @Test
    void theReportNamesTheWarmUpIterations() {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(100),
                session -> result.set(new CgKernel().run(session.world(), session.team(), 'S')));
        assertTrue(result.get().verified());
        assertEquals(CgKernel.WARM_UP_ITERATIONS[0] + " iterations untimed, then x = (1, ..., 1) again (reference: 1)",
                result.get().warmUp());
    }
}
