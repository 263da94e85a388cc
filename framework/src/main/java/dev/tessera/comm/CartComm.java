package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A communicator with a Cartesian topology: ranks laid out on a d-dimensional grid in
 * row-major order (the last dimension varies fastest), each dimension periodic or not.
 */
public final class CartComm extends Comm {

    private final int[] dims;
    private final boolean[] periods;

    CartComm(RankEnvironment env, Group group, int context, int[] dims, boolean[] periods) {
        super(env, group, context);
        this.dims = dims;
        this.periods = periods;
    }

    /** The source and destination of a shift; either may be {@link Comm#PROC_NULL} at a non-periodic edge. */
    public record Shift(int source, int dest) {
    }

    public int ndims() {
        return dims.length;
    }

    public int[] dims() {
        return dims.clone();
    }

    public boolean[] periods() {
        return periods.clone();
    }

    /** This rank's grid coordinates. */
    public int[] coords() {
        return coords(rank());
    }

    /** Grid coordinates of a rank. */
    public int[] coords(int rank) {
        if (rank < 0 || rank >= size()) {
            throw new TesseraException(ErrorClass.RANK, where("CartComm.coords") + ": invalid rank " + rank
                    + " (communicator size " + size() + ")");
        }
        int[] c = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            c[d] = rank % dims[d];
            rank /= dims[d];
        }
        return c;
    }

    /**
     * The rank at grid coordinates; coordinates outside a periodic dimension wrap, outside
     * a non-periodic one are an error.
     */
    public int rankOf(int... coords) {
        return rankOrNull(coords, true);
    }

    private int rankOrNull(int[] coords, boolean strict) {
        if (coords == null || coords.length != dims.length) {
            throw new TesseraException(ErrorClass.DIMS, where("CartComm.rankOf") + ": need " + dims.length + " coordinates");
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++) {
            int c = coords[d];
            if (c < 0 || c >= dims[d]) {
                if (!periods[d]) {
                    if (strict) {
                        throw new TesseraException(ErrorClass.ARG, where("CartComm.rankOf") + ": coordinate " + c
                                + " outside non-periodic dimension " + d + " of extent " + dims[d]);
                    }
                    return PROC_NULL;
                }
                c = Math.floorMod(c, dims[d]);
            }
            r = r * dims[d] + c;
        }
        return r;
    }

    /**
     * The neighbours for a shift by {@code displacement} along {@code dimension}: this rank
     * receives from {@code source} and sends to {@code dest}.
     */
    public Shift shift(int dimension, int displacement) {
        if (dimension < 0 || dimension >= dims.length) {
            throw new TesseraException(ErrorClass.DIMS, where("CartComm.shift") + ": invalid dimension " + dimension
                    + " (grid has " + dims.length + ")");
        }
        int[] c = coords();
        int[] up = c.clone();
        int[] down = c.clone();
        up[dimension] += displacement;
        down[dimension] -= displacement;
        return new Shift(rankOrNull(down, false), rankOrNull(up, false));
    }

    /** The communicator of the sub-grid keeping the dimensions where {@code remain} is true (collective). */
    public CartComm sub(boolean... remain) {
        checkCall("CartComm.sub");
        return CommCreation.sub(this, remain);
    }

    /**
     * A balanced grid shape for {@code nodes} ranks (MPI_Dims_create): entries of
     * {@code dims} that are positive are kept, zeros are filled so that the product is
     * {@code nodes} and the filled dimensions are as close to each other as possible, in
     * non-increasing order.
     */
    public static int[] dimsCreate(int nodes, int[] dims) {
        if (nodes < 1 || dims == null) {
            throw new TesseraException(ErrorClass.DIMS, "CartComm.dimsCreate: need nodes >= 1 and a dims array");
        }
        int fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw new TesseraException(ErrorClass.DIMS, "CartComm.dimsCreate: negative dimension " + d);
            }
            if (d > 0) {
                fixed *= d;
            } else {
                free++;
            }
        }
        if (nodes % fixed != 0) {
            throw new TesseraException(ErrorClass.DIMS, "CartComm.dimsCreate: " + nodes
                    + " ranks cannot be divided by the fixed dimensions (product " + fixed + ")");
        }
        int[] out = dims.clone();
        if (free == 0) {
            if (fixed != nodes) {
                throw new TesseraException(ErrorClass.DIMS, "CartComm.dimsCreate: dimensions multiply to " + fixed
                        + ", not " + nodes);
            }
            return out;
        }
        int[] filled = new int[free];
        Arrays.fill(filled, 1);
        List<Integer> factors = primeFactors(nodes / fixed);
        for (int i = factors.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int k = 1; k < free; k++) {
                if (filled[k] < filled[smallest]) {
                    smallest = k;
                }
            }
            filled[smallest] *= factors.get(i);
        }
        Arrays.sort(filled);
        int k = free - 1;
        for (int d = 0; d < out.length; d++) {
            if (out[d] == 0) {
                out[d] = filled[k--];
            }
        }
        return out;
    }

    private static List<Integer> primeFactors(int n) {
        List<Integer> f = new ArrayList<>();
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                f.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            f.add(n);
        }
        return f;
    }

    @Override
    public String toString() {
        return "CartComm[rank " + rank() + " of " + size() + ", dims " + Arrays.toString(dims)
                + ", periods " + Arrays.toString(periods) + "]";
    }
}
