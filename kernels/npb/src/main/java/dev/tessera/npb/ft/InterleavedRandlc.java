package dev.tessera.npb.ft;

import dev.tessera.npb.Randlc;

/**
 * The NPB sequence x(k+1) = a x(k) mod 2^46 (NPB3.4 common/randdp.f {@code vranlc}) filled
 * four elements at a time, bit for bit equal to {@link Randlc#vranlc}.
 *
 * <p>vranlc is one long dependency chain: every element needs the previous one, and each
 * step is about a dozen dependent floating-point operations, so a core runs it at the
 * latency of the chain, not at its throughput. Here the sequence is split into four
 * chains, chain s holding elements s, s+4, s+8, ..., each stepped with the multiplier
 * a^4 mod 2^46; the four chains are independent, so the core overlaps them. The modular
 * products are exact (the 23-bit split of randlc), hence the values are those of vranlc.
 * The truncations use {@link Math#floor} (one instruction) instead of a cast to int
 * (a conversion and a range check); every truncated value is non-negative and below 2^23,
 * so both give the same integer.
 *
 * <p>FT times its initial conditions (FT/ft.f: "all operations must be timed"), 2 nx ny nz
 * draws, which made vranlc a fifth of FT's time on one core.
 */
final class InterleavedRandlc {

    private static final double R23 = 0x1p-23;
    private static final double T23 = 0x1p23;
    private static final double R46 = R23 * R23;
    private static final double T46 = T23 * T23;

    private InterleavedRandlc() {
    }

    /**
     * Fills {@code y[offset .. offset+n)} with the n elements that follow {@code seed}
     * under multiplier {@code a} (what {@code vranlc(n, {seed}, a, y, offset)} writes) and
     * returns the seed after them.
     */
    static double fill(int n, double seed, double a, double[] y, int offset) {
        if (n < 8) {
            double[] x = {seed};
            Randlc.vranlc(n, x, a, y, offset);
            return x[0];
        }
        // Four consecutive starting elements, then chains stepped by a^4.
        double x0 = step(seed, a);
        double x1 = step(x0, a);
        double x2 = step(x1, a);
        double x3 = step(x2, a);
        double a4 = step(step(step(a, a), a), a);
        double b1 = Math.floor(R23 * a4);
        double b2 = a4 - T23 * b1;
        int blocks = n / 4;
        int i = offset;
        for (int k = 0; k < blocks; k++) {
            y[i] = R46 * x0;
            y[i + 1] = R46 * x1;
            y[i + 2] = R46 * x2;
            y[i + 3] = R46 * x3;
            i += 4;
            if (k + 1 < blocks) {
                x0 = multiply(x0, b1, b2);
                x1 = multiply(x1, b1, b2);
                x2 = multiply(x2, b1, b2);
                x3 = multiply(x3, b1, b2);
            }
        }
        // The last element written is x3; finish the remainder (n mod 4) one by one.
        double x = x3;
        for (int r = blocks * 4; r < n; r++) {
            x = step(x, a);
            y[offset + r] = R46 * x;
        }
        return x;
    }

    /** a * x mod 2^46 with the multiplier pre-split into its high (b1) and low (b2) 23 bits. */
    private static double multiply(double x, double b1, double b2) {
        double t1 = R23 * x;
        double x1 = Math.floor(t1);
        double x2 = x - T23 * x1;
        t1 = b1 * x2 + b2 * x1;
        double t2 = Math.floor(R23 * t1);
        double z = t1 - T23 * t2;
        double t3 = T23 * z + b2 * x2;
        double t4 = Math.floor(R46 * t3);
        return t3 - T46 * t4;
    }

    private static double step(double x, double a) {
        double b1 = Math.floor(R23 * a);
        return multiply(x, b1, a - T23 * b1);
    }
}
