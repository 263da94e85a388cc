package dev.tessera.npb.ft;

import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * FFTs along one axis of a local 3D block {@code d1 x d2 x d3} (d1 fastest, split real
 * and imaginary arrays), in batches of lines, as NPB's {@code cffts1/2/3} do (FT/ft.f).
 *
 * <p>A batch of {@code lanes} lines is gathered into a member's scratch rows (row t =
 * point t of every line, the layout {@link StockhamFft} wants), transformed there and
 * scattered back. Along axes 1 and 2 the lanes are consecutive points of the contiguous
 * axis 0, so gather and scatter copy runs of {@code lanes} doubles; along axis 0 the lanes
 * are consecutive lines, so gather and scatter transpose (line by line, each line read or
 * written sequentially). Batches are independent and are dealt to the team's members in
 * contiguous ranges (static schedule); every member owns its scratch.
 *
 * <p>Batch width: {@code 16384 / n} lanes, clamped to [16, 128] and to the block: a batch
 * array is at most 128 KiB, so the four a member uses stay in a 1 MiB L2 cache, and a
 * strided gather along z (stride nx*ny) reads at least 128 contiguous bytes per page.
 * All NPB extents are powers of two of at least 32, so the width divides the lane axis.
 */
final class AxisFft {

    private static final int MIN_LANES = 16;
    private static final int MAX_LANES = 128;
    private static final int BATCH_DOUBLES = 16384;

    private final Team team;
    /** Per member: batch re, batch im, scratch re, scratch im; rows of MAX_LANES. */
    private final double[][][][] scratch;

    AxisFft(Team team, int maxLength) {
        this.team = team;
        this.scratch = new double[team.size()][4][maxLength][MAX_LANES];
    }

    /** Lanes per batch for an FFT of length n over a lane axis of {@code extent} lines. */
    static int lanes(int n, int extent) {
        int lanes = Math.max(MIN_LANES, Math.min(MAX_LANES, BATCH_DOUBLES / n));
        return Math.min(lanes, extent);
    }

    /** Transforms every line along {@code axis} (0, 1 or 2) of the block in place. */
    void transform(StockhamFft fft, int direction, double[] re, double[] im, int d1, int d2, int d3, int axis) {
        int n = fft.length();
        int expected = axis == 0 ? d1 : axis == 1 ? d2 : d3;
        if (n != expected) {
            throw new IllegalArgumentException("AxisFft: FFT length " + n + " for an axis of " + expected);
        }
        int lanes = lanes(n, axis == 0 ? d2 : d1);
        // Two regions with their own lambdas and batch methods, one for the contiguous axis and one
        // for the strided ones: each is compiled with a profile of its own path. One lambda holding
        // both paths was compiled by C2 for the path it had seen first and deoptimised ("uncommon
        // trap") when the other axis came, two or three times in a run, in the timed part.
        if (axis == 0) {
            int batches = (d2 / lanes) * d3;
            team.region(ctx -> {
                double[][][] s = scratch[ctx.id()];
                ctx.parallelForRange(0, batches, Schedule.STATIC,
                        (from, to) -> lineBatches(fft, direction, re, im, s, n, lanes, from, to));
            });
        } else {
            int blocks = d1 / lanes;
            int batches = blocks * (axis == 1 ? d3 : d2);
            int outerStride = axis == 1 ? d1 * d2 : d1;
            int stride = axis == 1 ? d1 : d1 * d2;
            team.region(ctx -> {
                double[][][] s = scratch[ctx.id()];
                ctx.parallelForRange(0, batches, Schedule.STATIC, (from, to) ->
                        stridedBatches(fft, direction, re, im, s, n, lanes, blocks, outerStride, stride, from, to));
            });
        }
    }

