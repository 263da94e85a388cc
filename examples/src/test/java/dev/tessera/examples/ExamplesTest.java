package dev.tessera.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.runtime.Session;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The shipped examples reach their analytic solutions on 1, 2 and 4 ranks. */
@Timeout(120)
class ExamplesTest {

    private static void runRanks(int ranks, String[] args, Consumer<Session> body) {
        SmpJob.run(ranks, args, Duration.ofSeconds(100), body::accept);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void heat3dConvergesToTheAnalyticSolution(int ranks) {
        AtomicReference<Double> error = new AtomicReference<>();
        runRanks(ranks, new String[] {"--threads", "2"}, rt -> {
            double e = Heat3D.solve(rt.world(), rt.team(), 16, 0.02, false);
            if (rt.rank() == 0) {
                error.set(e);
            }
        });
        assertTrue(error.get() < 0.01, "relative error " + error.get());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void jacobi2dConvergesToTheAnalyticSolution(int ranks) {
        runRanks(ranks, new String[0], rt -> Jacobi2D.solve(rt.world(), 16, 1e-8));
    }
}
