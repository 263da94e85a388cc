package dev.tessera.gpu;

import java.util.Arrays;

/**
 * Tessera's built-in kernels on padded 3D blocks (source: {@code kernels/grid.cl}), with
 * their Java bodies for the CPU backend: fill, axpy, packing a box of a field into a
 * contiguous buffer and back (what a halo exchange sends), and the 7-point explicit heat
 * step over a box. One instance per accelerator: {@link Accelerator#gridKernels()}.
 * Fields are double precision; {@code padded} is the block's padded extents (three).
 */
public final class GridKernels {

    private final Kernel fill;
    private final Kernel axpy;
    private final Kernel pack;
    private final Kernel unpack;
    private final Kernel laplace;

    GridKernels(Program program) {
        this.fill = program.kernel("fill_double");
        this.axpy = program.kernel("axpy_double");
        this.pack = program.kernel("pack_box_double");
        this.unpack = program.kernel("unpack_box_double");
        this.laplace = program.kernel("laplace_step_double");
    }

    /** The source with the CPU bodies. */
    static KernelSource source() {
        return KernelSource.fromResource(GridKernels.class, "kernels/grid.cl")
                .withCpu("fill_double", GridKernels::cpuFill)
                .withCpu("axpy_double", GridKernels::cpuAxpy)
                .withCpu("pack_box_double", GridKernels::cpuPack)
                .withCpu("unpack_box_double", GridKernels::cpuUnpack)
                .withCpu("laplace_step_double", GridKernels::cpuLaplace);
    }

    /** a[i] = v for every element. */
    public Event fill(Queue q, DeviceBuffer a, double v) {
        requireDouble("fill", a);
        return q.launch(fill, WorkSize.of(a.count()), a, a.count(), v);
    }

    /** y += alpha * x over all of y (x at least as long). */
    public Event axpy(Queue q, DeviceBuffer y, double alpha, DeviceBuffer x) {
        requireDouble("axpy", y);
        requireDouble("axpy", x);
        if (x.count() < y.count()) {
            throw new IllegalArgumentException("GridKernels.axpy: x has " + x.count() + " elements, y " + y.count());
        }
        return q.launch(axpy, WorkSize.of(y.count()), y, x, alpha, y.count());
    }

    /** Copies {@code box} of {@code field} into {@code out} from element {@code outOffset}, k fastest. */
    public Event pack(Queue q, DeviceBuffer field, int[] padded, IndexBox box, DeviceBuffer out, long outOffset) {
        checkBox("pack", field, padded, box);
        requireDouble("pack", out);
        if (outOffset < 0 || outOffset + box.cells() > out.count()) {
            throw new IndexOutOfBoundsException("GridKernels.pack: " + box.cells() + " cells at " + outOffset
                    + " overflow " + out);
        }
        return launchBox(q, pack, padded, box, field, out, outOffset);
    }

    /** Copies {@code in} from element {@code inOffset} into {@code box} of {@code field} (the inverse of {@link #pack}). */
    public Event unpack(Queue q, DeviceBuffer in, long inOffset, DeviceBuffer field, int[] padded, IndexBox box) {
        checkBox("unpack", field, padded, box);
        requireDouble("unpack", in);
        if (inOffset < 0 || inOffset + box.cells() > in.count()) {
            throw new IndexOutOfBoundsException("GridKernels.unpack: " + box.cells() + " cells at " + inOffset
                    + " overflow " + in);
        }
        return launchBox(q, unpack, padded, box, in, inOffset, field);
    }

    /**
     * out = in + r * (7-point Laplacian of in) over {@code box}; every cell of the box needs
     * its six neighbours inside the padded block.
     */
    public Event laplaceStep(Queue q, DeviceBuffer in, DeviceBuffer out, double r, int[] padded, IndexBox box) {
        checkBox("laplaceStep", in, padded, box);
        checkBox("laplaceStep", out, padded, box);
        for (int d = 0; d < 3 && !box.isEmpty(); d++) {
            if (box.lo()[d] < 1 || box.hi()[d] > padded[d] - 1) {
                throw new IndexOutOfBoundsException("GridKernels.laplaceStep: box " + box
                        + " needs neighbours outside the padded block " + Arrays.toString(padded));
            }
        }
        return launchBox(q, laplace, padded, box, in, out, r);
    }

    // ------------------------------------------------------------ launch arguments

    private static WorkSize workSize(IndexBox box) {
        return WorkSize.of(box.extent(2), box.extent(1), box.extent(0));
    }

    /** Launches a box kernel: its leading arguments, then p1, p2, i0, j0, k0, ni, nj, nk. */
    private static Event launchBox(Queue q, Kernel k, int[] padded, IndexBox box, Object... head) {
        int[] lo = box.lo();
        Object[] all = Arrays.copyOf(head, head.length + 8);
        Object[] tail = {padded[1], padded[2], lo[0], lo[1], lo[2], box.extent(0), box.extent(1), box.extent(2)};
        System.arraycopy(tail, 0, all, head.length, 8);
        return q.launch(k, workSize(box), all);
    }

