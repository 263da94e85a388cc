package dev.tessera.npb.ft;

/**
 * Power-of-two complex FFTs of a batch of sequences at once, in the Stockham autosort
 * form that NPB's {@code cfftz}/{@code fftz2} use (FT/ft.f), with the real and imaginary
 * parts in separate arrays.
 *
 * <p>Layout of a batch of {@code lanes} sequences: row {@code t} (a {@code double[]})
 * holds element t of every lane, lane j at index j. A butterfly combines whole rows, so
 * its inner loop reads and writes {@code row[j]} of five to twelve different rows with
 * the same index j: HotSpot's C2 (JDK 25) vectorises exactly that shape. It does not
 * vectorise the flat form (one array, rows at offsets t * lanes) because loads and
 * stores at different loop-invariant offsets of arrays it cannot prove distinct might
 * alias; a flat batch ran the same passes about two times slower here.
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

    /**
     * Transforms the batch of {@code lanes} sequences held in rows {@code 0 .. n-1} of
     * {@code (re, im)} in place (row t holds element t of every lane); {@code (sr, si)} are
     * scratch rows of the same shape. Rows must have at least {@code lanes} elements.
     */
    public void transform(int direction, int lanes, double[][] re, double[][] im, double[][] sr, double[][] si) {
        double sign = direction >= 0 ? 1.0 : -1.0;
        double[][] xr = re;
        double[][] xi = im;
        double[][] yr = sr;
        double[][] yi = si;
        int l = 1;
        while (l <= log2n) {
            if (l + 1 <= log2n) {
                radix4Pass(sign, l, lanes, xr, xi, yr, yi);
                l += 2;
            } else {
                radix2Pass(sign, l, lanes, xr, xi, yr, yi);
                l += 1;
            }
            double[][] t = xr;
            xr = yr;
            yr = t;
            t = xi;
            xi = yi;
            yi = t;
        }
        if (xr != re) {
            for (int t = 0; t < n; t++) {
                System.arraycopy(xr[t], 0, re[t], 0, lanes);
                System.arraycopy(xi[t], 0, im[t], 0, lanes);
            }
        }
    }

    /** Pass l of the radix-2 Stockham recursion, x to y. */
    private void radix2Pass(double sign, int l, int lanes, double[][] xr, double[][] xi, double[][] yr, double[][] yi) {
        int half = n >> 1;
        int lk = 1 << (l - 1);
        int li = 1 << (log2n - l);
        for (int i = 0; i < li; i++) {
            double wr = rootRe[li + i];
            double wi = sign * rootIm[li + i];
            for (int k = 0; k < lk; k++) {
                int a = i * lk + k;
                int c = 2 * i * lk + k;
                butterfly2(lanes, wr, wi, xr[a], xi[a], xr[a + half], xi[a + half], yr[c], yi[c], yr[c + lk], yi[c + lk]);
            }
        }
    }

    /** c = a + b, d = w (a - b), over one row of lanes: every array indexed alike, so the JIT vectorises it. */
    private static void butterfly2(int lanes, double wr, double wi, double[] ar, double[] ai, double[] br, double[] bi,
            double[] cr, double[] ci, double[] dr, double[] di) {
        for (int j = 0; j < lanes; j++) {
            double xr = ar[j];
            double xi = ai[j];
            double yr = br[j];
            double yi = bi[j];
            cr[j] = xr + yr;
            ci[j] = xi + yi;
            double er = xr - yr;
            double ei = xi - yi;
            dr[j] = wr * er - wi * ei;
            di[j] = wr * ei + wi * er;
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
    private void radix4Pass(double sign, int l, int lanes, double[][] xr, double[][] xi, double[][] yr, double[][] yi) {
        int quarter = n >> 2;
        int lk = 1 << (l - 1);
        int li = 1 << (log2n - l);
        int li2 = li >> 1;
        for (int i = 0; i < li2; i++) {
            // Pass l: butterflies i (inputs x0, x2) and i + li/2 (inputs x1, x3); pass l+1: butterfly i of li/2.
            double w1r = rootRe[li + i];
            double w1i = sign * rootIm[li + i];
            double w2r = rootRe[li + i + li2];
            double w2i = sign * rootIm[li + i + li2];
            double vr = rootRe[li2 + i];
            double vi = sign * rootIm[li2 + i];
            for (int k = 0; k < lk; k++) {
                int x0 = i * lk + k;
                int y0 = 4 * i * lk + k;
                butterfly4(lanes, w1r, w1i, w2r, w2i, vr, vi,
                        xr[x0], xi[x0], xr[x0 + quarter], xi[x0 + quarter],
                        xr[x0 + 2 * quarter], xi[x0 + 2 * quarter], xr[x0 + 3 * quarter], xi[x0 + 3 * quarter],
                        yr[y0], yi[y0], yr[y0 + lk], yi[y0 + lk], yr[y0 + 2 * lk], yi[y0 + 2 * lk],
                        yr[y0 + 3 * lk], yi[y0 + 3 * lk]);
            }
        }
    }

    /** One row of a radix-4 butterfly (two fused radix-2 stages): a, b, c, d in; e, f, g, h out. */
    private static void butterfly4(int lanes, double w1r, double w1i, double w2r, double w2i, double vr, double vi,
            double[] ar, double[] ai, double[] br, double[] bi, double[] cr, double[] ci, double[] dr, double[] di,
            double[] er, double[] ei, double[] fr, double[] fi, double[] gr, double[] gi, double[] hr, double[] hi) {
        for (int j = 0; j < lanes; j++) {
            double xar = ar[j];
            double xai = ai[j];
            double xbr = br[j];
            double xbi = bi[j];
            double xcr = cr[j];
            double xci = ci[j];
            double xdr = dr[j];
            double xdi = di[j];
            // pass l, butterfly i: (a, c) -> s0 = a + c, s1 = w1 (a - c)
            double s0r = xar + xcr;
            double s0i = xai + xci;
            double pr = xar - xcr;
            double pi = xai - xci;
            double s1r = w1r * pr - w1i * pi;
            double s1i = w1r * pi + w1i * pr;
            // pass l, butterfly i + li/2: (b, d) -> s2 = b + d, s3 = w2 (b - d)
            double s2r = xbr + xdr;
            double s2i = xbi + xdi;
            double qr = xbr - xdr;
            double qi = xbi - xdi;
            double s3r = w2r * qr - w2i * qi;
            double s3i = w2r * qi + w2i * qr;
            // pass l+1 pairs s0 with s2 (outputs e, g) and s1 with s3 (outputs f, h)
            er[j] = s0r + s2r;
            ei[j] = s0i + s2i;
            double tr = s0r - s2r;
            double ti = s0i - s2i;
            gr[j] = vr * tr - vi * ti;
            gi[j] = vr * ti + vi * tr;
            fr[j] = s1r + s3r;
            fi[j] = s1i + s3i;
            double ur = s1r - s3r;
            double ui = s1i - s3i;
            hr[j] = vr * ur - vi * ui;
            hi[j] = vr * ui + vi * ur;
        }
    }
}
