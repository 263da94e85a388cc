package dev.tessera.io.hdf5;

import java.util.List;

/** Uneven decompositions of the test array {13, 11, 7} over 1 to 4 ranks, and its values. */
final class Blocks {

    static final long[] SHAPE = {13, 11, 7};

    private Blocks() {
    }

    /** {offset, count} of rank r of p: slabs of uneven thickness for p < 4, 2 x 2 pencils for p = 4. */
    static long[][] of(int p, int r) {
        List<long[][]> blocks = switch (p) {
            case 1 -> List.<long[][]>of(box(0, 13, 0, 11));
            case 2 -> List.of(box(0, 5, 0, 11), box(5, 8, 0, 11));
            case 3 -> List.of(box(0, 2, 0, 11), box(2, 7, 0, 11), box(9, 4, 0, 11));
            case 4 -> List.of(box(0, 6, 0, 4), box(0, 6, 4, 7), box(6, 7, 0, 4), box(6, 7, 4, 7));
            default -> throw new IllegalArgumentException("p = " + p);
        };
        return blocks.get(r);
    }

    private static long[][] box(long z0, long nz, long y0, long ny) {
        return new long[][] {{z0, y0, 0}, {nz, ny, SHAPE[2]}};
    }

    static double value(long z, long y, long x) {
        return Math.sin(z * 0.7) * 100 + y * 1.5 - x / 3.0;
    }

    /** The block's values, row-major. */
    static double[] fill(long[] offset, long[] count) {
        return fill(offset, count, Blocks::value);
    }

    /** A value of a 3-d test array at (z, y, x). */
    interface Values {
        double at(long z, long y, long x);
    }

    /** The block's values under {@code values}, row-major. */
    static double[] fill(long[] offset, long[] count, Values values) {
        double[] a = new double[Math.toIntExact(count[0] * count[1] * count[2])];
        int i = 0;
        for (long z = 0; z < count[0]; z++) {
            for (long y = 0; y < count[1]; y++) {
                for (long x = 0; x < count[2]; x++) {
                    a[i++] = values.at(offset[0] + z, offset[1] + y, offset[2] + x);
                }
            }
        }
        return a;
    }

    static double[] whole() {
        return fill(new long[3], SHAPE);
    }
}
