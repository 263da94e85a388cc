package dev.tessera.npb.ft;

/**
 * Power-of-two complex FFTs of {@link #LANES} sequences at once, in the Stockham
 * autosort form that NPB's {@code cfftz}/{@code fftz2} use (FT/ft.f), with the real and
 * imaginary parts in separate arrays.
 *
 * <p>Layout of a batch of {@code lanes} sequences: element {@code t} of lane {@code j}
 * lives at {@code t * lanes + j} of {@code re} and {@code im}. Every butterfly therefore
 * reads and writes runs of {@code lanes} (from the second pass on, {@code lk * lanes})
 * consecutive doubles,
 * which the JIT turns into vector loads and stores; no index arithmetic happens per lane.
 *
 * <p>Algorithm. For n = 2^m, pass l (1..m) with lk = 2^(l-1), li = 2^(m-l) maps
 * {@code x} to {@code y}: for each i < li and k < lk,
 * {@code y[i*2lk + k] = x[i*lk + k] + x[i*lk + k + n/2]} and
 * {@code y[i*2lk + lk + k] = w_i (x[i*lk + k] - x[i*lk + k + n/2])} with
 * {@code w_i = exp(sign * i pi i / li)}. After m passes the result is the unnormalised
 * DFT {@code X_q = sum_t x_t exp(sign * 2 pi i t q / n)} in natural order. Passes alternate
 * between the batch and a scratch batch; two passes are fused into one radix-4 pass
 * where possible, which halves the sweeps over the batch (the arithmetic per element is
 * that of two radix-2 passes, so results match the reference to rounding).
 *
 * <p>Sign: {@code direction = +1} is NPB's forward transform (roots exp(+i theta)),
 * {@code -1} its inverse (conjugate roots); neither is scaled.
 *
 * <p>Thread safety: an instance holds only the immutable root table and is shared; the
 * batches are the caller's (one per thread).
 */
public final class StockhamFft {

    /** Default number of sequences transformed together (the reference's fftblock is 16; 16 doubles are two cache lines). */
    public static final int LANES = 16;

    private final int n;
    private final int log2n;
    /** Roots: rootRe[li + i] + i rootIm[li + i] = exp(i pi i / li) for li = 1, 2, 4 .. n/2 (FT/ft.f fft_init). */
    private final double[] rootRe;
    private final double[] rootIm;

    /** An FFT of length {@code n}, a power of two >= 2. */
    public StockhamFft(int n) {
        if (n < 2 || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("StockhamFft: length must be a power of two >= 2, got " + n);
        }
        this.n = n;
        this.log2n = Integer.numberOfTrailingZeros(n);
        rootRe = new double[n];
        rootIm = new double[n];
        for (int ln = 1; ln < n; ln <<= 1) {
            double t = Math.PI / ln;
            for (int i = 0; i < ln; i++) {
                rootRe[ln + i] = Math.cos(i * t);
                rootIm[ln + i] = Math.sin(i * t);
            }
        }
    }

    public int length() {
        return n;
    }

    /** Transforms a batch of {@link #LANES} sequences; see {@link #transform(int, int, double[], double[], double[], double[])}. */
    public void transform(int direction, double[] re, double[] im, double[] sr, double[] si) {
        transform(direction, LANES, re, im, sr, si);
    }

    /**
     * Transforms the batch of {@code lanes} sequences in {@code (re, im)} in place;
     * {@code (sr, si)} is scratch of at least {@code n * lanes} doubles.
     */
    public void transform(int direction, int lanes, double[] re, double[] im, double[] sr, double[] si) {
        double sign = direction >= 0 ? 1.0 : -1.0;
        double[] xr = re;
        double[] xi = im;
        double[] yr = sr;
        double[] yi = si;
        int l = 1;
        while (l <= log2n) {
            if (l + 1 <= log2n) {
                radix4Pass(sign, l, lanes, xr, xi, yr, yi);
                l += 2;
            } else {
                radix2Pass(sign, l, lanes, xr, xi, yr, yi);
                l += 1;
            }
            double[] t = xr;
            xr = yr;
            yr = t;
            t = xi;
            xi = yi;
            yi = t;
        }
        if (xr != re) {
            System.arraycopy(xr, 0, re, 0, n * lanes);
            System.arraycopy(xi, 0, im, 0, n * lanes);
        }
    }

