package dev.tessera.npb.ft;

import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * FFTs along one axis of a local 3D block {@code d1 x d2 x d3} (d1 fastest, split real
 * and imaginary arrays), in batches of {@link StockhamFft#LANES} lines, as NPB's
 * {@code cffts1/2/3} do (FT/ft.f).
 *
 * <p>A batch is gathered into a member's scratch (lane-fastest, the layout
 * {@link StockhamFft} wants), transformed there and scattered back. Along axis 1 and 2
 * the lanes are {@code LANES} consecutive points of the contiguous axis 0, so gather and
 * scatter copy runs of {@code LANES} doubles; along axis 0 the lanes are {@code LANES}
 * consecutive lines, so the gather is a small transpose. Batches are independent and
 * are dealt to the team's members in contiguous ranges (static schedule); every member
 * owns its scratch, so no two members touch the same memory.
 *
 * <p>Requires d1 (axes 1, 2) or d2 (axis 0) to be a multiple of {@code LANES}: every
 * NPB class has power-of-two extents of at least 32.
 */
final class AxisFft {

    /** Lanes along axis 0 (a transposing gather: 16 rows read in step). */
    private static final int L = StockhamFft.LANES;
    /**
     * Widest batch along axes 1 and 2: 64 consecutive doubles per line point, so a
     * strided gather touches each page once per 512 bytes instead of per 128 (the z
     * stride of class A is 512 KiB: a TLB miss per access either way, amortised here).
     */
    private static final int WIDE = 64;

    private final Team team;
    /** Per member: batch re, batch im, scratch re, scratch im, each maxLength * LANES. */
    private final double[][][] scratch;

    AxisFft(Team team, int maxLength) {
        this.team = team;
        this.scratch = new double[team.size()][4][maxLength * WIDE];
    }

    /** Transforms every line along {@code axis} (0, 1 or 2) of the block in place. */
    void transform(StockhamFft fft, int direction, double[] re, double[] im, int d1, int d2, int d3, int axis) {
        int n = fft.length();
        int expected = axis == 0 ? d1 : axis == 1 ? d2 : d3;
        if (n != expected) {
            throw new IllegalArgumentException("AxisFft: FFT length " + n + " for an axis of " + expected);
        }
        int lanes = axis == 0 ? L : Math.min(WIDE, d1);
        int batches = axis == 0 ? (d2 / L) * d3 : (d1 / lanes) * (axis == 1 ? d3 : d2);
        team.region(ctx -> {
            double[][] s = scratch[ctx.id()];
            ctx.parallelForRange(0, batches, Schedule.STATIC, (from, to) -> {
                for (int b = from; b < to; b++) {
                    if (axis == 0) {
                        int base = b * L * d1; // lines b*L .. b*L+L-1, each d1 long
                        gatherRows(re, im, base, d1, s[0], s[1]);
                        fft.transform(direction, s[0], s[1], s[2], s[3]);
                        scatterRows(s[0], s[1], re, im, base, d1);
                    } else {
                        int blocks = d1 / lanes;
                        int outer = b / blocks;
                        int lane0 = (b % blocks) * lanes;
                        int base;
                        int stride;
                        if (axis == 1) {
                            base = outer * d1 * d2 + lane0;
                            stride = d1;
                        } else {
                            base = outer * d1 + lane0;
                            stride = d1 * d2;
                        }
                        gatherColumns(re, im, base, stride, n, lanes, s[0], s[1]);
                        fft.transform(direction, lanes, s[0], s[1], s[2], s[3]);
                        scatterColumns(s[0], s[1], re, im, base, stride, n, lanes);
                    }
                }
            });
        });
    }

    /**
     * Lanes j = consecutive rows of length n starting at base: batch[t*L + j] = x[base + j*n + t].
     * Point-major order: each step writes L consecutive doubles and reads L sequential streams.
     */
    private static void gatherRows(double[] re, double[] im, int base, int n, double[] br, double[] bi) {
        for (int t = 0; t < n; t++) {
            int out = t * L;
            for (int j = 0; j < L; j++) {
                br[out + j] = re[base + j * n + t];
                bi[out + j] = im[base + j * n + t];
            }
        }
    }

    private static void scatterRows(double[] br, double[] bi, double[] re, double[] im, int base, int n) {
        for (int t = 0; t < n; t++) {
            int in = t * L;
            for (int j = 0; j < L; j++) {
                re[base + j * n + t] = br[in + j];
                im[base + j * n + t] = bi[in + j];
            }
        }
    }

    /** Lanes = consecutive doubles at base + t*stride: batch[t*lanes + j] = x[base + t*stride + j]. */
    private static void gatherColumns(double[] re, double[] im, int base, int stride, int n, int lanes,
            double[] br, double[] bi) {
        for (int t = 0; t < n; t++) {
            System.arraycopy(re, base + t * stride, br, t * lanes, lanes);
            System.arraycopy(im, base + t * stride, bi, t * lanes, lanes);
        }
    }

    private static void scatterColumns(double[] br, double[] bi, double[] re, double[] im, int base, int stride, int n,
            int lanes) {
        for (int t = 0; t < n; t++) {
            System.arraycopy(br, t * lanes, re, base + t * stride, lanes);
            System.arraycopy(bi, t * lanes, im, base + t * stride, lanes);
        }
    }
}
