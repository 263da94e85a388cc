package dev.tessera.gpu.comm;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Request;
import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.ElementType;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.GridKernels;
import dev.tessera.gpu.HostBuffer;
import dev.tessera.gpu.IndexBox;
import dev.tessera.gpu.Queue;
import dev.tessera.grid.HaloExchange;
import dev.tessera.grid.HaloExchange.Shape;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Objects;
import java.util.List;

/**
 * Ghost-cell exchange of a field held in device memory: {@link HaloExchange}
 * for a {@link DeviceBuffer}, with the same layout (row-major padded block, {@code ghost}
 * layers on every side, interior at padded indices {@code [ghost, ghost + interior[d])}), the
 * same neighbours and tags scheme, and the same begin/finish pair, so a solver's halo code
 * reads the same on every backend:
 *
 * <pre>{@code
 * compute.launch(interior ...);                        // needs no ghost
 * DeviceHaloExchange.Pending p = halo.begin(u, stepDone);
 * compute.waitFor(p.finish());                         // ghosts are on the device
 * compute.launch(shell ...);
 * }</pre>
 *
 * <p>Algorithm, per face (dimension d, side): a pack kernel gathers the face into a
 * contiguous device buffer; device-to-host copies move it to a pinned host buffer in
 * chunks; each chunk is sent as soon as its copy completed, while the next one is still
 * copying. The receive side posts a receive per chunk up front, and in {@link Pending#finish}
 * copies each chunk to the device as it arrives (overlapping the wire) and unpacks the
 * face into the ghost layer. All device work runs on the exchange's own queue, which
 * waits for the {@code after} events given to {@link #begin}, so a compute queue can keep
 * running interior kernels meanwhile. With corners, dimensions go one after the other
 * (each over the full padded range of the ones before), as in {@code HaloExchange}.
 *
 * <p>One exchange may be in flight per instance (staging buffers are reused from step to
 * step); {@code begin} returns once every face has been handed to the communicator. The
 * exchange talks on a duplicate of the grid communicator made at {@link #create}, so
 * creating one is collective over the grid (as for {@code HaloExchange}).
 */
public final class DeviceHaloExchange implements AutoCloseable {

    private static final int TAG_BASE = 0;

    /** A duplicate of the grid communicator: the exchange's messages never meet the user's. */
    private final Comm comm;
    private final Accelerator accelerator;
    private final GridKernels kernels;
    private final Queue queue;
    private final int ndims;
    private final int ghost;
    private final boolean corners;
    private final long chunkBytes;
    private final int[] interior = new int[3];
    private final int[] padded = new int[3];
    private final int[] ghosts = new int[3];
    private final int[] lower = new int[3];
    private final int[] upper = new int[3];
    private final Face[] faces = new Face[6];
    /** The previous exchange's completion: its host-to-device copies read the receive buffers the next one reuses. */
    private Event previous = Event.completed();

    /** Staging of one face (dimension, side): device and pinned host buffers, both ways. */
    private final class Face implements AutoCloseable {
        final IndexBox sendBox;
        final IndexBox recvBox;
        final long cells;
        final DeviceBuffer deviceOut;
        final DeviceBuffer deviceIn;
        final HostBuffer hostOut;
        final HostBuffer hostIn;
        final ChunkPlan plan;

        Face(IndexBox sendBox, IndexBox recvBox) {
            this.sendBox = sendBox;
            this.recvBox = recvBox;
            this.cells = sendBox.cells();
            this.deviceOut = accelerator.allocate(ElementType.DOUBLE, cells);
            this.deviceIn = accelerator.allocate(ElementType.DOUBLE, cells);
            this.hostOut = accelerator.allocateHost(cells * Double.BYTES);
            this.hostIn = accelerator.allocateHost(cells * Double.BYTES);
            this.plan = ChunkPlan.of(cells, Double.BYTES, chunkBytes);
        }

        MemorySegment chunk(HostBuffer h, int c) {
            return h.segment().asSlice(plan.start(c) * Double.BYTES, plan.length(c) * Double.BYTES);
        }

        @Override
        public void close() {
            deviceOut.close();
            deviceIn.close();
            hostOut.close();
            hostIn.close();
        }
    }

