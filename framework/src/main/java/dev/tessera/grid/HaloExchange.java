package dev.tessera.grid;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Ghost-cell exchange for a 1D, 2D or 3D block of a Cartesian grid (AMReX's FillBoundary in
 * one call), for one or several fields at once. Every field has the same local layout: the
 * interior with {@code ghost} layers on every side, row-major (last dimension fastest):
 * padded extent {@code interior[d] + 2 * ghost}, interior at padded indices
 * {@code [ghost, ghost + interior[d])}, flat index {@link #index(int, int, int)}. Fields may
 * be {@code double[]}, {@code float[]} or native {@link MemorySegment}s of doubles or floats
 * ({@link Field}). Neighbours and periodicity come from the {@link CartComm}; at a
 * non-periodic edge the ghost layer is left as it is (boundary conditions are the caller's).
 *
 * <p>{@link Shape#FACES} (what a 7-point stencil needs): every dimension's two slabs are
 * exchanged at once, over the interior range of the other dimensions.
 * {@link Shape#FACES_EDGES_CORNERS} (27-point stencils): dimensions are exchanged one after
 * the other, each over the full padded range of the dimensions done before, so edge and
 * corner ghosts fill through two or three hops, as MPI codes exchange x, then y including
 * the x ghosts, and so on.
 *
 * <p>All fields of one exchange travel in one message per neighbour and direction; where the
 * neighbour is this rank itself (periodic, one rank along a dimension) the layers are copied
 * in place without a message. The
 * exchange runs on a duplicate of the grid communicator made at {@link #create} (so creating
 * one is collective over the grid), so its messages never meet the user's on the grid's
 * tags. {@link #begin} packs and posts and returns; interior work that needs no ghost can run
 * before {@link Pending#finish}, which waits and unpacks (for edges and corners it also does
 * the dimensions after the first). One exchange per HaloExchange may be in flight at a time:
 * its message buffers are reused from step to step.
 */
public final class HaloExchange {

    /** Which ghost cells an exchange fills. */
    public enum Shape {
        /** Face ghosts only (a 7-point stencil in 3D, 5-point in 2D). */
        FACES,
        /** Faces, edges and corners (a 27-point stencil in 3D, 9-point in 2D). */
        FACES_EDGES_CORNERS
    }

    /** One field of an exchange: an array or a native segment of doubles or floats in the exchange's layout. */
    public static final class Field {
        final MemorySegment data;
        final int elementBytes;
        final long elements;

        private Field(MemorySegment data, int elementBytes) {
            this.data = data;
            this.elementBytes = elementBytes;
            this.elements = data.byteSize() / elementBytes;
        }

        public static Field of(double[] values) {
            return new Field(MemorySegment.ofArray(values), Double.BYTES);
        }

        public static Field of(float[] values) {
            return new Field(MemorySegment.ofArray(values), Float.BYTES);
        }

        /** A segment of doubles (native memory: pinned host buffers, files mapped into memory). */
        public static Field ofDoubles(MemorySegment values) {
            return new Field(values, Double.BYTES);
        }

        /** A segment of floats. */
        public static Field ofFloats(MemorySegment values) {
            return new Field(values, Float.BYTES);
        }
    }

    private static final int TAG_UP = 0;
    private static final int TAG_DOWN = 1;

    private final Comm comm;
    private final int ndims;
    private final int ghost;
    private final Shape shape;
    /** Interior and padded extents, padded to three dimensions with extent 1 and no ghost. */
    private final int[] interior = new int[3];
    private final int[] padded = new int[3];
    private final int[] ghosts = new int[3];
    private final int[] lower;
    private final int[] upper;
    /** Pack and unpack buffers per (dimension, side), reused while the fields' total element size stays the same. */
    private final byte[][] outgoing = new byte[6][];
    private final byte[][] incoming = new byte[6][];

    private HaloExchange(CartComm grid, int[] interiorExtents, int ghost, Shape shape) {
        this.ndims = interiorExtents.length;
        this.ghost = ghost;
        this.shape = shape;
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
        this.comm = grid.dup();   // ranks as in the grid, traffic apart from it
    }

    /**
     * A halo exchange for a local block of {@code interiorExtents} (one per grid dimension)
     * with {@code ghost} layers (collective over {@code grid}: it duplicates the communicator).
     */
    public static HaloExchange create(CartComm grid, int[] interiorExtents, int ghost, Shape shape) {
        Objects.requireNonNull(shape, "shape");
        if (interiorExtents.length != grid.ndims() || interiorExtents.length < 1 || interiorExtents.length > 3) {
            throw new IllegalArgumentException("rank " + grid.rank() + ": HaloExchange.create: need one interior extent per "
                    + "grid dimension (1 to 3), the grid has " + grid.ndims());
        }
        if (ghost < 1) {
            throw new IllegalArgumentException("rank " + grid.rank() + ": HaloExchange.create: ghost width must be at least 1, got " + ghost);
        }
        for (int n : interiorExtents) {
            if (n < ghost) {
                throw new IllegalArgumentException("rank " + grid.rank() + ": HaloExchange.create: interior extent " + n
                        + " is smaller than the ghost width " + ghost);
            }
        }
        return new HaloExchange(grid, interiorExtents.clone(), ghost, shape);
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

    /** Flat index of padded coordinates (i, j, k) of a 3D block. */
    public int index(int i, int j, int k) {
        return (i * padded[1] + j) * padded[2] + k;
    }

    /** Flat index of padded coordinates (i, j) of a 2D block. */
    public int index(int i, int j) {
        return i * padded[1] + j;
    }

    /** Flat index of padded coordinate i of a 1D block. */
    public int index(int i) {
        return i;
    }

    public int ghost() {
        return ghost;
    }

    public Shape shape() {
        return shape;
    }

    /** Exchanges all ghost layers of the fields and returns when they are filled. */
    public void exchange(double[]... fields) {
        begin(fields).finish();
    }

    /** Exchanges all ghost layers of the fields and returns when they are filled. */
    public void exchange(float[]... fields) {
        begin(fields).finish();
    }

    /** Exchanges all ghost layers of the fields and returns when they are filled. */
    public void exchange(Field... fields) {
        begin(fields).finish();
    }

    /** Starts the exchange of double fields (see {@link #begin(Field...)}). */
    public Pending begin(double[]... fields) {
        Field[] f = new Field[fields.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = Field.of(fields[i]);
        }
        return begin(f);
    }

    /** Starts the exchange of float fields (see {@link #begin(Field...)}). */
    public Pending begin(float[]... fields) {
        Field[] f = new Field[fields.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = Field.of(fields[i]);
        }
        return begin(f);
    }

    /** Starts the exchange: packs and posts; call {@link Pending#finish} before reading ghosts or writing the border. */
    public Pending begin(Field... fields) {
        if (fields.length == 0) {
            throw new IllegalArgumentException("rank " + comm.rank() + ": HaloExchange.begin: no field given");
        }
        for (int f = 0; f < fields.length; f++) {
            if (fields[f].elements != length()) {
                throw new IllegalArgumentException("rank " + comm.rank() + ": HaloExchange.begin: field " + f + " has "
                        + fields[f].elements + " elements, the padded block has " + length());
            }
        }
        Pending p = new Pending(fields.clone());
        if (shape == Shape.FACES_EDGES_CORNERS) {
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
        private final Field[] fields;
        private final int bytesPerCell;
        private final List<Request> requests = new ArrayList<>();
        private final List<Runnable> unpacks = new ArrayList<>();
        private int nextDimension;
        private boolean finished;

        private Pending(Field[] fields) {
            this.fields = fields;
            int b = 0;
            for (Field f : fields) {
                b += f.elementBytes;
            }
            this.bytesPerCell = b;
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
                if (neighbour == comm.rank()) {
                    // Periodic with one rank along d: this side's ghosts are the opposite interior
                    // layer of our own block. Copy, no message.
                    int[][] opposite = box(d, up ? ghost : interior[d], ghost);
                    unpack(recvBox, pack(opposite, slot));
                    continue;
                }
                byte[] out = pack(sendBox, slot);
                if (incoming[slot] == null || incoming[slot].length != out.length) {
                    incoming[slot] = new byte[out.length];
                }
                byte[] in = incoming[slot];
                // A message going up arrives in the receiver's lower ghost: tag by direction of travel.
                requests.add(comm.irecv(Buffer.of(in), neighbour, up ? TAG_DOWN : TAG_UP));
                requests.add(comm.isend(Buffer.of(out), neighbour, up ? TAG_UP : TAG_DOWN));
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
            while (shape == Shape.FACES_EDGES_CORNERS && nextDimension < ndims) {
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
                boolean full = shape == Shape.FACES_EDGES_CORNERS && e < d;
                lo[e] = full ? 0 : ghosts[e];
                hi[e] = full ? padded[e] : ghosts[e] + interior[e];
            }
            lo[d] = from;
            hi[d] = from + width;
            return new int[][] {lo, hi};
        }

        private static int cells(int[][] b) {
            return (b[1][0] - b[0][0]) * (b[1][1] - b[0][1]) * (b[1][2] - b[0][2]);
        }

        private byte[] pack(int[][] b, int slot) {
            int bytes = cells(b) * bytesPerCell;
            if (outgoing[slot] == null || outgoing[slot].length != bytes) {
                outgoing[slot] = new byte[bytes];
            }
            byte[] out = outgoing[slot];
            copyBox(b, MemorySegment.ofArray(out), true);
            return out;
        }

        private void unpack(int[][] b, byte[] in) {
            copyBox(b, MemorySegment.ofArray(in), false);
        }

        /** Copies the box of every field to ({@code toMessage}) or from the message, field after field, row runs at a time. */
        private void copyBox(int[][] b, MemorySegment message, boolean toMessage) {
            long at = 0;
            int run = b[1][2] - b[0][2];
            for (Field f : fields) {
                long runBytes = (long) run * f.elementBytes;
                for (int i = b[0][0]; i < b[1][0]; i++) {
                    for (int j = b[0][1]; j < b[1][1]; j++) {
                        long cell = ((long) (i * padded[1] + j) * padded[2] + b[0][2]) * f.elementBytes;
                        if (toMessage) {
                            MemorySegment.copy(f.data, cell, message, at, runBytes);
                        } else {
                            MemorySegment.copy(message, at, f.data, cell, runBytes);
                        }
                        at += runBytes;
                    }
                }
            }
        }
    }
}
