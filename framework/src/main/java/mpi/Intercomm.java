package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.InterComm;

/**
 * An inter-communicator, as in mpiJava 1.2 (from {@link Comm#Create_intercomm}): two
 * disjoint groups. {@link #Rank()}, {@link #Size()} and {@link #Group()} are the local
 * group's; point-to-point ranks ({@code dest}, {@code source}, {@link Status#source}) name
 * members of the remote group ({@link #Remote_size()}, {@link #Remote_group()}).
 * {@link #Merge} makes the intra-communicator of both groups.
 *
 * <p>The collectives are MPI-2's intercommunicator collectives (mpiJava 1.2 and MPJ Express
 * have none on an Intercomm; the signatures are {@link Intracomm}'s), over both groups:
 * {@link #Barrier}; {@link #Allreduce}, {@link #Allgather} and {@link #Alltoall}, where each
 * group receives from the other (the result of Allreduce is the reduction over the remote
 * group; receive buffers of Allgather and Alltoall hold {@link #Remote_size()} blocks, block
 * i from remote rank i; block j of Alltoall's send buffer goes to remote rank j); and the
 * rooted {@link #Bcast}, {@link #Reduce}, {@link #Gather} and {@link #Scatter}, where data
 * flows between the root and the other group: the root passes {@link MPI#ROOT}, the other
 * members of its group {@link MPI#PROC_NULL} (their buffers are not used), and every member
 * of the other group the root's rank in the root's group. The root of Gather receives, and
 * the root of Scatter sends, {@link #Remote_size()} blocks. {@link MPI#OBJECT} buffers are
 * not supported by these collectives ({@link MPI#ERR_TYPE}).
 */
public class Intercomm extends Comm {

    private final InterComm inter;

    Intercomm(InterComm inter) {
        super(inter);
        this.inter = inter;
    }

    /** Number of processes in the remote group. */
    public int Remote_size() throws MPIException {
        return inter.remoteSize();
    }

    /** The remote group. */
    public Group Remote_group() throws MPIException {
        return new Group(inter.remoteGroup());
    }

    /**
     * The intra-communicator of both groups (collective over both): the group that passed
     * {@code high == false} comes first; if both passed the same, the group whose leader has
     * the lower world rank.
     */
    public Intracomm Merge(boolean high) throws MPIException {
        return call(() -> derived(new Intracomm(inter.merge(high))));
    }

    /** A duplicate: same groups, new message space (collective over both groups). */
    @Override
    public Object clone() {
        try {
            return call(() -> derived(new Intercomm(inter.dup())));
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------ intercommunicator collectives

    /** Returns once every process of both groups has called Barrier. */
    public void Barrier() throws MPIException {
        run(inter::barrier);
    }

    /** The root's ({@link MPI#ROOT}) {@code count} items go to every process of the other group. */
    public void Bcast(Object buf, int offset, int count, Datatype type, int root) throws MPIException {
        run(() -> {
            String call = "Bcast";
            if (rooted(call, root, type)) {
                return;
            }
            Target t = new Target(call, buf, offset, count, type);
            if (root == MPI.ROOT) {
                inter.bcast(t.fillFromUser().buffer, MPI.ROOT);
            } else {
                inter.bcast(t.buffer, root);
                t.unpack(t.elements);
            }
        });
    }

    /** The root ({@link MPI#ROOT}) gets the reduction with {@code op} of the other group's {@code count} items. */
    public void Reduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                       Op op, int root) throws MPIException {
        run(() -> {
            String call = "Reduce";
            if (rooted(call, root, datatype)) {
                return;
            }
            requireOp(call, op);
            if (root == MPI.ROOT) {
                Target t = new Target(call, recvbuf, recvoffset, count, datatype);
                inter.reduce(null, t.buffer, op.forType(datatype), MPI.ROOT);
                t.unpack(t.elements);
            } else {
                inter.reduce(Intracomm.outgoing(call, sendbuf, sendoffset, count, datatype), null, op.forType(datatype), root);
            }
        });
    }

    /** Every process gets the reduction with {@code op} of the other group's {@code count} items. */
    public void Allreduce(Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count, Datatype datatype,
                          Op op) throws MPIException {
        run(() -> {
            String call = "Allreduce";
            requireBuffers(call, datatype);
            requireOp(call, op);
            Buffer send = Intracomm.outgoing(call, sendbuf, sendoffset, count, datatype);
            Target t = new Target(call, recvbuf, recvoffset, count, datatype);
            inter.allreduce(send, t.buffer, op.forType(datatype));
            t.unpack(t.elements);
        });
    }

    /** Block i of the root's ({@link MPI#ROOT}) receive buffer (recvcount items) comes from remote process i. */
    public void Gather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                       Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(() -> {
            String call = "Gather";
            if (rooted(call, root, root == MPI.ROOT ? recvtype : sendtype)) {
                return;
            }
            if (root == MPI.ROOT) {
                Target t = new Target(call, recvbuf, recvoffset, Math.multiplyExact(inter.remoteSize(), recvcount), recvtype);
                inter.gather(null, t.buffer, MPI.ROOT);
                t.unpack(t.elements);
            } else {
                inter.gather(Intracomm.outgoing(call, sendbuf, sendoffset, sendcount, sendtype), null, root);
            }
        });
    }