    private DeviceHaloExchange(CartComm grid, Accelerator accelerator, int[] interiorExtents, int ghost, Shape shape,
                               long chunkBytes) {
        this.comm = grid.dup();
        this.accelerator = accelerator;
        this.kernels = accelerator.gridKernels();
        this.queue = accelerator.createQueue();
        this.ndims = interiorExtents.length;
        this.ghost = ghost;
        this.corners = shape == Shape.FACES_EDGES_CORNERS;
        this.chunkBytes = chunkBytes;
        for (int d = 0; d < 3; d++) {
            interior[d] = d < ndims ? interiorExtents[d] : 1;
            ghosts[d] = d < ndims ? ghost : 0;
            padded[d] = interior[d] + 2 * ghosts[d];
            lower[d] = Comm.PROC_NULL;
            upper[d] = Comm.PROC_NULL;
        }
        for (int d = 0; d < ndims; d++) {
            CartComm.Shift s = grid.shift(d, 1);
            lower[d] = s.source();
            upper[d] = s.dest();
            for (int side = 0; side < 2; side++) {
                boolean up = side == 1;
                if ((up ? upper[d] : lower[d]) != Comm.PROC_NULL) {
                    faces[2 * d + side] = new Face(box(d, up ? interior[d] : ghost), box(d, up ? interior[d] + ghost : 0));
                }
            }
        }
    }

    /**
     * An exchange for a block of {@code interiorExtents} (one per grid dimension) with
     * {@code ghost} layers, filling the ghosts {@code shape} names (as {@link HaloExchange#create}).
     */
    public static DeviceHaloExchange create(CartComm grid, Accelerator accelerator, int[] interiorExtents, int ghost,
                                            Shape shape) {
        return create(grid, accelerator, interiorExtents, ghost, shape, DeviceMessaging.DEFAULT_CHUNK_BYTES);
    }

    /** As {@link #create(CartComm, Accelerator, int[], int, Shape)} with a chunk size for pipelining faces (same on every rank). */
    public static DeviceHaloExchange create(CartComm grid, Accelerator accelerator, int[] interiorExtents, int ghost,
                                            Shape shape, long chunkBytes) {
        if (interiorExtents.length != grid.ndims() || interiorExtents.length < 1 || interiorExtents.length > 3) {
            throw new IllegalArgumentException("DeviceHaloExchange: need one interior extent per grid dimension (1 to 3), "
                    + "grid has " + grid.ndims());
        }
        if (ghost < 1) {
            throw new IllegalArgumentException("DeviceHaloExchange: ghost width must be at least 1, got " + ghost);
        }
        for (int n : interiorExtents) {
            if (n < ghost) {
                throw new IllegalArgumentException("DeviceHaloExchange: interior extent " + n
                        + " is smaller than the ghost width " + ghost);
            }
        }
        if (chunkBytes < Double.BYTES) {
            throw new IllegalArgumentException("DeviceHaloExchange: chunk size must be at least 8 bytes");
        }
        return new DeviceHaloExchange(grid, accelerator, interiorExtents.clone(), ghost,
                Objects.requireNonNull(shape, "shape"), chunkBytes);
    }

    /** Padded extents, one per dimension of the grid. */
    public int[] paddedExtents() {
        int[] e = new int[ndims];
        System.arraycopy(padded, 0, e, 0, ndims);
        return e;
    }

    /** Padded extents padded to three dimensions (what {@link GridKernels} take). */
    public int[] paddedExtents3() {
        return padded.clone();
    }

    /** Number of elements of the field. */
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

    /** The queue the exchange's device work runs on. */
    public Queue queue() {
        return queue;
    }

    /** Exchanges every ghost layer of {@code field} and returns when they are on the device. */
    public void exchange(DeviceBuffer field, Event... after) {
        begin(field, after).finish().await();
    }