    private static void requireDouble(String call, DeviceBuffer b) {
        if (b.type() != ElementType.DOUBLE) {
            throw new IllegalArgumentException("GridKernels." + call + ": needs a DOUBLE buffer, got " + b);
        }
    }

    private static void checkBox(String call, DeviceBuffer field, int[] padded, IndexBox box) {
        requireDouble(call, field);
        if (padded.length != 3) {
            throw new IllegalArgumentException("GridKernels." + call + ": padded extents need 3 dimensions");
        }
        if ((long) padded[0] * padded[1] * padded[2] > field.count()) {
            throw new IllegalArgumentException("GridKernels." + call + ": padded block " + Arrays.toString(padded)
                    + " larger than " + field);
        }
        for (int d = 0; d < 3 && !box.isEmpty(); d++) {
            if (box.lo()[d] < 0 || box.hi()[d] > padded[d]) {
                throw new IndexOutOfBoundsException("GridKernels." + call + ": box " + box + " outside the padded block "
                        + Arrays.toString(padded));
            }
        }
    }

    // ------------------------------------------------------------ CPU bodies (same arithmetic as grid.cl)

    private static void cpuFill(CpuLaunch l) {
        double[] a = l.doubles(0);
        int n = Math.toIntExact(l.longArg(1));
        double v = l.doubleArg(2);
        l.parallelFor(0, n, 1, (from, to) -> Arrays.fill(a, from, to, v));
    }

    private static void cpuAxpy(CpuLaunch l) {
        double[] y = l.doubles(0);
        double[] x = l.doubles(1);
        double alpha = l.doubleArg(2);
        int n = Math.toIntExact(l.longArg(3));
        l.parallelFor(0, n, 1, (from, to) -> {
            for (int i = from; i < to; i++) {
                y[i] += alpha * x[i];
            }
        });
    }

    private static void cpuPack(CpuLaunch l) {
        double[] field = l.doubles(0);
        double[] out = l.doubles(1);
        int off = Math.toIntExact(l.longArg(2));
        BoxArgs b = BoxArgs.from(l, 3);
        l.parallelFor(0, b.ni, (long) b.nj * b.nk, (from, to) -> {
            for (int i = from; i < to; i++) {
                for (int j = 0; j < b.nj; j++) {
                    System.arraycopy(field, b.cell(i, j, 0), out, off + (i * b.nj + j) * b.nk, b.nk);
                }
            }
        });
    }

    private static void cpuUnpack(CpuLaunch l) {
        double[] in = l.doubles(0);
        int off = Math.toIntExact(l.longArg(1));
        double[] field = l.doubles(2);
        BoxArgs b = BoxArgs.from(l, 3);
        l.parallelFor(0, b.ni, (long) b.nj * b.nk, (from, to) -> {
            for (int i = from; i < to; i++) {
                for (int j = 0; j < b.nj; j++) {
                    System.arraycopy(in, off + (i * b.nj + j) * b.nk, field, b.cell(i, j, 0), b.nk);
                }
            }
        });
    }

    private static void cpuLaplace(CpuLaunch l) {
        double[] in = l.doubles(0);
        double[] out = l.doubles(1);
        double r = l.doubleArg(2);
        BoxArgs b = BoxArgs.from(l, 3);
        int si = b.p1 * b.p2;
        int sj = b.p2;
        l.parallelFor(0, b.ni, (long) b.nj * b.nk, (from, to) -> {
            for (int i = from; i < to; i++) {
                for (int j = 0; j < b.nj; j++) {
                    for (int c = b.cell(i, j, 0), end = c + b.nk; c < end; c++) {
                        out[c] = in[c] + r * (in[c - si] + in[c + si] + in[c - sj] + in[c + sj] + in[c - 1] + in[c + 1]
                                - 6.0 * in[c]);
                    }
                }
            }
        });
    }

    /** The eight box arguments of the box kernels, from argument index {@code first}. */
    private record BoxArgs(int p1, int p2, int i0, int j0, int k0, int ni, int nj, int nk) {
        static BoxArgs from(CpuLaunch l, int first) {
            return new BoxArgs(l.intArg(first), l.intArg(first + 1), l.intArg(first + 2), l.intArg(first + 3),
                    l.intArg(first + 4), l.intArg(first + 5), l.intArg(first + 6), l.intArg(first + 7));
        }

        /** Flat index of box cell (i, j, k). */
        int cell(int i, int j, int k) {
            return ((i0 + i) * p1 + (j0 + j)) * p2 + (k0 + k);
        }
    }
}
