package dev.tessera.io.hdf5;

import java.util.Arrays;

/**
 * A box of a row-major n-d array: its {@code offset} in every dimension and its
 * {@code count} of elements there, with the walk that every writer and reader here is
 * built on: the box as a sequence of <em>runs</em>, stretches of elements contiguous in the
 * enclosing array, in increasing order of position. Trailing dimensions that the box covers
 * completely merge into one run (a slab of a 3-d array in its first dimension is a single
 * run), so a rank's block costs as few file operations as its shape allows.
 */
public record Hyperslab(long[] offset, long[] count) {

    public Hyperslab {
        offset = offset.clone();
        count = count.clone();
        if (offset.length != count.length) {
            throw new IllegalArgumentException("offset has " + offset.length + " dimensions, count " + count.length);
        }
    }

    /** The whole of an array of {@code shape}. */
    public static Hyperslab whole(long[] shape) {
        return new Hyperslab(new long[shape.length], shape);
    }

    public int rank() {
        return offset.length;
    }

    /** Number of elements in the box. */
    public long volume() {
        long v = 1;
        for (long c : count) {
            v = Math.multiplyExact(v, c);
        }
        return v;
    }

    /** True when the box lies inside an array of {@code shape} (same rank, non-negative). */
    public boolean fitsIn(long[] shape) {
        if (shape.length != offset.length) {
            return false;
        }
        for (int d = 0; d < shape.length; d++) {
            if (offset[d] < 0 || count[d] < 0 || offset[d] + count[d] > shape[d]) {
                return false;
            }
        }
        return true;
    }

    /** The intersection with {@code other}, or null when they share no element. */
    public Hyperslab intersect(Hyperslab other) {
        long[] o = new long[rank()];
        long[] c = new long[rank()];
        for (int d = 0; d < rank(); d++) {
            long lo = Math.max(offset[d], other.offset[d]);
            long hi = Math.min(offset[d] + count[d], other.offset[d] + other.count[d]);
            if (hi <= lo) {
                return null;
            }
            o[d] = lo;
            c[d] = hi - lo;
        }
        return new Hyperslab(o, c);
    }

    @Override
    public String toString() {
        return "offset " + Arrays.toString(offset) + " count " + Arrays.toString(count);
    }

    /** Receives the runs of {@link #forEachRun}. */
    @FunctionalInterface
    public interface RunConsumer {
        /**
         * @param arrayIndex element index of the run's start in the enclosing array
         * @param boxIndex element index of the run's start in the box (row-major over count)
         * @param length elements in the run
         */
        void run(long arrayIndex, long boxIndex, long length);
    }

    /**
     * Walks the box inside an array of {@code shape} as runs contiguous in that array, in
     * increasing {@code arrayIndex}. An empty box has no runs.
     */
    public void forEachRun(long[] shape, RunConsumer consumer) {
        int n = rank();
        if (volume() == 0) {
            return;
        }
        if (n == 0) {
            consumer.run(0, 0, 1);
            return;
        }
        // k: the first dimension of the merged run; every later dimension is covered whole
        int k = n - 1;
        while (k > 0 && count[k] == shape[k]) {
            k--;
        }
        long[] stride = new long[n];
        stride[n - 1] = 1;
        for (int d = n - 2; d >= 0; d--) {
            stride[d] = stride[d + 1] * shape[d + 1];
        }
        long runLength = 1;
        for (int d = k; d < n; d++) {
            runLength *= count[d];
        }
        long[] idx = new long[k]; // odometer over dimensions 0..k-1, relative to offset
        long boxIndex = 0;
        while (true) {
            long arrayIndex = 0;
            for (int d = 0; d < k; d++) {
                arrayIndex += (offset[d] + idx[d]) * stride[d];
            }
            arrayIndex += offset[k] * stride[k];
            for (int d = k + 1; d < n; d++) {
                arrayIndex += offset[d] * stride[d]; // zero: covered whole
            }
            consumer.run(arrayIndex, boxIndex, runLength);
            boxIndex += runLength;
            int d = k - 1;
            while (d >= 0) {
                if (++idx[d] < count[d]) {
                    break;
                }
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /** Row-major element index of {@code point} in an array of {@code shape}. */
    static long linearIndex(long[] shape, long[] point) {
        long index = 0;
        for (int d = 0; d < shape.length; d++) {
            index = index * shape[d] + point[d];
        }
        return index;
    }

    /** The box relative to {@code origin} (its offset minus origin). */
    Hyperslab relativeTo(long[] origin) {
        long[] o = new long[rank()];
        for (int d = 0; d < rank(); d++) {
            o[d] = offset[d] - origin[d];
        }
        return new Hyperslab(o, count);
    }

    /**
     * Copies the elements of {@code region} (global coordinates) from an array of
     * {@code srcShape} whose element [0,..,0] sits at global {@code srcOrigin} to one of
     * {@code dstShape} at {@code dstOrigin}, converting byte order between the layouts.
     * Rows along the last dimension are copied one {@link MemorySegment#copy} each.
     */
    static void copy(java.lang.foreign.MemorySegment src, java.lang.foreign.ValueLayout srcLayout, long[] srcShape,
            long[] srcOrigin, java.lang.foreign.MemorySegment dst, java.lang.foreign.ValueLayout dstLayout,
            long[] dstShape, long[] dstOrigin, Hyperslab region) {
        int n = region.rank();
        long size = srcLayout.byteSize();
        if (region.volume() == 0) {
            return;
        }
        if (n == 0) {
            java.lang.foreign.MemorySegment.copy(src, srcLayout, 0, dst, dstLayout, 0, 1);
            return;
        }
        long row = region.count[n - 1];
        long[] idx = new long[n - 1];
        long[] ps = new long[n];
        long[] pd = new long[n];
        while (true) {
            for (int d = 0; d < n; d++) {
                long g = region.offset[d] + (d < n - 1 ? idx[d] : 0);
                ps[d] = g - srcOrigin[d];
                pd[d] = g - dstOrigin[d];
            }
            java.lang.foreign.MemorySegment.copy(src, srcLayout, linearIndex(srcShape, ps) * size,
                    dst, dstLayout, linearIndex(dstShape, pd) * size, row);
            int d = n - 2;
            while (d >= 0) {
                if (++idx[d] < region.count[d]) {
                    break;
                }
                idx[d] = 0;
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
