package dev.tessera.gpu;

import java.util.Arrays;

/**
 * The global index space of a kernel launch, one to three dimensions, dimension 0 fastest
 * (OpenCL's {@code get_global_id(0)}, CUDA's x). Kernels receive their logical sizes as
 * arguments and check bounds: CUDA rounds the space up to whole blocks.
 */
public record WorkSize(long[] dims) {

    public WorkSize {
        if (dims.length < 1 || dims.length > 3) {
            throw new IllegalArgumentException("a work size has 1 to 3 dimensions, got " + dims.length);
        }
        for (long d : dims) {
            if (d < 0) {
                throw new IllegalArgumentException("negative work size " + Arrays.toString(dims));
            }
        }
        dims = dims.clone();
    }

    public static WorkSize of(long x) {
        return new WorkSize(new long[] {x});
    }

    public static WorkSize of(long x, long y) {
        return new WorkSize(new long[] {x, y});
    }

    public static WorkSize of(long x, long y, long z) {
        return new WorkSize(new long[] {x, y, z});
    }

    @Override
    public long[] dims() {
        return dims.clone();
    }

    public int rank() {
        return dims.length;
    }

    /** Extent of dimension d (1 beyond the rank). */
    public long dim(int d) {
        return d < dims.length ? dims[d] : 1;
    }

    /** Total number of work items. */
    public long total() {
        long t = 1;
        for (long d : dims) {
            t *= d;
        }
        return t;
    }

    public boolean isEmpty() {
        return total() == 0;
    }

    @Override
    public String toString() {
        return Arrays.toString(dims);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WorkSize w && Arrays.equals(dims, w.dims);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims);
    }
}
