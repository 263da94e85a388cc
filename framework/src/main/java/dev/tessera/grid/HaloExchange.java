package dev.tessera.grid;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import java.util.ArrayList;
import java.util.List;

/**
 * Ghost-cell exchange for a 1D, 2D or 3D block of a Cartesian grid (AMReX's
 * FillBoundary in one call). The local array holds the interior with {@code ghost}
 * layers on every side, row-major (last dimension fastest): padded extent
 * {@code interior[d] + 2 * ghost}, interior at padded indices {@code [ghost, ghost + interior[d])}.
 * Neighbours and periodicity come from the {@link CartComm}; at a non-periodic edge the
 * ghost layer is left as it is (boundary conditions are the caller's).
 *
 * <p>Faces only (the default): every dimension's two slabs are exchanged at once, over
 * the interior range of the other dimensions. With corners, dimensions are exchanged
 * one after the other, each over the full padded range of the dimensions done before,
 * so edge and corner ghosts fill through two or three hops, as in MPI codes that
 * exchange x, then y including the x ghosts, and so on.
 *
 * <p>{@link #begin} packs and posts the messages and returns; interior work that needs no
 * ghost can run before {@link Pending#finish}, which waits and unpacks (for corners it
 * also does the dimensions after the first). One exchange per HaloExchange may be in
 * flight at a time: its message buffers are reused from step to step.
 */
public final class HaloExchange {

    private static final int TAG_BASE = 1_000_000;

    private final CartComm grid;
    private final int ndims;
    private final int ghost;
    private final boolean corners;
    /** Interior and padded extents, padded to three dimensions with extent 1 and no ghost. */
    private final int[] interior = new int[3];
    private final int[] padded = new int[3];
    private final int[] ghosts = new int[3];
    private final int[] lower;
    private final int[] upper;
    /** Pack and unpack buffers per (dimension, side), allocated on first use and reused: one exchange in flight at a time. */
    private final double[][] outgoing = new double[6][];
    private final double[][] incoming = new double[6][];

    private HaloExchange(CartComm grid, int[] interiorExtents, int ghost, boolean corners) {
        this.grid = grid;
        this.ndims = interiorExtents.length;
        this.ghost = ghost;
        this.corners = corners;
        this.lower = new int[ndims];
        this.upper = new int[ndims];
        for (int d = 0; d < 3; d++) {
            interior[d] = d < ndims ? interiorExtents[d] : 1;
            ghosts[d] = d < ndims ? ghost : 0;
            padded[d] = interior[d] + 2 * ghosts[d];
        }
        for (int d = 0; d < ndims; d++) {
            CartComm.Shift s = grid.shift(d, 1);
            lower[d] = s.source();
            upper[d] = s.dest();
        }
    }

    /** A halo exchange for a local block of {@code interiorExtents} (one per grid dimension) with {@code ghost} layers. */
    public static HaloExchange create(CartComm grid, int[] interiorExtents, int ghost, boolean corners) {
        if (interiorExtents.length != grid.ndims() || interiorExtents.length < 1 || interiorExtents.length > 3) {
            throw new IllegalArgumentException("need one interior extent per grid dimension (1 to 3), grid has "
                    + grid.ndims());
        }
        if (ghost < 1) {
            throw new IllegalArgumentException("ghost width must be at least 1, got " + ghost);
        }
        for (int n : interiorExtents) {
            if (n < ghost) {
                throw new IllegalArgumentException("interior extent " + n + " is smaller than the ghost width " + ghost);
            }
        }
        return new HaloExchange(grid, interiorExtents.clone(), ghost, corners);
    }

    /** Padded extents (interior plus ghosts) of the local array, one per dimension. */
    public int[] paddedExtents() {
        int[] e = new int[ndims];
        System.arraycopy(padded, 0, e, 0, ndims);
        return e;
    }

    /** Number of elements of the local array. */
    public int length() {
        return padded[0] * padded[1] * padded[2];
    }

    /** Flat index of padded coordinates (i, j, k); missing trailing coordinates are 0. */
    public int index(int... c) {
        int i = c.length > 0 ? c[0] : 0;
        int j = c.length > 1 ? c[1] : 0;
        int k = c.length > 2 ? c[2] : 0;
        return (i * padded[1] + j) * padded[2] + k;
    }

