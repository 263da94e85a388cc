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

    private static final int L = StockhamFft.LANES;

    private final Team team;
    /** Per member: batch re, batch im, scratch re, scratch im, each maxLength * LANES. */
    private final double[][][] scratch;

    AxisFft(Team team, int maxLength) {
        this.team = team;
        this.scratch = new double[team.size()][4][maxLength * L];
    }

    /** Transforms every line along {@code axis} (0, 1 or 2) of the block in place. */
    void transform(StockhamFft fft, int direction, double[] re, double[] im, int d1, int d2, int d3, int axis) {
        int n = fft.length();
        int expected = axis == 0 ? d1 : axis == 1 ? d2 : d3;
        if (n != expected) {
            throw new IllegalArgumentException("AxisFft: FFT length " + n + " for an axis of " + expected);
        }
        int batches = axis == 0 ? (d2 / L) * d3 : (d1 / L) * (axis == 1 ? d3 : d2);
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
                        int blocks = d1 / L;
                        int outer = b / blocks;
                        int lane0 = (b % blocks) * L;
                        int base;
                        int stride;
                        if (axis == 1) {
                            base = outer * d1 * d2 + lane0;
                            stride = d1;
                        } else {
                            base = outer * d1 + lane0;
                            stride = d1 * d2;
                        }
                        gatherColumns(re, im, base, stride, n, s[0], s[1]);
                        fft.transform(direction, s[0], s[1], s[2], s[3]);
                        scatterColumns(s[0], s[1], re, im, base, stride, n);
                    }
                }
            });
        });
    }

    /** Lanes j = consecutive rows of length n starting at base: batch[t*L + j] = x[base + j*n + t]. */
    private static void gatherRows(double[] re, double[] im, int base, int n, double[] br, double[] bi) {
        for (int j = 0; j < L; j++) {
            int row = base + j * n;
            for (int t = 0; t < n; t++) {
                br[t * L + j] = re[row + t];
                bi[t * L + j] = im[row + t];
            }
        }
    }

    private static void scatterRows(double[] br, double[] bi, double[] re, double[] im, int base, int n) {
        for (int j = 0; j < L; j++) {
            int row = base + j * n;
            for (int t = 0; t < n; t++) {
                re[row + t] = br[t * L + j];
                im[row + t] = bi[t * L + j];
            }
        }
    }

    /** Lanes = L consecutive doubles at base + t*stride: batch[t*L + j] = x[base + t*stride + j]. */
    private static void gatherColumns(double[] re, double[] im, int base, int stride, int n, double[] br, double[] bi) {
        for (int t = 0; t < n; t++) {
            System.arraycopy(re, base + t * stride, br, t * L, L);
            System.arraycopy(im, base + t * stride, bi, t * L, L);
        }
    }

    private static void scatterColumns(double[] br, double[] bi, double[] re, double[] im, int base, int stride, int n) {
        for (int t = 0; t < n; t++) {
            System.arraycopy(br, t * L, re, base + t * stride, L);
            System.arraycopy(bi, t * L, im, base + t * stride, L);
        }
    }
}