    /** Block i of the root's ({@link MPI#ROOT}) send buffer (sendcount items) goes to remote process i. */
    public void Scatter(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                        Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) throws MPIException {
        run(() -> {
            String call = "Scatter";
            if (rooted(call, root, root == MPI.ROOT ? sendtype : recvtype)) {
                return;
            }
            if (root == MPI.ROOT) {
                inter.scatter(Intracomm.outgoing(call, sendbuf, sendoffset, Math.multiplyExact(inter.remoteSize(), sendcount),
                        sendtype), null, MPI.ROOT);
            } else {
                Target t = new Target(call, recvbuf, recvoffset, recvcount, recvtype);
                inter.scatter(null, t.buffer, root);
                t.unpack(t.elements);
            }
        });
    }

    /** Every process gets the other group's blocks: block i (recvcount items) from remote process i. */
    public void Allgather(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                          Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        run(() -> {
            String call = "Allgather";
            requireBuffers(call, sendtype);
            requireBuffers(call, recvtype);
            Buffer send = Intracomm.outgoing(call, sendbuf, sendoffset, sendcount, sendtype);
            Target t = new Target(call, recvbuf, recvoffset, Math.multiplyExact(inter.remoteSize(), recvcount), recvtype);
            inter.allgather(send, t.buffer);
            t.unpack(t.elements);
        });
    }

    /** Block j of the send buffer goes to remote process j; block j of the receive buffer comes from remote process j. */
    public void Alltoall(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype,
                         Object recvbuf, int recvoffset, int recvcount, Datatype recvtype) throws MPIException {
        run(() -> {
            String call = "Alltoall";
            requireBuffers(call, sendtype);
            requireBuffers(call, recvtype);
            int r = inter.remoteSize();
            Buffer send = Intracomm.outgoing(call, sendbuf, sendoffset, Math.multiplyExact(r, sendcount), sendtype);
            Target t = new Target(call, recvbuf, recvoffset, Math.multiplyExact(r, recvcount), recvtype);
            inter.alltoall(send, t.buffer);
            t.unpack(t.elements);
        });
    }

    /** Checks a rooted collective's root and datatype; true if this process takes no part ({@link MPI#PROC_NULL}). */
    private boolean rooted(String call, int root, Datatype type) {
        if (root != MPI.ROOT && root != MPI.PROC_NULL && (root < 0 || root >= inter.remoteSize())) {
            throw new TesseraException(ErrorClass.ROOT, where(call) + ": invalid root " + root + " (on an Intercomm: "
                    + "MPI.ROOT at the root, MPI.PROC_NULL in the rest of its group, the root's rank 0.."
                    + (inter.remoteSize() - 1) + " in the other group)");
        }
        if (root == MPI.PROC_NULL) {
            return true;
        }
        requireBuffers(call, type);
        return false;
    }

    private void requireBuffers(String call, Datatype type) {
        if (type == null) {
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": datatype is null");
        }
        if (type.isObject()) {
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": MPI.OBJECT is not supported by the collectives "
                    + "of an Intercomm (Merge, or send the objects point-to-point)");
        }
    }

    private void requireOp(String call, Op op) {
        if (op == null) {
            throw new TesseraException(ErrorClass.OP, where(call) + ": operation is null");
        }
    }

    @Override
    int peerSize() {
        return inter.remoteSize();
    }
}