    public int ghost() {
        return ghost;
    }

    /** Exchanges all ghost layers of {@code field} and returns when they are filled. */
    public void exchange(double[] field) {
        begin(field).finish();
    }

    /** Starts the exchange: packs and posts; call {@link Pending#finish} before reading ghosts or writing the border. */
    public Pending begin(double[] field) {
        if (field.length != length()) {
            throw new IllegalArgumentException("field has " + field.length + " elements, the padded block has " + length());
        }
        Pending p = new Pending(field);
        if (corners) {
            p.post(0);
        } else {
            for (int d = 0; d < ndims; d++) {
                p.post(d);
            }
        }
        return p;
    }

    /** An exchange in progress. */
    public final class Pending {
        private final double[] field;
        private final List<Request> requests = new ArrayList<>();
        private final List<Runnable> unpacks = new ArrayList<>();
        private int nextDimension;
        private boolean finished;

        private Pending(double[] field) {
            this.field = field;
        }

        private void post(int d) {
            for (int side = 0; side < 2; side++) {
                boolean up = side == 1;
                int neighbour = up ? upper[d] : lower[d];
                if (neighbour == Comm.PROC_NULL) {
                    continue;
                }
                int[][] sendBox = box(d, up ? interior[d] : ghost, ghost);
                int[][] recvBox = box(d, up ? interior[d] + ghost : 0, ghost);
                int slot = 2 * d + side;
                double[] out = pack(sendBox, slot);
                if (incoming[slot] == null) {
                    incoming[slot] = new double[out.length];
                }
                double[] in = incoming[slot];
                // A message going up arrives in the receiver's lower ghost: tag by direction of travel.
                requests.add(grid.irecv(Buffer.of(in), neighbour, TAG_BASE + 2 * d + (up ? 0 : 1)));
                requests.add(grid.isend(Buffer.of(out), neighbour, TAG_BASE + 2 * d + (up ? 1 : 0)));
                unpacks.add(() -> unpack(recvBox, in));
            }
            nextDimension = d + 1;
        }

        private void complete() {
            Request.waitAll(requests);
            requests.clear();
            unpacks.forEach(Runnable::run);
            unpacks.clear();
        }

        /** Waits for the messages and fills the ghost layers. */
        public void finish() {
            if (finished) {
                return;
            }
            complete();
            while (corners && nextDimension < ndims) {
                post(nextDimension);
                complete();
            }
            finished = true;
        }

        /** Box [lo, hi) per padded dimension for dimension d's slab starting at {@code from} with {@code width} layers. */
        private int[][] box(int d, int from, int width) {
            int[] lo = new int[3];
            int[] hi = new int[3];
            for (int e = 0; e < 3; e++) {
                boolean full = corners && e < d;
                lo[e] = full ? 0 : ghosts[e];
                hi[e] = full ? padded[e] : ghosts[e] + interior[e];
            }
            lo[d] = from;
            hi[d] = from + width;
            return new int[][] {lo, hi};
        }

        private double[] pack(int[][] b, int slot) {
            if (outgoing[slot] == null) {
                outgoing[slot] = new double[(b[1][0] - b[0][0]) * (b[1][1] - b[0][1]) * (b[1][2] - b[0][2])];
            }
            double[] out = outgoing[slot];
            int n = 0;
            for (int i = b[0][0]; i < b[1][0]; i++) {
                for (int j = b[0][1]; j < b[1][1]; j++) {
                    int row = (i * padded[1] + j) * padded[2];
                    int len = b[1][2] - b[0][2];
                    System.arraycopy(field, row + b[0][2], out, n, len);
                    n += len;
                }
            }
            return out;
        }

        private void unpack(int[][] b, double[] in) {
            int n = 0;
            for (int i = b[0][0]; i < b[1][0]; i++) {
                for (int j = b[0][1]; j < b[1][1]; j++) {
                    int row = (i * padded[1] + j) * padded[2];
                    int len = b[1][2] - b[0][2];
                    System.arraycopy(in, n, field, row + b[0][2], len);
                    n += len;
                }
            }
        }
    }
}
