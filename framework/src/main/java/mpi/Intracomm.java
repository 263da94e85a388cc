package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An intra-communicator, as in mpiJava 1.2: every collective operation, and the creation
 * of new communicators ({@link #Split}, {@link #Create}, {@link #Create_cart},
 * {@link #Create_graph}). Every process of the communicator must call each collective, in
 * the same order.
 *
 * <p>Block sizes and displacements of the v-variants are in items of the datatype given;
 * for {@link MPI#OBJECT} buffers the collectives move serialized objects, and reductions
 * need a user {@link Op} (objects are combined in rank order).
 */
public class Intracomm extends Comm {

    Intracomm(dev.tessera.comm.Comm inner) {
        super(inner);
    }

    // ------------------------------------------------------------------ new communicators

    /** A duplicate: same group, new message space (collective). */
    public Intracomm Dup() throws MPIException {
        return call(() -> derived(new Intracomm(inner.dup())));
    }

    /**
     * Processes passing the same {@code colour} form a new communicator, ordered by
     * {@code key} then by rank here; a process passing {@link MPI#UNDEFINED} gets null.
     */
    public Intracomm Split(int colour, int key) throws MPIException {
        return call(() -> {
            dev.tessera.comm.Comm c = inner.split(colour, key);
            return c == null ? null : derived(new Intracomm(c));
        });
    }

    /** A communicator of the members of {@code group} (a subset of this group); null on non-members. */
    public Intracomm Create(Group group) throws MPIException {
        return call(() -> {
            dev.tessera.comm.Comm c = inner.create(group.inner);
            return c == null ? null : derived(new Intracomm(c));
        });
    }

    /**
     * A Cartesian communicator of prod(dims) processes, row-major (the last dimension varies
     * fastest); processes beyond the grid get null. {@code reorder} is accepted and ignored.
     */
    public Cartcomm Create_cart(int[] dims, boolean[] periods, boolean reorder) throws MPIException {
        return call(() -> {
            if (dims == null || periods == null || dims.length != periods.length) {
                throw new TesseraException(ErrorClass.DIMS, where("Create_cart") + ": dims and periods must have the same length");
            }
            dev.tessera.comm.CartComm c = inner.createCart(dims, periods, reorder);
            return c == null ? null : derived(new Cartcomm(c));
        });
    }

    /**
     * A communicator with a graph topology: node i's neighbours are
     * {@code edges[index[i-1] .. index[i]-1]} (with index[-1] = 0); processes beyond
     * {@code index.length} get null. {@code reorder} is accepted and ignored.
     */
    public Graphcomm Create_graph(int[] index, int[] edges, boolean reorder) throws MPIException {
        return call(() -> {
            Graphcomm.check(where("Create_graph"), index, edges, inner.size());
            dev.tessera.comm.Comm c = inner.split(inner.rank() < index.length ? 0 : MPI.UNDEFINED, inner.rank());
            return c == null ? null : derived(new Graphcomm(c, index.clone(), edges.clone()));
        });
    }

    // ------------------------------------------------------------------ synchronisation and broadcast

    /** Blocks until every process has called Barrier. */
    public void Barrier() throws MPIException {
        run(inner::barrier);
    }

    /** Copies the root's {@code count} items into every process's buffer. */
    public void Bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        run(() -> {
            checkRoot("Bcast", root);
            Target t = new Target("Bcast", buf, offset, count, type);
            boolean isRoot = inner.rank() == root;
            if (type.isObject()) {
                Object[] got = inner.bcastObject(isRoot ? (Object[]) type.pack(buf, offset, count) : null, root);
                if (!isRoot) {
                    place("Bcast", got, t);
                }
                return;
            }
            if (isRoot) {
                t.fillFromUser();
            }
            inner.bcast(t.buffer, root);
            if (!isRoot) {
                t.unpack(t.elements);
            }
        });
    }

    // ------------------------------------------------------------------ gather and scatter

    /** Block i of the root's receive buffer (recvcount items) comes from process i. */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(() -> {
            String call = "Gather";
            checkRoot(call, root);
            if (sendtype.isObject()) {
                gathervObjects(call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset,
                        uniform(recvcount), steps(recvcount), recvtype, root);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, sendcount, sendtype);
            Target t = inner.rank() == root ? new Target(call, recvbuf, recvoffset, inner.size() * recvcount, recvtype) : null;
            inner.gather(send, t == null ? null : t.buffer, root);
            if (t != null) {
                t.unpack(t.elements);
            }
        });
    }

    /** Process i's block goes to the root's buffer at displs[i] items, holding recvcount[i] items. */
    public void Gatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        run(() -> {
            String call = "Gatherv";
            checkRoot(call, root);
            if (sendtype.isObject()) {
                gathervObjects(call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs,
                        recvtype, root);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, sendcount, sendtype);
            if (inner.rank() == root) {
                Blocks b = new Blocks(call, "receive ", recvbuf, recvoffset, recvcount, displs, recvtype, inner.size(), false);
                inner.gatherv(send, b.buffer, b.counts, b.displs, root);
                b.finish();
            } else {
                inner.gatherv(send, null, null, null, root);
            }
        });
    }

    /** Block i of the root's send buffer (sendcount items) goes to process i. */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(() -> {
            String call = "Scatter";
            checkRoot(call, root);
            if (recvtype.isObject()) {
                scattervObjects(call, sendbuf, sendoffset, uniform(sendcount), steps(sendcount), sendtype, recvbuf,
                        recvoffset, recvcount, recvtype, root);
                return;
            }
            Buffer send = inner.rank() == root ? outgoing(call, sendbuf, sendoffset, inner.size() * sendcount, sendtype) : null;
            Target t = new Target(call, recvbuf, recvoffset, recvcount, recvtype);
            inner.scatter(send, t.buffer, root);
            t.unpack(t.elements);
        });
    }

    /** Process i gets sendcount[i] items from displs[i] items of the root's send buffer. */
    public void Scatterv(Object sendbuf, int sendoffset, int[] sendcount, int[] displs, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(() -> {
            String call = "Scatterv";
            checkRoot(call, root);
            if (recvtype.isObject()) {
                scattervObjects(call, sendbuf, sendoffset, sendcount, displs, sendtype, recvbuf, recvoffset, recvcount,
                        recvtype, root);
                return;
            }
            Target t = new Target(call, recvbuf, recvoffset, recvcount, recvtype);
            if (inner.rank() == root) {
                Blocks b = new Blocks(call, "send ", sendbuf, sendoffset, sendcount, displs, sendtype, inner.size(), true);
                inner.scatterv(b.buffer, b.counts, b.displs, t.buffer, root);
            } else {
                inner.scatterv(null, null, null, t.buffer, root);
            }
            t.unpack(t.elements);
        });
    }

    /** Every process gets every process's block (block i from process i). */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        run(() -> {
            String call = "Allgather";
            if (sendtype.isObject()) {
                allgathervObjects(call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, uniform(recvcount),
                        steps(recvcount), recvtype);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, sendcount, sendtype);
            Target t = new Target(call, recvbuf, recvoffset, inner.size() * recvcount, recvtype);
            inner.allgather(send, t.buffer);
            t.unpack(t.elements);
        });
    }

    /** Allgather of different sizes: process i's block lands at displs[i] items, holding recvcount[i] items. */
    public void Allgatherv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                           Object recvbuf, int recvoffset, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        run(() -> {
            String call = "Allgatherv";
            if (sendtype.isObject()) {
                allgathervObjects(call, sendbuf, sendoffset, sendcount, sendtype, recvbuf, recvoffset, recvcount, displs,
                        recvtype);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, sendcount, sendtype);
            Blocks b = new Blocks(call, "receive ", recvbuf, recvoffset, recvcount, displs, recvtype, inner.size(), false);
            inner.allgatherv(send, b.buffer, b.counts, b.displs);
            b.finish();
        });
    }

    /** Block j of process i's send buffer goes to block i of process j's receive buffer. */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        run(() -> {
            String call = "Alltoall";
            if (sendtype.isObject()) {
                alltoallvObjects(call, sendbuf, sendoffset, uniform(sendcount), steps(sendcount), sendtype,
                        recvbuf, recvoffset, uniform(recvcount), steps(recvcount), recvtype);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, inner.size() * sendcount, sendtype);
            Target t = new Target(call, recvbuf, recvoffset, inner.size() * recvcount, recvtype);
            inner.alltoall(send, t.buffer);
            t.unpack(t.elements);
        });
    }

    /** All-to-all of different sizes, with per-process counts and displacements (in items) on both sides. */
    public void Alltoallv(Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls, Datatype sendtype,
                          Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        run(() -> {
            String call = "Alltoallv";
            if (sendtype.isObject()) {
                alltoallvObjects(call, sendbuf, sendoffset, sendcount, sdispls, sendtype, recvbuf, recvoffset, recvcount,
                        rdispls, recvtype);
                return;
            }
            int p = inner.size();
            Blocks s = new Blocks(call, "send ", sendbuf, sendoffset, sendcount, sdispls, sendtype, p, true);
            Blocks r = new Blocks(call, "receive ", recvbuf, recvoffset, recvcount, rdispls, recvtype, p, false);
            inner.alltoallv(s.buffer, s.counts, s.displs, r.buffer, r.counts, r.displs);
            r.finish();
        });
    }

    // ------------------------------------------------------------------ reductions

    /** Combines every process's {@code count} items with {@code op} into the root's receive buffer. */
    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) throws MPIException {
        run(() -> {
            String call = "Reduce";
            checkRoot(call, root);
            boolean isRoot = inner.rank() == root;
            if (datatype.isObject()) {
                Object[] mine = objects(call, sendbuf, sendoffset, count, datatype);
                requireUserOp(call, op);
                List<Object[]> all = inner.gatherObject(mine, root);
                if (isRoot) {
                    place(call, fold(all, all.size(), op, datatype), new Target(call, recvbuf, recvoffset, count, datatype));
                }
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, count, datatype);
            Target t = isRoot ? new Target(call, recvbuf, recvoffset, count, datatype) : null;
            inner.reduce(send, t == null ? null : t.buffer, op.forType(datatype), root);
            if (t != null) {
                t.unpack(t.elements);
            }
        });
    }

    /** Combines every process's {@code count} items with {@code op}; every process gets the result. */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                          Op op) throws MPIException {
        run(() -> prefix("Allreduce", sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, 0));
    }

    /** Inclusive prefix reduction: process i gets the combination of processes 0..i. */
    public void Scan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op)
            throws MPIException {
        run(() -> prefix("Scan", sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, 1));
    }

    /** Exclusive prefix reduction: process i > 0 gets the combination of processes 0..i-1; process 0's buffer is untouched. */
    public void Exscan(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype, Op op)
            throws MPIException {
        run(() -> prefix("Exscan", sendbuf, sendoffset, recvbuf, recvoffset, count, datatype, op, 2));
    }

    /** kind 0: allreduce, 1: scan, 2: exscan. */
    private void prefix(String call, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
                        Datatype datatype, Op op, int kind) {
        int me = inner.rank();
        if (datatype.isObject()) {
            Object[] mine = objects(call, sendbuf, sendoffset, count, datatype);
            requireUserOp(call, op);
            List<Object[]> all = inner.allgatherObject(mine);
            int upto = kind == 0 ? all.size() : kind == 1 ? me + 1 : me;
            if (upto > 0) {
                place(call, fold(all, upto, op, datatype), new Target(call, recvbuf, recvoffset, count, datatype));
            }
            return;
        }
        Buffer send = outgoing(call, sendbuf, sendoffset, count, datatype);
        Target t = new Target(call, recvbuf, recvoffset, count, datatype);
        dev.tessera.comm.Op o = op.forType(datatype);
        switch (kind) {
            case 0 -> inner.allreduce(send, t.buffer, o);
            case 1 -> inner.scan(send, t.buffer, o);
            default -> inner.exscan(send, t.buffer, o);
        }
        if (kind != 2 || me > 0) {
            t.unpack(t.elements);
        }
    }

    /** Reduces sum(recvcounts) items; process i gets the next recvcounts[i] reduced items. */
    public void Reduce_scatter(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int[] recvcounts,
                               Datatype datatype, Op op) throws MPIException {
        run(() -> {
            String call = "Reduce_scatter";
            int p = inner.size();
            int me = inner.rank();
            if (recvcounts == null || recvcounts.length < p) {
                throw new TesseraException(ErrorClass.ARG, where(call) + ": recvcounts needs " + p + " entries (one per rank)");
            }
            int total = 0;
            int before = 0;
            for (int i = 0; i < p; i++) {
                if (recvcounts[i] < 0) {
                    throw new TesseraException(ErrorClass.COUNT, where(call) + ": recvcounts[" + i + "] = " + recvcounts[i] + " is negative");
                }
                before += i < me ? recvcounts[i] : 0;
                total += recvcounts[i];
            }
            Target t = new Target(call, recvbuf, recvoffset, recvcounts[me], datatype);
            if (datatype.isObject()) {
                Object[] mine = objects(call, sendbuf, sendoffset, total, datatype);
                requireUserOp(call, op);
                List<Object[]> all = inner.allgatherObject(mine);
                Object[] result = fold(all, all.size(), op, datatype);
                int size = datatype.size0();
                place(call, Arrays.copyOfRange(result, before * size, (before + recvcounts[me]) * size), t);
                return;
            }
            Buffer send = outgoing(call, sendbuf, sendoffset, total, datatype);
            int[] elementCounts = new int[p];
            for (int i = 0; i < p; i++) {
                elementCounts[i] = recvcounts[i] * datatype.size0();
            }
            inner.reduceScatter(send, t.buffer, elementCounts, op.forType(datatype));
            t.unpack(t.elements);
        });
    }

    // ------------------------------------------------------------------ helpers

    void checkRoot(String call, int root) {
        if (root < 0 || root >= inner.size()) {
            throw new TesseraException(ErrorClass.ROOT, where(call) + ": invalid root " + root
                    + " (communicator size " + inner.size() + ")");
        }
    }

    /** The send side of a collective: the user's array if contiguous, else a packed copy. */
    static Buffer outgoing(String call, Object buf, int offset, int count, Datatype type) {
        if (type == null) {
            throw new TesseraException(ErrorClass.TYPE, MPI.where(call) + ": send datatype is null");
        }
        type = type.on(buf);
        int n = type.checkBuffer(call, "send ", buf, offset, count);
        if (type.contiguous && buf != null) {
            return Datatype.wrap(buf, offset, n);
        }
        return Datatype.wrap(n == 0 ? type.newArray(0) : type.pack(buf, offset, count), 0, n);
    }

    private int[] uniform(int count) {
        int[] c = new int[inner.size()];
        Arrays.fill(c, count);
        return c;
    }

    private int[] steps(int count) {
        int[] d = new int[inner.size()];
        Arrays.setAll(d, i -> i * count);
        return d;
    }

    // ------------------------------------------------------------------ objects

    private static Object[] objects(String call, Object buf, int offset, int count, Datatype type) {
        type.checkBuffer(call, "send ", buf, offset, count);
        return count == 0 ? new Object[0] : (Object[]) type.pack(buf, offset, count);
    }

    private static void requireUserOp(String call, Op op) {
        if (op == null || op.function == null) {
            throw new TesseraException(ErrorClass.OP, MPI.where(call) + ": operation " + op
                    + " is not defined for MPI.OBJECT; use a user Op");
        }
    }

    /** Stores received objects at a target, checking they fit. */
    private static void place(String call, Object[] got, Target t) {
        if (got == null) {
            return;
        }
        if (got.length > t.elements) {
            throw new TesseraException(ErrorClass.TRUNCATE, MPI.where(call) + ": " + got.length
                    + " objects arrived but the receive buffer holds " + t.elements + ": message truncated");
        }
        t.unpackObjects(got);
    }

    /** Combines the first {@code upto} contributions in rank order: acc = acc op next. */
    private static Object[] fold(List<Object[]> all, int upto, Op op, Datatype type) {
        Object[] acc = all.get(0).clone();
        for (int i = 1; i < upto; i++) {
            Object[] next = all.get(i).clone();
            op.combine(acc, next, Math.min(acc.length, next.length), type);
            acc = next;
        }
        return acc;
    }

    private void gathervObjects(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                Object recvbuf, int recvoffset, int[] counts, int[] displs, Datatype recvtype, int root) {
        List<Object[]> all = inner.gatherObject(objects(call, sendbuf, sendoffset, sendcount, sendtype), root);
        if (all != null) {
            placeBlocks(call, all, recvbuf, recvoffset, counts, displs, recvtype);
        }
    }

    private void allgathervObjects(String call, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                                   Object recvbuf, int recvoffset, int[] counts, int[] displs, Datatype recvtype) {
        List<Object[]> all = inner.allgatherObject(objects(call, sendbuf, sendoffset, sendcount, sendtype));
        placeBlocks(call, all, recvbuf, recvoffset, counts, displs, recvtype);
    }

    private void scattervObjects(String call, Object sendbuf, int sendoffset, int[] counts, int[] displs, Datatype sendtype,
                                 Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        List<Object[]> blocks = null;
        if (inner.rank() == root) {
            blocks = sliceBlocks(call, sendbuf, sendoffset, counts, displs, sendtype);
        }
        Object[] mine = inner.scatterObject(blocks, root);
        place(call, mine, new Target(call, recvbuf, recvoffset, recvcount, recvtype));
    }

    private void alltoallvObjects(String call, Object sendbuf, int sendoffset, int[] scounts, int[] sdispls, Datatype sendtype,
                                  Object recvbuf, int recvoffset, int[] rcounts, int[] rdispls, Datatype recvtype) {
        Object[][] mine = sliceBlocks(call, sendbuf, sendoffset, scounts, sdispls, sendtype).toArray(new Object[0][]);
        List<Object[][]> all = inner.allgatherObject(mine);
        List<Object[]> toMe = new ArrayList<>();
        for (Object[][] fromJ : all) {
            toMe.add(fromJ[inner.rank()]);
        }
        placeBlocks(call, toMe, recvbuf, recvoffset, rcounts, rdispls, recvtype);
    }

    private List<Object[]> sliceBlocks(String call, Object buf, int offset, int[] counts, int[] displs, Datatype type) {
        int p = inner.size();
        checkBlockArrays(call, counts, displs, p);
        List<Object[]> blocks = new ArrayList<>(p);
        for (int i = 0; i < p; i++) {
            blocks.add(objects(call, buf, offset + displs[i] * type.Extent0(), counts[i], type));
        }
        return blocks;
    }

    private void placeBlocks(String call, List<Object[]> all, Object buf, int offset, int[] counts, int[] displs, Datatype type) {
        checkBlockArrays(call, counts, displs, all.size());
        for (int i = 0; i < all.size(); i++) {
            place(call, all.get(i), new Target(call, buf, offset + displs[i] * type.Extent0(), counts[i], type));
        }
    }

    private void checkBlockArrays(String call, int[] counts, int[] displs, int p) {
        if (counts == null || displs == null || counts.length < p || displs.length < p) {
            throw new TesseraException(ErrorClass.ARG, where(call) + ": counts and displacements need " + p
                    + " entries (one per rank)");
        }
    }
}
