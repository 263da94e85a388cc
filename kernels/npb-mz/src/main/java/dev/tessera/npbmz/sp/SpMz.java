package dev.tessera.npbmz.sp;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ReferenceNorms;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.npbmz.ZoneLayout;
import dev.tessera.npbmz.ZoneSolver;

/**
 * SP-MZ: NPB's SP solver (scalar penta-diagonal ADI) on x_zones x y_zones equal zones.
 *
 * <p>Classes, from NPB3.4-MZ-MPI/sys/setparams.c (write_sp_info): grid, zones, iterations
 * and dt. Verification values and the tolerance 1e-8 from SP-MZ/verify.f; the operation
 * count per zone and iteration from SP-MZ/sp.f ({@code 881.174 n3 - 4683.91 nsur + 11484.5
 * navg - 19272.4}).
 */
public final class SpMz implements ZoneBenchmark {

    /** Relative tolerance of the verification (verify.f, epsilon). */
    static final double EPSILON = 1.0e-8;

    @Override
    public String name() {
        return "SP-MZ";
    }

    @Override
    public MzProblem problem(char c) {
        return switch (Character.toUpperCase(c)) {
            case 'S' -> new MzProblem('S', 24, 24, 6, 2, 2, 100, 0.015);
            case 'W' -> new MzProblem('W', 64, 64, 8, 4, 4, 400, 0.0015);
            case 'A' -> new MzProblem('A', 128, 128, 16, 4, 4, 400, 0.0015);
            case 'B' -> new MzProblem('B', 304, 208, 17, 8, 8, 400, 0.001);
            case 'C' -> new MzProblem('C', 480, 320, 28, 16, 16, 400, 0.00067);
            default -> throw new IllegalArgumentException("SP-MZ has no class '" + c + "' (valid: S, W, A, B, C)");
        };
    }

    @Override
    public boolean unevenZones() {
        return false;
    }

    @Override
    public ZoneSolver newZone(MzProblem problem, int nx, int ny, int nz) {
        return new SpZone(new SpConstants(problem), nx, ny, nz);
    }

    /** Reference values (verify.f): dt, iterations, 5 residual norms, 5 error norms. */
    private static ReferenceNorms reference(char c) {
        return switch (c) {
            case 'S' -> new ReferenceNorms(1.5e-2, 100,
                    new double[] {0.7698876173566e+01, 0.1517766790280e+01, 0.2686805141546e+01, 0.1893688083690e+01,
                        0.1369739859738e+02},
                    new double[] {0.9566808043467e+01, 0.3894109553741e+01, 0.4516022447464e+01, 0.4099103995615e+01,
                        0.7776038881521e+01});
            case 'W' -> new ReferenceNorms(1.5e-3, 400,
                    new double[] {0.1887636218359e+03, 0.1489637963542e+02, 0.4851711701400e+02, 0.3384633608154e+02,
                        0.4036632495857e+03},
                    new double[] {0.2975895149929e+02, 0.1341508175806e+02, 0.1585310846491e+02, 0.1450916426713e+02,
                        0.5854137431023e+02});
            case 'A' -> new ReferenceNorms(1.5e-3, 400,
                    new double[] {0.2800097900548e+03, 0.2268349014438e+02, 0.7000852739901e+02, 0.5000771004061e+02,
                        0.5552068537578e+03},
                    new double[] {0.3112046666578e+02, 0.1172197785348e+02, 0.1486616708032e+02, 0.1313680576292e+02,
                        0.7365834058154e+02});
            case 'B' -> new ReferenceNorms(1.0e-3, 400,
                    new double[] {0.5190422977921e+04, 0.3655458539065e+03, 0.1261126592633e+04, 0.1002038338842e+04,
                        0.1075902511165e+05},
                    new double[] {0.5469182054223e+03, 0.4983658028989e+02, 0.1418301776602e+03, 0.1097717156175e+03,
                        0.1260195162174e+04});
            case 'C' -> new ReferenceNorms(0.67e-3, 400,
                    new double[] {0.5886814493676e+05, 0.3967324375474e+04, 0.1444126529019e+05, 0.1210582211196e+05,
                        0.1278941567976e+06},
                    new double[] {0.6414069213021e+04, 0.4069468353404e+03, 0.1585311908719e+04, 0.1270243185759e+04,
                        0.1441398372869e+05});
            default -> null;
        };
    }

    @Override
    public Verification verify(MzProblem problem, double[] norms) {
        return ReferenceNorms.verify(name(), problem, norms, EPSILON, reference(problem.problemClass()));
    }

    @Override
    public double mops(MzProblem problem, double seconds) {
        if (seconds <= 0) {
            return 0.0;
        }
        ZoneLayout layout = ZoneLayout.of(problem, zoneRatio(problem));
        double mflops = 0.0;
        for (int zone = 0; zone < layout.zones(); zone++) {
            double nx = layout.nx(zone);
            double ny = layout.ny(zone);
            double nz = layout.nz(zone);
            double n3 = nx * ny * nz;
            double navg = (nx + ny + nz) / 3.0;
            double nsur = (nx * ny + nx * nz + ny * nz) / 3.0;
            mflops += problem.iterations() * 1.0e-6 * (881.174 * n3 - 4683.91 * nsur + 11484.5 * navg - 19272.4) / seconds;
        }
        return mflops;
    }
}
