package dev.tessera.grid;

/**
 * Keys of points along 3D space-filling curves, for particle domain decomposition:
 * sorting particles by key and cutting the sorted list into equal pieces gives each rank
 * a compact region. Peano-Hilbert keys keep consecutive keys in face-adjacent cells;
 * Morton (Z-order) keys are cheaper but jump.
 *
 * <p>The Hilbert transform follows J. Skilling, "Programming the Hilbert curve", AIP
 * Conf. Proc. 707 (2004): coordinates are converted in place to the "transposed" Hilbert
 * index by Gray-code manipulations, whose bits are then interleaved.
 */
public final class SpaceFillingCurve {

    /** Largest number of bits per coordinate (3 x 21 = 63 bits fit a long). */
    public static final int MAX_BITS = 21;

    private SpaceFillingCurve() {
    }

    private static void checkBits(int bits) {
        if (bits < 1 || bits > MAX_BITS) {
            throw new IllegalArgumentException("bits per dimension must be 1.." + MAX_BITS + ", got " + bits);
        }
    }

    private static void checkCoordinate(int c, int bits) {
        if (c < 0 || c >= (1 << bits)) {
            throw new IllegalArgumentException("coordinate " + c + " outside [0, 2^" + bits + ")");
        }
    }

    /** Morton key: the bits of x, y, z interleaved (x most significant in each triple). */
    public static long morton(int x, int y, int z, int bits) {
        checkBits(bits);
        checkCoordinate(x, bits);
        checkCoordinate(y, bits);
        checkCoordinate(z, bits);
        return interleave(new int[] {x, y, z}, bits);
    }

    /** Coordinates of a Morton key. */
    public static int[] mortonInverse(long key, int bits) {
        checkBits(bits);
        return deinterleave(key, bits);
    }

    /** Peano-Hilbert key of integer cell coordinates in [0, 2^bits). */
    public static long hilbert(int x, int y, int z, int bits) {
        checkBits(bits);
        checkCoordinate(x, bits);
        checkCoordinate(y, bits);
        checkCoordinate(z, bits);
        int[] a = {x, y, z};
        axesToTranspose(a, bits);
        return interleave(a, bits);
    }

    /** Cell coordinates of a Peano-Hilbert key. */
    public static int[] hilbertInverse(long key, int bits) {
        checkBits(bits);
        int[] a = deinterleave(key, bits);
        transposeToAxes(a, bits);
        return a;
    }

    /** Hilbert key of a point in the box [min, max) per axis, on a grid of 2^bits cells per axis. */
    public static long hilbert(double[] point, double[] min, double[] max, int bits) {
        int[] c = new int[3];
        for (int d = 0; d < 3; d++) {
            double span = max[d] - min[d];
            if (!(span > 0)) {
                throw new IllegalArgumentException("empty box along axis " + d);
            }
            long cell = (long) Math.floor((point[d] - min[d]) / span * (1L << bits));
            c[d] = (int) Math.max(0, Math.min((1L << bits) - 1, cell));
        }
        return hilbert(c[0], c[1], c[2], bits);
    }

    private static long interleave(int[] a, int bits) {
        long key = 0;
        for (int b = bits - 1; b >= 0; b--) {
            for (int d = 0; d < 3; d++) {
                key = (key << 1) | ((a[d] >>> b) & 1);
            }
        }
        return key;
    }

    private static int[] deinterleave(long key, int bits) {
        int[] a = new int[3];
        for (int b = 0; b < bits; b++) {
            for (int d = 2; d >= 0; d--) {
                a[d] |= (int) ((key & 1) << b);
                key >>>= 1;
            }
        }
        return a;
    }

    /** Skilling's AxestoTranspose, in place. */
    private static void axesToTranspose(int[] x, int bits) {
        int m = 1 << (bits - 1);
        for (int q = m; q > 1; q >>= 1) {
            int p = q - 1;
            for (int i = 0; i < 3; i++) {
                if ((x[i] & q) != 0) {
                    x[0] ^= p;
                } else {
                    int t = (x[0] ^ x[i]) & p;
                    x[0] ^= t;
                    x[i] ^= t;
                }
            }
        }
        for (int i = 1; i < 3; i++) {
            x[i] ^= x[i - 1];
        }
        int t = 0;
        for (int q = m; q > 1; q >>= 1) {
            if ((x[2] & q) != 0) {
                t ^= q - 1;
            }
        }
        for (int i = 0; i < 3; i++) {
            x[i] ^= t;
        }
    }

    /** Skilling's TransposetoAxes, in place. */
    private static void transposeToAxes(int[] x, int bits) {
        int n = 2 << (bits - 1);
        int t = x[2] >> 1;
        for (int i = 2; i > 0; i--) {
            x[i] ^= x[i - 1];
        }
        x[0] ^= t;
        for (int q = 2; q != n; q <<= 1) {
            int p = q - 1;
            for (int i = 2; i >= 0; i--) {
                if ((x[i] & q) != 0) {
                    x[0] ^= p;
                } else {
                    t = (x[0] ^ x[i]) & p;
                    x[0] ^= t;
                    x[i] ^= t;
                }
            }
        }
    }
}