    /** Pass l of the radix-2 Stockham recursion, x to y. */
    private void radix2Pass(double sign, int l, int lanes, double[] xr, double[] xi, double[] yr, double[] yi) {
        int half = (n >> 1) * lanes;
        int lk = 1 << (l - 1);
        int li = 1 << (log2n - l);
        int run = lk * lanes;
        for (int i = 0; i < li; i++) {
            double wr = rootRe[li + i];
            double wi = sign * rootIm[li + i];
            int a = i * run;
            int b = a + half;
            int c = 2 * i * run;
            int d = c + run;
            for (int t = 0; t < run; t++) {
                double ar = xr[a + t];
                double ai = xi[a + t];
                double br = xr[b + t];
                double bi = xi[b + t];
                yr[c + t] = ar + br;
                yi[c + t] = ai + bi;
                double dr = ar - br;
                double di = ai - bi;
                yr[d + t] = wr * dr - wi * di;
                yi[d + t] = wr * di + wi * dr;
            }
        }
    }

    /**
     * Passes l and l+1 fused: the four inputs x[i*lk + k + q*n/4] (q = 0..3) of one
     * radix-4 butterfly produce the four outputs of the two radix-2 passes directly.
     *
     * <p>Pass l pairs (i, i + li/2) inputs: with li = 2^(m-l), input index i*lk + k for
     * i < li and its partner at + n/2; its output lands at i*2lk + k (sum) and i*2lk +
     * lk + k (difference times w_i). Pass l+1 (li' = li/2, lk' = 2lk) then pairs outputs
     * i'*lk' + k' with i'*lk' + k' + n/2. Writing i = i' and i = i' + li/2 gives the four
     * pass-l inputs i'*lk + k + {0, n/4, n/2, 3n/4} and the four pass-(l+1) outputs
     * i'*4lk + k + {0, lk, 2lk, 3lk}.
     */
    private void radix4Pass(double sign, int l, int lanes, double[] xr, double[] xi, double[] yr, double[] yi) {
        int quarter = (n >> 2) * lanes;
        int lk = 1 << (l - 1);
        int li = 1 << (log2n - l);
        int li2 = li >> 1;
        int run = lk * lanes;
        for (int i = 0; i < li2; i++) {
            // Pass l: butterflies i (inputs x0, x2) and i + li/2 (inputs x1, x3).
            double w1r = rootRe[li + i];
            double w1i = sign * rootIm[li + i];
            double w2r = rootRe[li + i + li2];
            double w2i = sign * rootIm[li + i + li2];
            // Pass l+1: butterfly i with root of li/2.
            double vr = rootRe[li2 + i];
            double vi = sign * rootIm[li2 + i];
            int x0 = i * run;
            int x1 = x0 + quarter;
            int x2 = x1 + quarter;
            int x3 = x2 + quarter;
            int y0 = 4 * i * run;
            int y1 = y0 + run;
            int y2 = y1 + run;
            int y3 = y2 + run;
            for (int t = 0; t < run; t++) {
                double ar = xr[x0 + t];
                double ai = xi[x0 + t];
                double br = xr[x1 + t];
                double bi = xi[x1 + t];
                double cr = xr[x2 + t];
                double ci = xi[x2 + t];
                double dr = xr[x3 + t];
                double di = xi[x3 + t];
                // pass l, butterfly i: (a, c) -> s0 = a + c at i*2lk + k, s1 = w1 (a - c) at i*2lk + lk + k
                double s0r = ar + cr;
                double s0i = ai + ci;
                double er = ar - cr;
                double ei = ai - ci;
                double s1r = w1r * er - w1i * ei;
                double s1i = w1r * ei + w1i * er;
                // pass l, butterfly i + li/2: (b, d) -> s2 at (i+li/2)*2lk + k, s3 = w2 (b - d) at +lk
                double s2r = br + dr;
                double s2i = bi + di;
                double fr = br - dr;
                double fi = bi - di;
                double s3r = w2r * fr - w2i * fi;
                double s3i = w2r * fi + w2i * fr;
                // pass l+1 pairs s0 with s2 (k' = k) and s1 with s3 (k' = lk + k)
                yr[y0 + t] = s0r + s2r;
                yi[y0 + t] = s0i + s2i;
                double gr = s0r - s2r;
                double gi = s0i - s2i;
                yr[y2 + t] = vr * gr - vi * gi;
                yi[y2 + t] = vr * gi + vi * gr;
                yr[y1 + t] = s1r + s3r;
                yi[y1 + t] = s1i + s3i;
                double hr = s1r - s3r;
                double hi = s1i - s3i;
                yr[y3 + t] = vr * hr - vi * hi;
                yi[y3 + t] = vr * hi + vi * hr;
            }
        }
    }
}
