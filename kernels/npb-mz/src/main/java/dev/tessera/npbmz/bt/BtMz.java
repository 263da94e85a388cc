package dev.tessera.npbmz.bt;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ReferenceNorms;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.npbmz.ZoneSolver;

/**
 * BT-MZ: the NPB BT solver (block-tridiagonal ADI on the compressible Navier-Stokes
 * equations) applied to every zone of an x_zones x y_zones partition of the aggregate grid,
 * with zones of uneven size.
 *
 * <p>Sources (NPB3.4-MZ-MPI): the classes from sys/setparams.c (write_bt_info: gx_size,
 * gy_size, gz_size, x_zones, y_zones, niter, dt, ratio); the zone sizes from
 * BT-MZ/zone_setup.f (geometric growth by {@code ratio} from the smallest to the largest
 * zone in each direction); the verification values and tolerance from BT-MZ/verify.f; the
 * operation count from BT-MZ/bt.f.
 */
public final class BtMz implements ZoneBenchmark {

    /** Tolerance of the relative differences from the reference norms (verify.f: epsilon). */
    static final double EPSILON = 1.0e-8;

    public BtMz() {
    }

    @Override
    public String name() {
        return "BT-MZ";
    }

    @Override
    public MzProblem problem(char c) {
        return switch (Character.toUpperCase(c)) {
            case 'S' -> new MzProblem('S', 24, 24, 6, 2, 2, 60, 0.010);
            case 'W' -> new MzProblem('W', 64, 64, 8, 4, 4, 200, 0.0008);
            case 'A' -> new MzProblem('A', 128, 128, 16, 4, 4, 200, 0.0008);
            case 'B' -> new MzProblem('B', 304, 208, 17, 8, 8, 200, 0.0003);
            case 'C' -> new MzProblem('C', 480, 320, 28, 16, 16, 200, 0.0001);
            default -> throw new IllegalArgumentException("BT-MZ has classes S, W, A, B, C; got '" + c + "'");
        };
    }

    @Override
    public boolean unevenZones() {
        return true;
    }

    /**
     * Widths of the zones along one direction of {@code size} points split into {@code zones}
     * zones growing by {@code ratio} from first to last (zone_setup.f; ratio 1 gives equal zones).
     */
    public static int[] zoneWidths(int size, int zones, double ratio) {
        int[] end = new int[zones];
        if (Math.abs(ratio - 1.0) > 1.0e-10) {
            double r = Math.exp(Math.log(ratio) / (zones - 1));
            double smallest = size * (r - 1.0) / (Math.pow(r, zones) - 1.0);
            for (int i = 1; i <= zones; i++) {
                end[i - 1] = (int) (smallest * (Math.pow(r, i) - 1.0) / (r - 1.0) + 0.45);
            }
        } else {
            for (int i = 1; i <= zones; i++) {
                end[i - 1] = i * size / zones;
            }
        }
        int[] width = new int[zones];
        int start = 1;
        for (int i = 0; i < zones; i++) {
            width[i] = end[i] - start + 1;
            start = end[i] + 1;
        }
        return width;
    }

    @Override
    public ZoneSolver newZone(MzProblem problem, int nx, int ny, int nz) {
        return new BtZone(problem, nx, ny, nz);
    }

    @Override
    public Verification verify(MzProblem problem, double[] norms) {
        return ReferenceNorms.verify(name(), problem, norms, EPSILON, reference(problem.problemClass()));
    }

    /**
     * Mop/s of the whole run (bt.f): per zone 1e-6 * niter * (3478.8 n3 - 17655.7 nsur +
     * 28023.7 navg) / seconds, summed over the zones; navg and nsur are single-precision
     * quotients in the reference and are kept so.
     */
    @Override
    public double mops(MzProblem problem, double seconds) {
        if (seconds <= 0.0) {
            return 0.0;
        }
        int[] wx = zoneWidths(problem.gx(), problem.xZones(), zoneRatio(problem));
        int[] wy = zoneWidths(problem.gy(), problem.yZones(), zoneRatio(problem));
        int nz = problem.gz();
        double total = 0.0;
        for (int y : wy) {
            for (int x : wx) {
                double n3 = (double) x * y * nz;
                double navg = (float) (x + y + nz) / 3.0f;
                double nsur = (float) (x * y + x * nz + y * nz) / 3.0f;
                total += 1.0e-6 * (float) problem.iterations()
                        * (3478.8 * n3 - 17655.7 * nsur + 28023.7 * navg) / seconds;
            }
        }
        return total;
    }

    /** Reference norms of one class (verify.f). */
    private static ReferenceNorms reference(char c) {
        return switch (c) {
            case 'S' -> new ReferenceNorms(1.0e-2, 60,
                    new double[] {0.1047687395830e+04, 0.9419911314792e+02, 0.2124737403068e+03,
                        0.1422173591794e+03, 0.1135441572375e+04},
                    new double[] {0.1775416062982e+03, 0.1875540250835e+02, 0.3863334844506e+02,
                        0.2634713890362e+02, 0.1965566269675e+03});
            case 'W' -> new ReferenceNorms(0.8e-3, 200,
                    new double[] {0.5562611195402e+05, 0.5151404119932e+04, 0.1080453907954e+05,
                        0.6576058591929e+04, 0.4528609293561e+05},
                    new double[] {0.7185154786403e+04, 0.7040472738068e+03, 0.1437035074443e+04,
                        0.8570666307849e+03, 0.5991235147368e+04});
            case 'A' -> new ReferenceNorms(0.8e-3, 200,
                    new double[] {0.5536703889522e+05, 0.5077835038405e+04, 0.1067391361067e+05,
                        0.6441179694972e+04, 0.4371926324069e+05},
                    new double[] {0.6716797714343e+04, 0.6512687902160e+03, 0.1332930740128e+04,
                        0.7848302089180e+03, 0.5429053878818e+04});
            case 'B' -> new ReferenceNorms(3.0e-4, 200,
                    new double[] {0.4461388343844e+06, 0.3799759138035e+05, 0.8383296623970e+05,
                        0.5301970201273e+05, 0.3618106851311e+06},
                    new double[] {0.4496733567600e+05, 0.3892068540524e+04, 0.8763825844217e+04,
                        0.5599040091792e+04, 0.4082652045598e+05});
            case 'C' -> new ReferenceNorms(1.0e-4, 200,
                    new double[] {0.3457703287806e+07, 0.3213621375929e+06, 0.7002579656870e+06,
                        0.4517459627471e+06, 0.2818715870791e+07},
                    new double[] {0.2059106993570e+06, 0.1680761129461e+05, 0.4080731640795e+05,
                        0.2836541076778e+05, 0.2136807610771e+06});
            default -> null;
        };
    }
}
