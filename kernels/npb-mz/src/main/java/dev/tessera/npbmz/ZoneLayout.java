package dev.tessera.npbmz;

/**
 * How an NPB-MZ problem's aggregate grid is cut into zones: the reference's zone_setup
 * (NPB3.4-MZ-MPI/SP-MZ/zone_setup.f; BT-MZ and LU-MZ use the same formulas).
 *
 * <p>The gx x gy x gz grid is cut in x into {@code xZones} slabs and in y into {@code yZones}
 * slabs; z is never cut. With a ratio of 1 the cuts are equal up to integer rounding
 * ({@code end(i) = i * g / zones}). With a larger ratio (BT-MZ) the widths grow
 * geometrically by {@code r = ratio^(1/(zones-1))} from the first to the last slab, so the
 * last is about {@code ratio} times the first; the reference rounds each slab's end with
 * {@code + 0.45} so that the widths still grow monotonically.
 *
 * <p>Zone ids run from 0, x fastest: zone {@code i + j * xZones} is slab i in x and slab j in
 * y. Neighbours are periodic in x and y (the reference's iz_west/iz_east/iz_south/iz_north):
 * the west neighbour of a zone in the first column is the zone in the last column of its row.
 * Every zone is {@code gz} points deep.
 */
public final class ZoneLayout {

    private final int xZones;
    private final int yZones;
    private final int[] xSize;
    private final int[] ySize;
    private final int gz;

    private ZoneLayout(int xZones, int yZones, int[] xSize, int[] ySize, int gz) {
        this.xZones = xZones;
        this.yZones = yZones;
        this.xSize = xSize;
        this.ySize = ySize;
        this.gz = gz;
    }

    /** The zones of {@code problem} with widths growing by {@code ratio} (1 for equal zones). */
    public static ZoneLayout of(MzProblem problem, double ratio) {
        if (problem.xZones() < 1 || problem.yZones() < 1) {
            throw new IllegalArgumentException("zone_setup: need at least one zone in x and y, got "
                    + problem.xZones() + " x " + problem.yZones());
        }
        if (!(ratio >= 1.0)) {
            throw new IllegalArgumentException("zone_setup: ratio must be >= 1, got " + ratio);
        }
        int[] xs = widths(problem.gx(), problem.xZones(), ratio);
        int[] ys = widths(problem.gy(), problem.yZones(), ratio);
        for (int w : xs) {
            checkWidth(w, "x", problem);
        }
        for (int w : ys) {
            checkWidth(w, "y", problem);
        }
        return new ZoneLayout(problem.xZones(), problem.yZones(), xs, ys, problem.gz());
    }

    private static void checkWidth(int w, String axis, MzProblem p) {
        if (w < 3) {
            throw new IllegalArgumentException("zone_setup: a zone of class " + p.problemClass() + " would be " + w
                    + " points wide in " + axis + " (at least 3 are needed)");
        }
    }

    /** Slab widths along one axis (zone_setup's x_size / y_size). */
    static int[] widths(int points, int zones, double ratio) {
        int[] end = new int[zones];
        if (Math.abs(ratio - 1.0) > 1e-10 && zones > 1) {
            double r = Math.exp(Math.log(ratio) / (zones - 1));
            double smallest = points * (r - 1.0) / (powi(r, zones) - 1.0);
            for (int i = 1; i <= zones; i++) {
                end[i - 1] = (int) (smallest * (powi(r, i) - 1.0) / (r - 1.0) + 0.45);
            }
        } else {
            for (int i = 1; i <= zones; i++) {
                end[i - 1] = (int) ((long) i * points / zones);
            }
        }
        int[] size = new int[zones];
        int start = 1;
        for (int i = 0; i < zones; i++) {
            size[i] = end[i] - start + 1;
            start = end[i] + 1;
        }
        return size;
    }

    /** x^n by repeated squaring, as Fortran evaluates a real raised to an integer power. */
    private static double powi(double x, int n) {
        double result = 1.0;
        double base = x;
        for (int e = n; e > 0; e >>= 1) {
            if ((e & 1) != 0) {
                result *= base;
            }
            base *= base;
        }
        return result;
    }

    public int xZones() {
        return xZones;
    }

    public int yZones() {
        return yZones;
    }

    /** Number of zones. */
    public int zones() {
        return xZones * yZones;
    }

    public int nx(int zone) {
        return xSize[check(zone) % xZones];
    }

    public int ny(int zone) {
        return ySize[check(zone) / xZones];
    }

    public int nz(int zone) {
        check(zone);
        return gz;
    }

    /** Grid points of {@code zone}: its work in the reference's map_zones. */
    public double points(int zone) {
        return (double) nx(zone) * ny(zone) * nz(zone);
    }

    /** The zone across {@code face} of {@code zone} (periodic in x and y). */
    public int neighbour(int zone, Face face) {
        check(zone);
        int i = zone % xZones;
        int j = zone / xZones;
        return switch (face) {
            case WEST -> (i - 1 + xZones) % xZones + j * xZones;
            case EAST -> (i + 1) % xZones + j * xZones;
            case SOUTH -> i + ((j - 1 + yZones) % yZones) * xZones;
            case NORTH -> i + ((j + 1) % yZones) * xZones;
        };
    }

    /** The face of the neighbour that faces back: EAST for WEST and so on. */
    public static Face opposite(Face face) {
        return switch (face) {
            case WEST -> Face.EAST;
            case EAST -> Face.WEST;
            case SOUTH -> Face.NORTH;
            case NORTH -> Face.SOUTH;
        };
    }

    private int check(int zone) {
        if (zone < 0 || zone >= zones()) {
            throw new IndexOutOfBoundsException("zone " + zone + " of " + zones());
        }
        return zone;
    }
}
