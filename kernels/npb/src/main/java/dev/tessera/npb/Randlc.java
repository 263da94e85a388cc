package dev.tessera.npb;

/**
 * The NPB linear congruential generator x(k+1) = a * x(k) mod 2^46, returning x / 2^46 in
 * (0, 1). Reproduces {@code randlc} and {@code vranlc} of NPB 3.4 ({@code common/randdp.f}) bit
 * for bit: the product is split into 23-bit halves so that every partial product is exact in
 * IEEE double precision, which is what makes the sequence identical on every machine.
 *
 * <p>The reference's {@code int(t)} (truncation) is written {@code Math.floor(t)}: every
 * argument is non-negative (0 < a, x < 2^46), where the two agree, and floor is one
 * instruction while a double-to-int-to-double round trip is several (Java's conversion
 * checks for NaN and overflow).
 *
 * <p>The seed is passed as a one-element array because the reference updates it in place;
 * {@link Generator} wraps one for code that prefers an object.
 */
public final class Randlc {

    /** 2^-23, 2^23, 2^-46, 2^46 (randdp.f). */
    static final double R23 = 0x1p-23;
    static final double T23 = 0x1p23;
    static final double R46 = R23 * R23;
    static final double T46 = T23 * T23;

    /** The multiplier used by every NPB kernel that draws from this generator: 5^13. */
    public static final double A = 1220703125.0;

    private Randlc() {
    }

    /** Advances {@code x[0]} by one step with multiplier {@code a}; returns the new value / 2^46. */
    public static double randlc(double[] x, double a) {
        double t1 = R23 * a;
        double a1 = Math.floor(t1);
        double a2 = a - T23 * a1;
        t1 = R23 * x[0];
        double x1 = Math.floor(t1);
        double x2 = x[0] - T23 * x1;
        t1 = a1 * x2 + a2 * x1;
        double t2 = Math.floor(R23 * t1);
        double z = t1 - T23 * t2;
        double t3 = T23 * z + a2 * x2;
        double t4 = Math.floor(R46 * t3);
        double next = t3 - T46 * t4;
        x[0] = next;
        return R46 * next;
    }

    /**
     * Fills {@code y[offset .. offset+n)} with the next {@code n} values of the sequence
     * (vranlc), advancing {@code x[0]} past them.
     */
    public static void vranlc(int n, double[] x, double a, double[] y, int offset) {
        double t1 = R23 * a;
        double a1 = Math.floor(t1);
        double a2 = a - T23 * a1;
        double seed = x[0];
        for (int i = 0; i < n; i++) {
            t1 = R23 * seed;
            double x1 = Math.floor(t1);
            double x2 = seed - T23 * x1;
            t1 = a1 * x2 + a2 * x1;
            double t2 = Math.floor(R23 * t1);
            double z = t1 - T23 * t2;
            double t3 = T23 * z + a2 * x2;
            double t4 = Math.floor(R46 * t3);
            seed = t3 - T46 * t4;
            y[offset + i] = R46 * seed;
        }
        x[0] = seed;
    }

    /**
     * The next seed a * x mod 2^46 (what {@link #randlc} stores into its seed), for code
     * that keeps the seed in a local variable: {@code randlc(x, a) == multiply(x[0], a) * 2^-46}.
     */
    public static double multiply(double x, double a) {
        double t1 = R23 * a;
        double a1 = Math.floor(t1);
        double a2 = a - T23 * a1;
        t1 = R23 * x;
        double x1 = Math.floor(t1);
        double x2 = x - T23 * x1;
        t1 = a1 * x2 + a2 * x1;
        double t2 = Math.floor(R23 * t1);
        double z = t1 - T23 * t2;
        double t3 = T23 * z + a2 * x2;
        double t4 = Math.floor(R46 * t3);
        return t3 - T46 * t4;
    }

    /**
     * {@link #vranlc(int, double[], double, double[], int)} on a seed held in a local
     * variable: fills {@code y[offset .. offset+n)} and returns the advanced seed.
     */
    public static double vranlc(int n, double seed, double a, double[] y, int offset) {
        double t1 = R23 * a;
        double a1 = Math.floor(t1);
        double a2 = a - T23 * a1;
        double x = seed;
        for (int i = 0; i < n; i++) {
            t1 = R23 * x;
            double x1 = Math.floor(t1);
            double x2 = x - T23 * x1;
            t1 = a1 * x2 + a2 * x1;
            double t2 = Math.floor(R23 * t1);
            double z = t1 - T23 * t2;
            double t3 = T23 * z + a2 * x2;
            double t4 = Math.floor(R46 * t3);
            x = t3 - T46 * t4;
            y[offset + i] = R46 * x;
        }
        return x;
    }

    /**
     * a^k mod 2^46 computed by repeated squaring with {@link #randlc}: the multiplier that
     * jumps the sequence k steps ahead (how the kernels give every rank its own stretch).
     */
    public static double power(double a, long k) {
        double result = 1.0;
        double[] q = {a};
        double[] r = {1.0};
        long n = k;
        while (n > 0) {
            if ((n & 1) == 1) {
                randlc(r, q[0]);
            }
            double qq = q[0];
            randlc(q, qq);
            n >>= 1;
        }
        result = r[0];
        return result;
    }

    /** A generator object over one seed, for code that does not want the array idiom. */
    public static final class Generator {
        private final double[] seed;
        private final double a;

        public Generator(double seed, double a) {
            this.seed = new double[] {seed};
            this.a = a;
        }

        public double next() {
            return randlc(seed, a);
        }

        public void fill(double[] y, int offset, int n) {
            vranlc(n, seed, a, y, offset);
        }

        public double seed() {
            return seed[0];
        }
    }
}
