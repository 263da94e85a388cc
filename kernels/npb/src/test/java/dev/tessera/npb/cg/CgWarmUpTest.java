package dev.tessera.npb.cg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
            CgKernel.WarmUp w = CgKernel.warmUp(warm, session.world(), shift, CgKernel.WARM_UP_ITERATIONS[0],
                    CgKernel.MESSAGE_WARM_UP_ROUNDS[0], CgKernel.SETTLE_ITERATIONS_MAX[0]);
            assertTrue(w.settleIterations() >= 1 && w.settleIterations() <= CgKernel.SETTLE_ITERATIONS_MAX[0],
                    "settling iterations " + w.settleIterations());
            assertEquals(first, warm.iterate(shift), 0.0, "zeta of the first iteration after the warm-up");
            assertEquals(second, warm.iterate(shift), 0.0, "zeta of the second iteration after the warm-up");
        });
    }

    /**
     * At two processes with the pair product the warm-up first runs rounds of an iteration's
     * messages (CgRankPair.warmUpMessages); afterwards the solver still gives the cold start's
     * zeta bit for bit on both processes, so no message of those rounds is left for the
     * iterations to receive and the processes agree on the rounds.
     */
    @Test
    void messageRoundsThenWarmUpGiveTheColdStartsIterationAtTwoProcesses() {
        double[][] zetas = new double[2][4];
        int[] rounds = new int[2];
        int[] settles = new int[2];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            int me = session.world().rank();
            int na = CgKernel.NA[0];
            double shift = CgKernel.SHIFT[0];
            CgGrid grid = new CgGrid(me, 2, na);
            CgMatrix matrix = CgMatrix.generate(na, CgKernel.NONZER[0], CgKernel.RCOND, shift, grid,
                    Randlc.multiply(CgKernel.TRAN, CgKernel.AMULT));

            CgSolver cold = new CgSolver(session.world(), session.team(), grid, matrix, na / grid.nprows);
            assertTrue(cold.pairProduct(), "2 x 1 takes the pair product");
            cold.resetX();
            zetas[me][0] = cold.iterate(shift);
            zetas[me][1] = cold.iterate(shift);

            CgSolver warm = new CgSolver(session.world(), session.team(), grid, matrix, na / grid.nprows);
            CgKernel.WarmUp w = CgKernel.warmUp(warm, session.world(), shift, CgKernel.WARM_UP_ITERATIONS[0],
                    CgKernel.MESSAGE_WARM_UP_ROUNDS[0], CgKernel.SETTLE_ITERATIONS_MAX[0]);
            rounds[me] = w.messageRounds();
            settles[me] = w.settleIterations();
            zetas[me][2] = warm.iterate(shift);
            zetas[me][3] = warm.iterate(shift);
        });
        for (int me = 0; me < 2; me++) {
            assertEquals(CgKernel.MESSAGE_WARM_UP_ROUNDS[0], rounds[me], "message rounds on process " + me);
            assertEquals(zetas[me][0], zetas[me][2], 0.0, "process " + me + ": first iteration after the warm-up");
            assertEquals(zetas[me][1], zetas[me][3], 0.0, "process " + me + ": second iteration after the warm-up");
        }
        assertEquals(zetas[0][0], zetas[1][0], 0.0, "the same zeta on both processes");
        assertEquals(settles[0], settles[1], "both processes ran the same settling iterations");
    }

    @Test
    void theReportNamesTheWarmUpIterations() {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(100),
                session -> result.set(new CgKernel().run(session.world(), session.team(), 'S')));
        assertTrue(result.get().verified());
        String text = result.get().warmUp();
        assertTrue(text.matches(CgKernel.WARM_UP_ITERATIONS[0] + " iterations untimed, ([1-9]|1[0-2]) more until one left the JIT idle,"
                + " then x = \\(1, \\.\\.\\., 1\\) again \\(reference: 1\\)"), text);
    }

    @Test
    void thePropertySetsTheMostSettlingIterationsAndZeroTurnsThemOff() {
        String saved = System.getProperty(CgKernel.SETTLE_PROPERTY);
        try {
            System.clearProperty(CgKernel.SETTLE_PROPERTY);
            assertEquals(CgKernel.SETTLE_ITERATIONS_MAX[3], CgKernel.settleIterationsMax(3));
            System.setProperty(CgKernel.SETTLE_PROPERTY, "0");
            assertEquals(0, CgKernel.settleIterationsMax(0));
            AtomicReference<KernelResult> result = new AtomicReference<>();
            SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(100),
                    session -> result.set(new CgKernel().run(session.world(), session.team(), 'S')));
            assertEquals(CgKernel.WARM_UP_ITERATIONS[0] + " iterations untimed, then x = (1, ..., 1) again (reference: 1)",
                    result.get().warmUp());
            System.setProperty(CgKernel.SETTLE_PROPERTY, "-2");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CgKernel.settleIterationsMax(0));
            assertEquals("CG: tessera.npb.cg.settleIterations must be >= 0, got -2", e.getMessage());
        } finally {
            if (saved == null) {
                System.clearProperty(CgKernel.SETTLE_PROPERTY);
            } else {
                System.setProperty(CgKernel.SETTLE_PROPERTY, saved);
            }
        }
    }
}