    /**
     * FFTs along axis 1 of the block {@code d1 x d2 x d3} (stride d1), with the results written
     * into {@code dst} cut into blocks of {@code rowsPerBlock} rows of axis 1 instead of back:
     * the x-line of (t, k) (its d1 points along axis 0) goes to block {@code p = t / rowsPerBlock}
     * at {@code p * blockDoubles + 2 * d1 * (k + d3 * (t % rowsPerBlock))}, real parts first, then
     * the d1 imaginary parts, where {@code blockDoubles = 2 * d1 * d3 * rowsPerBlock}. FT's 1D
     * layout sends its z-transformed data this way (the xzy grid's z ranges of the other ranks,
     * {@link SlabTranspose#sendBuffer}): every write is a run of {@code lanes} doubles, as in the
     * strided transforms.
     */
    void transformStridedInto(StockhamFft fft, int direction, double[] re, double[] im, int d1, int d2, int d3,
            double[] dst, int rowsPerBlock) {
        int n = fft.length();
        if (n != d2 || d2 % rowsPerBlock != 0) {
            throw new IllegalArgumentException("AxisFft: FFT length " + n + " for an axis of " + d2 + " in blocks of "
                    + rowsPerBlock);
        }
        int lanes = lanes(n, d1);
        int blocks = d1 / lanes;
        int batches = blocks * d3;
        team.region(ctx -> {
            double[][][] s = scratch[ctx.id()];
            ctx.parallelForRange(0, batches, Schedule.STATIC, (from, to) ->
                    stridedBatchesInto(fft, direction, re, im, s, n, lanes, blocks, d1, d3, dst, rowsPerBlock, from, to));
        });
    }

    /**
     * FFTs along axis 1 of the block {@code d1 x d2 x d3} (in place in {@code re, im}), whose
     * input is read from {@code src} in the line blocks that {@link #transformStridedInto} writes:
     * the x-line of (t, k) from block {@code p = t / rowsPerBlock} at {@code p * blockDoubles + 2 *
     * d1 * ((t % rowsPerBlock) + rowsPerBlock * k)}, real parts then imaginary parts, where
     * {@code blockDoubles = 2 * d1 * rowsPerBlock * d3}. That is the alltoall's receive buffer of
     * FT's 1D layout going back from z to x (block p holds y range p of every local z plane), so
     * the transpose's local finish is this FFT's gather.
     */
    void transformColumnsFrom(StockhamFft fft, int direction, double[] src, int rowsPerBlock, double[] re,
            double[] im, int d1, int d2, int d3) {
        transformColumnsFrom(fft, direction, src, null, -1, rowsPerBlock, re, im, d1, d2, d3);
    }

    /**
     * As {@link #transformColumnsFrom(StockhamFft, int, double[], int, double[], double[], int, int, int)},
     * with block {@code ownBlock} read from {@code own} (at the same offset) instead of {@code src}:
     * the rank's own block, which the exchange leaves in the send buffer ({@link SlabTranspose#ownBlock}).
     */
    void transformColumnsFrom(StockhamFft fft, int direction, double[] src, double[] own, int ownBlock,
            int rowsPerBlock, double[] re, double[] im, int d1, int d2, int d3) {
        int n = fft.length();
        if (n != d2 || d2 % rowsPerBlock != 0) {
            throw new IllegalArgumentException("AxisFft: FFT length " + n + " for an axis of " + d2 + " in blocks of "
                    + rowsPerBlock);
        }
        int lanes = lanes(n, d1);
        int blocks = d1 / lanes;
        int batches = blocks * d3;
        team.region(ctx -> {
            double[][][] s = scratch[ctx.id()];
            ctx.parallelForRange(0, batches, Schedule.STATIC, (from, to) ->
                    columnBatchesFrom(fft, direction, src, own, ownBlock, rowsPerBlock, re, im, s, n, lanes, blocks, d1, d3,
                            from, to));
        });
    }

    private static void stridedBatchesInto(StockhamFft fft, int direction, double[] re, double[] im, double[][][] s,
            int n, int lanes, int blocks, int d1, int d3, double[] dst, int rowsPerBlock, int from, int to) {
        int blockDoubles = 2 * d1 * d3 * rowsPerBlock;
        for (int b = from; b < to; b++) {
            int k = b / blocks;
            int i0 = (b % blocks) * lanes;
            int base = k * d1 * n + i0;
            for (int t = 0; t < n; t++) {
                System.arraycopy(re, base + t * d1, s[0][t], 0, lanes);
                System.arraycopy(im, base + t * d1, s[1][t], 0, lanes);
            }
            fft.transform(direction, lanes, s[0], s[1], s[2], s[3]);
            for (int t = 0; t < n; t++) {
                int at = (t / rowsPerBlock) * blockDoubles + 2 * d1 * (k + d3 * (t % rowsPerBlock)) + i0;
                System.arraycopy(s[0][t], 0, dst, at, lanes);
                System.arraycopy(s[1][t], 0, dst, at + d1, lanes);
            }
        }
    }