    /**
     * Starts the exchange once {@code after} completed: packs, copies to host, sends, and
     * posts the receives. Returns when every face is handed to the communicator; the
     * field's interior may be read meanwhile, its ghosts only after {@link Pending#finish}.
     */
    public Pending begin(DeviceBuffer field, Event... after) {
        if (field.type() != ElementType.DOUBLE || field.count() < length()) {
            throw new IllegalArgumentException("DeviceHaloExchange.begin: field is " + field + ", the padded block needs "
                    + length() + " DOUBLE elements");
        }
        Pending p = new Pending(field);
        if (Arrays.stream(faces).allMatch(Objects::isNull)) {
            // No neighbour at all (one rank, no periodic dimension): nothing to wait for, nothing to fill.
            p.done = Event.completed();
            return p;
        }
        previous.await();
        queue.waitFor(after);
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
        private final DeviceBuffer field;
        private final List<Request> sends = new ArrayList<>();
        private final List<Face> posted = new ArrayList<>();
        private final List<Request[]> receives = new ArrayList<>();
        private int nextDimension;
        private Event done;

        private Pending(DeviceBuffer field) {
            this.field = field;
        }

        private void post(int d) {
            List<Event[]> copies = new ArrayList<>();
            List<Face> here = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                Face f = faces[2 * d + side];
                if (f == null) {
                    continue;
                }
                boolean up = side == 1;
                int neighbour = up ? upper[d] : lower[d];
                // A message going up arrives in the receiver's lower ghost: tag by direction of travel.
                int recvTag = TAG_BASE + 2 * d + (up ? 0 : 1);
                Request[] r = new Request[f.plan.chunks()];
                for (int c = 0; c < r.length; c++) {
                    r[c] = comm.irecv(Buffer.of(f.chunk(f.hostIn, c), Datatype.BYTE), neighbour, recvTag);
                }
                receives.add(r);
                posted.add(f);
                kernels.pack(queue, field, padded, f.sendBox, f.deviceOut, 0);
                Event[] e = new Event[f.plan.chunks()];
                for (int c = 0; c < e.length; c++) {
                    e[c] = queue.readAsync(f.deviceOut, f.plan.start(c), f.chunk(f.hostOut, c));
                }
                copies.add(e);
                here.add(f);
            }
            for (int x = 0; x < here.size(); x++) {
                Face f = here.get(x);
                int side = f == faces[2 * d + 1] ? 1 : 0;
                int neighbour = side == 1 ? upper[d] : lower[d];
                int sendTag = TAG_BASE + 2 * d + side;
                Event[] e = copies.get(x);
                for (int c = 0; c < e.length; c++) {
                    e[c].await();
                    sends.add(comm.isend(Buffer.of(f.chunk(f.hostOut, c), Datatype.BYTE), neighbour, sendTag));
                }
            }
            nextDimension = d + 1;
        }

        private void complete() {
            for (int x = 0; x < posted.size(); x++) {
                Face f = posted.get(x);
                Request[] r = receives.get(x);
                for (int c = 0; c < r.length; c++) {
                    r[c].await();
                    queue.writeAsync(f.chunk(f.hostIn, c), f.deviceIn, f.plan.start(c));
                }
                kernels.unpack(queue, f.deviceIn, 0, field, padded, f.recvBox);
            }
            posted.clear();
            receives.clear();
            Request.waitAll(sends);
            sends.clear();
        }

        /**
         * Receives the faces, copies them to the device and unpacks them into the ghost
         * layers; returns an event that completes when the ghosts are filled (make the
         * compute queue wait for it). Returns the same event when called again.
         */
        public Event finish() {
            if (done != null) {
                return done;
            }
            complete();
            while (corners && nextDimension < ndims) {
                post(nextDimension);
                complete();
            }
            done = queue.marker();
            previous = done;
            return done;
        }
    }

    /** Box of dimension d's slab starting at padded index {@code from}, {@code ghost} layers thick. */
    private IndexBox box(int d, int from) {
        int[] lo = new int[3];
        int[] hi = new int[3];
        for (int e = 0; e < 3; e++) {
            boolean full = corners && e < d;
            lo[e] = full ? 0 : ghosts[e];
            hi[e] = full ? padded[e] : ghosts[e] + interior[e];
        }
        lo[d] = from;
        hi[d] = from + ghost;
        return new IndexBox(lo, hi);
    }

    /** Frees the staging buffers, the queue (after finishing its work) and the duplicate communicator. */
    @Override
    public void close() {
        queue.close();
        comm.free();
        for (Face f : faces) {
            if (f != null) {
                f.close();
            }
        }
    }
}
