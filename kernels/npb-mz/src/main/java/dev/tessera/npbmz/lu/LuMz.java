package dev.tessera.npbmz.lu;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.npbmz.ZoneSolver;
import java.util.Objects;

/**
 * LU-MZ: the LU benchmark (SSOR on five coupled nonlinear PDEs) applied to a 4 x 4 tiling of
 * equal zones, with the zones' boundary values exchanged before every iteration.
 *
 * <p>Classes (reference: NPB3.4-MZ sys/setparams.c, write_lu_info): always 4 x 4 zones of
 * equal size (ratio 1), and
 * <pre>
 *   class   gx x gy x gz     itmax   dt
 *   S        24 x  24 x  6     50    0.5
 *   W        64 x  64 x  8    300    1.5e-3
 *   A       128 x 128 x 16    250    2.0
 *   B       304 x 208 x 17    250    2.0
 *   C       480 x 320 x 28    250    2.0
 * </pre>
 * omega is 1.2 for every class (lu_data.f). Verification values and tolerance: verify.f
 * ({@link LuVerification}). Operation count: lu.f's Mop/s formula, summed over zones.
 */
public final class LuMz implements ZoneBenchmark {

    /** Zones in x and in y, every class. */
    static final int ZONES_PER_SIDE = 4;

    public LuMz() {
    }

    @Override
    public String name() {
        return "LU-MZ";
    }

    @Override
    public MzProblem problem(char c) {
        char k = Character.toUpperCase(c);
        return switch (k) {
            case 'S' -> new MzProblem('S', 24, 24, 6, ZONES_PER_SIDE, ZONES_PER_SIDE, 50, 0.5);
            case 'W' -> new MzProblem('W', 64, 64, 8, ZONES_PER_SIDE, ZONES_PER_SIDE, 300, 1.5e-3);
            case 'A' -> new MzProblem('A', 128, 128, 16, ZONES_PER_SIDE, ZONES_PER_SIDE, 250, 2.0);
            case 'B' -> new MzProblem('B', 304, 208, 17, ZONES_PER_SIDE, ZONES_PER_SIDE, 250, 2.0);
            case 'C' -> new MzProblem('C', 480, 320, 28, ZONES_PER_SIDE, ZONES_PER_SIDE, 250, 2.0);
            default -> throw new IllegalArgumentException("LU-MZ: unknown class '" + c + "' (valid: S, W, A, B, C)");
        };
    }

    @Override
    public boolean unevenZones() {
        return false;
    }

    @Override
    public ZoneSolver newZone(MzProblem problem, int nx, int ny, int nz) {
        return new LuZone(Objects.requireNonNull(problem, "problem"), nx, ny, nz);
    }

    @Override
    public Verification verify(MzProblem problem, double[] norms) {
        return LuVerification.verify(Objects.requireNonNull(problem, "problem"), norms);
    }

    /**
     * lu.f: per zone itmax * 1e-6 * (1984.77 n3 - 10923.3 nsur + 27770.9 navg - 144010) / t with
     * n3 = nx ny nz, navg = (nx + ny + nz) / 3, nsur = (nx ny + nx nz + ny nz) / 3, summed over
     * the zones of zone_setup.f's equal split.
     */
    @Override
    public double mops(MzProblem problem, double seconds) {
        if (!(seconds > 0)) {
            return 0.0;
        }
        double mflops = 0.0;
        for (int jz = 0; jz < problem.yZones(); jz++) {
            int ny = zoneSize(problem.gy(), problem.yZones(), jz);
            for (int iz = 0; iz < problem.xZones(); iz++) {
                int nx = zoneSize(problem.gx(), problem.xZones(), iz);
                int nz = problem.gz();
                double n3 = (double) nx * ny * nz;
                double navg = (nx + ny + nz) / 3.0;
                double nsur = (nx * ny + nx * nz + ny * nz) / 3.0;
                mflops += (float) problem.iterations() * 1.0e-6
                        * (1984.77 * n3 - 10923.3 * nsur + 27770.9 * navg - 144010.0) / seconds;
            }
        }
        return mflops;
    }

    /** zone_setup.f, equal zones: zone z (0-based) of {@code zones} along an axis of {@code g} points. */
    static int zoneSize(int g, int zones, int z) {
        int end = ((z + 1) * g) / zones;
        int start = (z * g) / zones;
        return end - start;
    }
}