    private static void columnBatchesFrom(StockhamFft fft, int direction, double[] src, double[] own, int ownBlock,
            int rowsPerBlock, double[] re, double[] im, double[][][] s, int n, int lanes, int blocks, int d1, int d3,
            int from, int to) {
        int blockDoubles = 2 * d1 * rowsPerBlock * d3;
        for (int b = from; b < to; b++) {
            int k = b / blocks;
            int i0 = (b % blocks) * lanes;
            for (int t = 0; t < n; t++) {
                int p = t / rowsPerBlock;
                double[] in = p == ownBlock ? own : src;
                int at = p * blockDoubles + 2 * d1 * ((t % rowsPerBlock) + rowsPerBlock * k) + i0;
                System.arraycopy(in, at, s[0][t], 0, lanes);
                System.arraycopy(in, at + d1, s[1][t], 0, lanes);
            }
            fft.transform(direction, lanes, s[0], s[1], s[2], s[3]);
            int base = k * d1 * n + i0;
            for (int t = 0; t < n; t++) {
                System.arraycopy(s[0][t], 0, re, base + t * d1, lanes);
                System.arraycopy(s[1][t], 0, im, base + t * d1, lanes);
            }
        }
    }

    /** Batches [from, to) along the contiguous axis: batch b is lines b*lanes .. +lanes-1, each n long. */
    private static void lineBatches(StockhamFft fft, int direction, double[] re, double[] im, double[][][] s, int n,
            int lanes, int from, int to) {
        for (int b = from; b < to; b++) {
            int base = b * lanes * n;
            gatherRows(re, s[0], base, n, lanes);
            gatherRows(im, s[1], base, n, lanes);
            fft.transform(direction, lanes, s[0], s[1], s[2], s[3]);
            scatterRows(s[0], re, base, n, lanes);
            scatterRows(s[1], im, base, n, lanes);
        }
    }

    /**
     * Batches [from, to) along a strided axis: batch b is lanes consecutive points
     * ((b % blocks) * lanes ..) of the lines at {@code (b / blocks) * outerStride}, point t of
     * each line {@code t * stride} further on.
     */
    private static void stridedBatches(StockhamFft fft, int direction, double[] re, double[] im, double[][][] s,
            int n, int lanes, int blocks, int outerStride, int stride, int from, int to) {
        for (int b = from; b < to; b++) {
            int base = (b / blocks) * outerStride + (b % blocks) * lanes;
            for (int t = 0; t < n; t++) {
                System.arraycopy(re, base + t * stride, s[0][t], 0, lanes);
                System.arraycopy(im, base + t * stride, s[1][t], 0, lanes);
            }
            fft.transform(direction, lanes, s[0], s[1], s[2], s[3]);
            for (int t = 0; t < n; t++) {
                System.arraycopy(s[0][t], 0, re, base + t * stride, lanes);
                System.arraycopy(s[1][t], 0, im, base + t * stride, lanes);
            }
        }
    }

    /** Lane j = line j of length n starting at base: batch[t][j] = x[base + j*n + t], each line read in order. */
    private static void gatherRows(double[] x, double[][] batch, int base, int n, int lanes) {
        for (int j = 0; j < lanes; j++) {
            int line = base + j * n;
            for (int t = 0; t < n; t++) {
                batch[t][j] = x[line + t];
            }
        }
    }

    private static void scatterRows(double[][] batch, double[] x, int base, int n, int lanes) {
        for (int j = 0; j < lanes; j++) {
            int line = base + j * n;
            for (int t = 0; t < n; t++) {
                x[line + t] = batch[t][j];
            }
        }
    }
}
