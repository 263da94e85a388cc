package dev.tessera.io.pfile;

import dev.tessera.comm.Datatype;
import java.io.Serializable;
import java.util.Arrays;

/**
 * An n-dimensional block of a global array in row-major (C) order, like
 * {@code MPI_Type_create_subarray(..., MPI_ORDER_C, ...)}: {@code sizes} is the global
 * shape, {@code subsizes} the block's shape and {@code starts} its first index.
 *
 * <p>Flattened, a block is a sequence of equally long <em>runs</em> of contiguous bytes:
 * the trailing dimensions that the block covers whole merge with the innermost partial one
 * into one run, and the leading dimensions enumerate the runs. Run {@code k}'s byte offset
 * from the start of the global array is computed in O(ndims) from its mixed-radix digits,
 * so a block of any size is described without materialising its runs, and the offsets
 * grow strictly with {@code k} (the property two-phase I/O and the overlap check rely on).
 * The extent of the layout is the whole global array, as in MPI, so tiling a view with it
 * places successive blocks one global array apart.
 */
public record Subarray(Datatype type, int[] sizes, int[] subsizes, int[] starts) implements Serializable {

    public Subarray {
        if (type == null || type == Datatype.OBJECT || type == Datatype.BOOLEAN) {
            throw new IllegalArgumentException("Subarray: element type must be a primitive numeric type, got " + type);
        }
        if (sizes == null || subsizes == null || starts == null) {
            throw new IllegalArgumentException("Subarray: sizes, subsizes and starts must not be null");
        }
        if (sizes.length == 0 || sizes.length != subsizes.length || sizes.length != starts.length) {
            throw new IllegalArgumentException("Subarray: sizes " + Arrays.toString(sizes) + ", subsizes "
                    + Arrays.toString(subsizes) + " and starts " + Arrays.toString(starts)
                    + " must have the same number (>= 1) of dimensions");
        }
        sizes = sizes.clone();
        subsizes = subsizes.clone();
        starts = starts.clone();
        for (int d = 0; d < sizes.length; d++) {
            if (sizes[d] < 1 || subsizes[d] < 0 || starts[d] < 0 || starts[d] + (long) subsizes[d] > sizes[d]) {
                throw new IllegalArgumentException("Subarray: dimension " + d + ": block [start " + starts[d]
                        + ", size " + subsizes[d] + "] does not fit in global size " + sizes[d]
                        + " (sizes " + Arrays.toString(sizes) + ", subsizes " + Arrays.toString(subsizes)
                        + ", starts " + Arrays.toString(starts) + ")");
            }
        }
    }

    /** A block of a global array of {@code type}. */
    public static Subarray of(Datatype type, int[] sizes, int[] subsizes, int[] starts) {
        return new Subarray(type, sizes, subsizes, starts);
    }

    /** The whole global array (one contiguous run). */
    public static Subarray whole(Datatype type, int... sizes) {
        return new Subarray(type, sizes, sizes, new int[sizes.length]);
    }

    public int ndims() {
        return sizes.length;
    }

    /** Elements in the block. */
    public long elementCount() {
        long n = 1;
        for (int s : subsizes) {
            n *= s;
        }
        return n;
    }

    /** Bytes of data in the block. */
    public long dataBytes() {
        return elementCount() * type.byteSize();
    }

    /** Bytes of the whole global array: the distance between tiles of a view. */
    public long extentBytes() {
        long n = type.byteSize();
        for (int s : sizes) {
            n *= s;
        }
        return n;
    }

    /** Index of the first dimension that belongs to the run (all later dimensions are covered whole). */
    int runDimension() {
        int d = sizes.length - 1;
        while (d > 0 && subsizes[d] == sizes[d]) {
            d--;
        }
        return d;
    }

    /** Bytes of one run. */
    long runBytes() {
        int rd = runDimension();
        long n = (long) subsizes[rd] * type.byteSize();
        for (int d = rd + 1; d < sizes.length; d++) {
            n *= sizes[d];
        }
        return n;
    }

    /** Number of runs in the block. */
    long runCount() {
        if (elementCount() == 0) {
            return 0;
        }
        long n = 1;
        for (int d = 0; d < runDimension(); d++) {
            n *= subsizes[d];
        }
        return n;
    }

    /** Byte offset of run {@code k} from the start of the global array. */
    long runOffset(long k) {
        int rd = runDimension();
        long offset = starts[rd];
        long stride = 1;
        for (int d = sizes.length - 1; d > rd; d--) {
            stride *= sizes[d];
        }
        long elements = offset * stride;
        long rest = k;
        for (int d = rd - 1; d >= 0; d--) {
            stride *= sizes[d + 1];
            long digit = rest % subsizes[d];
            rest /= subsizes[d];
            elements += (starts[d] + digit) * stride;
        }
        return elements * type.byteSize();
    }

    /** True if the two blocks of the same global shape share an element. */
    public boolean intersects(Subarray other) {
        if (!Arrays.equals(sizes, other.sizes) || elementCount() == 0 || other.elementCount() == 0) {
            return false;
        }
        for (int d = 0; d < sizes.length; d++) {
            if (starts[d] >= other.starts[d] + other.subsizes[d] || other.starts[d] >= starts[d] + subsizes[d]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Subarray s && type == s.type && Arrays.equals(sizes, s.sizes)
                && Arrays.equals(subsizes, s.subsizes) && Arrays.equals(starts, s.starts);
    }

    @Override
    public int hashCode() {
        return (type.hashCode() * 31 + Arrays.hashCode(sizes)) * 31 + Arrays.hashCode(subsizes) * 7 + Arrays.hashCode(starts);
    }

    @Override
    public String toString() {
        return "Subarray[" + type + ", sizes " + Arrays.toString(sizes) + ", subsizes " + Arrays.toString(subsizes)
                + ", starts " + Arrays.toString(starts) + "]";
    }
}
