package dev.tessera.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorSpec;
import dev.tessera.gpu.Accelerators;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.IndexBox;
import dev.tessera.launch.SmpJob;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Heat3DGpu reaches the analytic solution on 1, 2 and 4 ranks, and gives the CPU Heat3D's
 * answer: relative errors equal within 1e-12 (relative), on OpenCL (PoCL in CI) and on the
 * CPU fallback backend.
 */
@Timeout(150)
class Heat3DGpuTest {

    private static final double SAME_ANSWER = 1e-12;

    @ParameterizedTest(name = "{0}, {1} ranks")
    @CsvSource({"opencl, 1", "opencl, 2", "opencl, 4", "cpu, 2"})
    void matchesTheCpuSolverAndTheAnalyticSolution(String accel, int ranks) {
        Backend backend = Backend.fromId(accel);
        assumeTrue(Accelerators.probe(backend).isAvailable(),
                () -> accel + " unavailable here: " + Accelerators.probe(backend).unavailableReason());
        AtomicReference<double[]> errors = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", "1", "--accel", accel}, Duration.ofSeconds(120), session -> {
            double cpu = Heat3D.solve(session.world(), session.team(), 16, 0.02, false);
            try (Accelerator acc = Accelerators.forRank(session)) {
                assertEquals(backend, acc.backend());
                Heat3DGpu.Result gpu = Heat3DGpu.solve(session.world(), acc, 16, 0.02, false);
                if (session.rank() == 0) {
                    errors.set(new double[] {cpu, gpu.relativeError()});
                }
            }
        });
        double cpu = errors.get()[0];
        double gpu = errors.get()[1];
        assertTrue(gpu < 0.01, "relative error against the analytic solution " + gpu);
        assertEquals(cpu, gpu, SAME_ANSWER * cpu, "Heat3D " + cpu + " vs Heat3DGpu " + gpu);
    }

    @Test
    void theShellBoxesCoverTheFaceCellsOnce() {
        for (int[] e : new int[][] {{5, 4, 3}, {1, 3, 2}, {2, 2, 2}, {1, 1, 1}}) {
            int[][][] hits = new int[e[0] + 2][e[1] + 2][e[2] + 2];
            List<IndexBox> shell = Heat3DGpu.shell(e);
            for (IndexBox b : shell) {
                for (int i = b.lo()[0]; i < b.hi()[0]; i++) {
                    for (int j = b.lo()[1]; j < b.hi()[1]; j++) {
                        for (int k = b.lo()[2]; k < b.hi()[2]; k++) {
                            hits[i][j][k]++;
                        }
                    }
                }
            }
            for (int i = 1; i <= e[0]; i++) {
                for (int j = 1; j <= e[1]; j++) {
                    for (int k = 1; k <= e[2]; k++) {
                        boolean face = i == 1 || i == e[0] || j == 1 || j == e[1] || k == 1 || k == e[2];
                        assertEquals(face ? 1 : 0, hits[i][j][k], "cell " + i + "," + j + "," + k + " of " + e[0] + "x"
                                + e[1] + "x" + e[2]);
                    }
                }
            }
        }
    }

    @Test
    void theCpuFallbackRunsTheSameProgram() {
        SmpJob.run(1, new String[] {"--threads", "2"}, Duration.ofSeconds(60), session -> {
            try (Accelerator acc = Accelerators.forRank(session, AcceleratorSpec.parse("cpu"))) {
                double overlapped = Heat3DGpu.solve(session.world(), acc, 12, 0.01, false, true).relativeError();
                double sequential = Heat3DGpu.solve(session.world(), acc, 12, 0.01, false, false).relativeError();
                assertTrue(overlapped < 0.01, "relative error " + overlapped);
                assertEquals(overlapped, sequential, 0.0, "the overlap changes when, not what");
            }
        });
    }
}
