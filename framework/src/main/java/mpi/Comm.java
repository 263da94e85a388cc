package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.ObjectRequest;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * A communicator, as in mpiJava 1.2: point-to-point communication in every mode, probes,
 * persistent requests, packing, and the communicator's group. Collectives live in
 * {@link Intracomm}.
 *
 * <p>Buffers are Java arrays given as {@code (Object buf, int offset, int count, Datatype type)}:
 * {@code offset} is an index into the array and {@code count} a number of items of
 * {@code type}; the array's element type must be the datatype's base type
 * ({@code double[]} for {@link MPI#DOUBLE}, {@code Object[]} for {@link MPI#OBJECT}, ...).
 *
 * <p>{@link MPI#OBJECT} messages carry serializable objects; a nonblocking receive of objects
 * is matched when it is tested or waited for, in the order such receives were posted.
 *
 * <p>Every call's errors go to the communicator's error handler ({@link #Errhandler_set}):
 * by default {@link MPI#ERRORS_ARE_FATAL}, which aborts the job (see {@link Errhandler}).
 * The predefined attributes are read with {@link #Attr_get}; {@link #Create_intercomm}
 * joins two groups into an {@link Intercomm}.
 */
public class Comm {

    private static final int STANDARD = 0, SYNCHRONOUS = 1, BUFFERED = 2, READY = 3;

    final dev.tessera.comm.Comm inner;
    /** What an error of a call on this communicator does (see {@link Errhandler}). */
    Errhandler errhandler = MPI.ERRORS_ARE_FATAL;

    Comm(dev.tessera.comm.Comm inner) {
        this.inner = inner;
    }

    /** A communicator made from this one: it inherits the error handler. */
    <C extends Comm> C derived(C child) {
        if (child != null) {
            child.errhandler = errhandler;
        }
        return child;
    }

    /** Runs {@code body}; an error goes to this communicator's error handler. */
    <T> T call(MPI.Body<T> body) throws MPIException {
        return MPI.call(this, body);
    }

    /** Runs {@code body}; an error goes to this communicator's error handler. */
    void run(MPI.VoidBody body) throws MPIException {
        MPI.run(this, body);
    }

    /** The request {@code r}, whose completion errors go to this communicator's error handler. */
    <R extends Request> R bind(R r) {
        r.comm = this;
        return r;
    }

    // ------------------------------------------------------------------ error handlers and attributes

    /**
     * Sets what an error of a call on this communicator does: {@link MPI#ERRORS_ARE_FATAL}
     * (the default: the job is aborted) or {@link MPI#ERRORS_RETURN} (the call throws and the
     * job goes on). See {@link Errhandler}.
     */
    public void Errhandler_set(Errhandler errhandler) throws MPIException {
        if (errhandler == null) {
            throw MPI.raise(this, new MPIException(MPI.ERR_ARG, where("Errhandler_set") + ": error handler is null"));
        }
        this.errhandler = errhandler;
    }

    /** The error handler of this communicator. */
    public Errhandler Errhandler_get() throws MPIException {
        return errhandler;
    }

    /**
     * The value of a predefined attribute, as an {@link Integer}: {@link MPI#TAG_UB} (the
     * largest tag), {@link MPI#HOST} ({@link MPI#PROC_NULL}: no host process), {@link MPI#IO}
     * (this rank: every rank can do Java I/O), {@link MPI#WTIME_IS_GLOBAL} (1 if every rank
     * of the job runs on one node, whose monotonic clock {@link MPI#Wtime()} reads, else 0).
     * Any other key has no attribute: null, as MPI's flag false (MPJ Express throws).
     * The predefined attributes are the job's, so every communicator gives them.
     */
    public Object Attr_get(int keyval) throws MPIException {
        return switch (keyval) {
            case MPI.TAG_UB -> MPI.TAG_UB;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> Rank();
            case MPI.WTIME_IS_GLOBAL -> MPI.singleNode() ? 1 : 0;
            default -> null;
        };
    }

    /**
     * Deletes a cached attribute. The predefined attributes cannot be deleted (MPI makes
     * that an error: {@link MPI#ERR_ARG}); any other key holds nothing, so there is nothing to do.
     */
    public void Attr_delete(int keyval) throws MPIException {
        if (keyval == MPI.TAG_UB || keyval == MPI.HOST || keyval == MPI.IO || keyval == MPI.WTIME_IS_GLOBAL) {
            throw MPI.raise(this, new MPIException(MPI.ERR_ARG, where("Attr_delete") + ": predefined attribute "
                    + keyval + " cannot be deleted"));
        }
    }

    // ------------------------------------------------------------------ basics

    /** Number of processes in the communicator. */
    public int Size() throws MPIException {
        return inner.size();
    }

    /** This process's rank in the communicator. */
    public int Rank() throws MPIException {
        return inner.rank();
    }

    /** The group of the communicator. */
    public Group Group() throws MPIException {
        return new Group(inner.group());
    }

    /**
     * {@link MPI#IDENT} (the same communicator), {@link MPI#CONGRUENT} (same group, same order),
     * {@link MPI#SIMILAR} (same members) or {@link MPI#UNEQUAL}.
     */
    public static int Compare(Comm comm1, Comm comm2) throws MPIException {
        if (comm1.inner == comm2.inner) {
            return MPI.IDENT;
        }
        int g = mpi.Group.compare(comm1.inner.group(), comm2.inner.group());
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    /** A duplicate: same group, new message space (collective). */
    @Override
    public Object clone() {
        try {
            return call(() -> derived(new Intracomm(inner.dup())));
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Frees the communicator; any later use is an {@link MPI#ERR_COMM} error. */
    public void Free() throws MPIException {
        run(inner::free);
    }

    /** True once freed. */
    public boolean Is_null() throws MPIException {
        return inner.isFreed();
    }

    /** True for an {@link Intercomm}. */
    public boolean Test_inter() throws MPIException {
        return inner.isInter();
    }

    /**
     * An inter-communicator between {@code local_comm}'s group and another, disjoint group
     * (MPI_Intercomm_create), called on the peer communicator as in mpiJava 1.2: collective
     * over {@code local_comm} and, on the other side, over the other group's communicator.
     * {@code local_leader} is a rank of {@code local_comm}; {@code remote_leader} is the
     * other group's leader's rank in this (peer) communicator, which must hold both leaders,
     * and {@code tag} a tag free on it for the leaders' exchange. Only the leaders use this
     * communicator and {@code remote_leader}.
     */
    public Intercomm Create_intercomm(Comm local_comm, int local_leader, int remote_leader, int tag) throws MPIException {
        return call(() -> {
            if (local_comm == null) {
                throw new TesseraException(ErrorClass.COMM, where("Create_intercomm") + ": local_comm is null");
            }
            return local_comm.derived(new Intercomm(local_comm.inner.createIntercomm(local_leader, inner, remote_leader, tag)));
        });
    }

    /** Number of ranks that point-to-point calls may name: the size, or the remote size of an {@link Intercomm}. */
    int peerSize() {
        return inner.size();
    }

    /** {@link MPI#CART}, {@link MPI#GRAPH} or {@link MPI#UNDEFINED} (no topology). */
    public int Topo_test() throws MPIException {
        return MPI.UNDEFINED;
    }

    /**
     * Aborts the job: every rank's pending and later calls fail with an error naming this
     * rank and {@code errorcode}, and the caller is unwound by an {@link Error} (not an
     * exception, so that {@code catch (Exception e)} blocks do not swallow it); the job
     * exits with a non-zero status.
     */
    public void Abort(int errorcode) throws MPIException {
        AbortError e = new AbortError(MPI.where("Abort") + ": job aborted with error code " + errorcode);
        MPI.abortJob(e);
        throw e;
    }

    /** Thrown by {@link #Abort}: ends the calling rank. */
    static final class AbortError extends Error {
        private static final long serialVersionUID = 1L;

        AbortError(String message) {
            super(message);
        }
    }

    String where(String call) {
        return MPI.where(call);
    }

    // ------------------------------------------------------------------ blocking sends

    /** Standard-mode send. */
    public void Send(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        run(() -> isend("Send", buf, offset, count, datatype, dest, tag, STANDARD).waitNow());
    }

    /** Synchronous send: returns once the receiver has started receiving. */
    public void Ssend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        run(() -> isend("Ssend", buf, offset, count, datatype, dest, tag, SYNCHRONOUS).waitNow());
    }

    /** Buffered send: copies the data (accounted against {@link MPI#Buffer_attach}'s buffer) and returns. */
    public void Bsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        run(() -> isend("Bsend", buf, offset, count, datatype, dest, tag, BUFFERED).waitNow());
    }

    /** Ready send (a standard send here: correct whether or not the receive is already posted). */
    public void Rsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        run(() -> isend("Rsend", buf, offset, count, datatype, dest, tag, READY).waitNow());
    }

    // ------------------------------------------------------------------ nonblocking sends

    /** Starts a standard-mode send; the buffer must not be modified until the request completes. */
    public Request Isend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return call(() -> bind(isend("Isend", buf, offset, count, datatype, dest, tag, STANDARD)));
    }

    /** Starts a synchronous send: the request completes once the receiver has started receiving. */
    public Request Issend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return call(() -> bind(isend("Issend", buf, offset, count, datatype, dest, tag, SYNCHRONOUS)));
    }

    /** Buffered send: copies the data (accounted against the attached buffer); the request is complete at once. */
    public Request Ibsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return call(() -> bind(isend("Ibsend", buf, offset, count, datatype, dest, tag, BUFFERED)));
    }

    /** Starts a ready-mode send (a standard send here). */
    public Request Irsend(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return call(() -> bind(isend("Irsend", buf, offset, count, datatype, dest, tag, READY)));
    }

    // ------------------------------------------------------------------ receives

    /** Blocking receive; the message may be shorter than the buffer. */
    public Status Recv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        return call(() -> {
            if (buf instanceof mpjbuf.Buffer packed) {
                return Packing.receive(this, "Recv", packed, datatype, source, tag).await();
            }
            if (datatype != null && datatype.isObject()) {
                return objectReceive("Recv", buf, offset, count, datatype, source, tag).await();
            }
            checkSource("Recv", source);
            Target t = new Target("Recv", buf, offset, count, datatype);
            return t.finish(inner.recv(t.buffer, source, tag));
        });
    }

    /** Nonblocking receive. */
    public Request Irecv(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        return call(() -> bind(new Request(irecv("Irecv", buf, offset, count, datatype, source, tag))));
    }

    private Request.Pending irecv(String call, Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        if (buf instanceof mpjbuf.Buffer packed) {
            return Packing.receive(this, call, packed, datatype, source, tag);
        }
        if (datatype != null && datatype.isObject()) {
            return objectReceive(call, buf, offset, count, datatype, source, tag);
        }
        checkSource(call, source);
        Target t = new Target(call, buf, offset, count, datatype);
        return Request.tessera(inner.irecv(t.buffer, source, tag), t::finish);
    }

    /** Sends one message and receives another without deadlock, whatever the peers' order. */
    public Status Sendrecv(Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, int dest, int sendtag,
                           Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        return call(() -> {
            Request r = new Request(irecv("Sendrecv", recvbuf, recvoffset, recvcount, recvtype, source, recvtag));
            Request s = isend("Sendrecv", sendbuf, sendoffset, sendcount, sendtype, dest, sendtag, STANDARD);
            Status status = r.waitNow();
            s.waitNow();
            return status;
        });
    }

    /** Sends the buffer's content and replaces it with the received message. */
    public Status Sendrecv_replace(Object buf, int offset, int count, Datatype datatype, int dest, int sendtag,
                                   int source, int recvtag) throws MPIException {
        return call(() -> {
            String call = "Sendrecv_replace";
            Datatype type = datatype == null ? null : datatype.on(buf);
            int n = type == null ? Datatype.nullType(call) : type.checkBuffer(call, "", buf, offset, count);
            Object copy = type.pack(buf, offset, count);
            Request r = new Request(irecv(call, buf, offset, count, type, source, recvtag));
            Request s = sendPacked(call, copy, n, type, dest, sendtag, STANDARD);
            Status status = r.waitNow();
            s.waitNow();
            return status;
        });
    }

    // ------------------------------------------------------------------ persistent requests

    /** A persistent standard send: each {@link Prequest#Start()} sends the buffer's current content. */
    public Prequest Send_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return persistentSend("Send_init", buf, offset, count, datatype, dest, tag, STANDARD);
    }

    /** A persistent synchronous send. */
    public Prequest Ssend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return persistentSend("Ssend_init", buf, offset, count, datatype, dest, tag, SYNCHRONOUS);
    }

    /** A persistent buffered send (see {@link #Bsend}). */
    public Prequest Bsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return persistentSend("Bsend_init", buf, offset, count, datatype, dest, tag, BUFFERED);
    }

    /** A persistent ready send (a standard send here). */
    public Prequest Rsend_init(Object buf, int offset, int count, Datatype datatype, int dest, int tag) throws MPIException {
        return persistentSend("Rsend_init", buf, offset, count, datatype, dest, tag, READY);
    }

    /** A persistent receive: each {@link Prequest#Start()} posts a receive with these arguments. */
    public Prequest Recv_init(Object buf, int offset, int count, Datatype datatype, int source, int tag) throws MPIException {
        return call(() -> {
            if (!(buf instanceof mpjbuf.Buffer)) {
                datatype.checkBuffer("Recv_init", "", buf, offset, count);
            }
            checkSource("Recv_init", source);
            return bind(new Prequest("Recv_init", () -> irecv("Recv_init", buf, offset, count, datatype, source, tag)));
        });
    }

    private Prequest persistentSend(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag,
                                    int mode) throws MPIException {
        return call(() -> {
            if (!(buf instanceof mpjbuf.Buffer)) {
                datatype.checkBuffer(call, "", buf, offset, count);
            }
            checkDest(call, dest);
            return bind(new Prequest(call, () -> isend(call, buf, offset, count, datatype, dest, tag, mode).pending));
        });
    }

    // ------------------------------------------------------------------ probes

    /** Blocks until a matching message has arrived; its status, without receiving it. */
    public Status Probe(int source, int tag) throws MPIException {
        return call(() -> {
            checkSource("Probe", source);
            return Status.of(inner.probe(source, tag));
        });
    }

    /** The status of a matching message that has arrived, or null if there is none. */
    public Status Iprobe(int source, int tag) throws MPIException {
        return call(() -> {
            checkSource("Iprobe", source);
            Optional<dev.tessera.comm.Status> s = inner.iprobe(source, tag);
            return s.map(Status::of).orElse(null);
        });
    }

    // ------------------------------------------------------------------ packing

    /** Bytes that {@link #Pack} needs for {@code incount} items of {@code datatype}. */
    public int Pack_size(int incount, Datatype datatype) throws MPIException {
        return call(() -> {
            requirePackable("Pack_size", datatype);
            if (datatype.size0() == 0) {
                return 0;
            }
            return Math.multiplyExact(Math.multiplyExact(incount, datatype.size0()), datatype.base.byteSize());
        });
    }

    /** Packs {@code incount} items into {@code outbuf} from byte {@code position}; the position after them. */
    public int Pack(Object inbuf, int offset, int incount, Datatype type, byte[] outbuf, int position) throws MPIException {
        return call(() -> {
            requirePackable("Pack", type);
            Datatype datatype = type.on(inbuf);
            int n = datatype.checkBuffer("Pack", "input ", inbuf, offset, incount);
            int bytes = n * datatype.base.byteSize();
            checkPackRange("Pack", outbuf, position, bytes);
            Object packed = datatype.pack(inbuf, offset, incount);
            MemorySegment out = MemorySegment.ofArray(outbuf).asSlice(position, bytes);
            if (packed instanceof boolean[] z) {
                for (int i = 0; i < n; i++) {
                    out.set(ValueLayout.JAVA_BYTE, i, z[i] ? (byte) 1 : (byte) 0);
                }
            } else {
                MemorySegment.copy(packed, 0, out, datatype.base.layout(), 0, n);
            }
            return position + bytes;
        });
    }

    /** Unpacks {@code outcount} items from {@code inbuf} at byte {@code position}; the position after them. */
    public int Unpack(byte[] inbuf, int position, Object outbuf, int offset, int outcount, Datatype type) throws MPIException {
        return call(() -> {
            requirePackable("Unpack", type);
            Datatype datatype = type.on(outbuf);
            int n = datatype.checkBuffer("Unpack", "output ", outbuf, offset, outcount);
            int bytes = n * datatype.base.byteSize();
            checkPackRange("Unpack", inbuf, position, bytes);
            MemorySegment in = MemorySegment.ofArray(inbuf).asSlice(position, bytes);
            Object packed = datatype.newArray(n);
            if (packed instanceof boolean[] z) {
                for (int i = 0; i < n; i++) {
                    z[i] = in.get(ValueLayout.JAVA_BYTE, i) != 0;
                }
            } else {
                MemorySegment.copy(in, datatype.base.layout(), 0, packed, 0, n);
            }
            datatype.unpack(packed, 0, outbuf, offset, n);
            return position + bytes;
        });
    }

    /**
     * MPJ Express's form: appends {@code incount} items as one section of {@code outbuf}
     * (objects too, {@link MPI#OBJECT} included); {@code position} is where the previous Pack
     * left off (0 for an empty buffer); returns the new end of the buffer's data. Send it
     * with {@code Send(outbuf, 0, position, MPI.PACKED, dest, tag)}.
     */
    public int Pack(Object inbuf, int offset, int incount, Datatype datatype, mpjbuf.Buffer outbuf, int position)
            throws MPIException {
        return call(() -> Packing.pack(this, inbuf, offset, incount, datatype, outbuf, position));
    }

    /**
     * MPJ Express's form: reads the next section of {@code inbuf} (committed: a received
     * buffer is) into {@code outcount} items at {@code offset} of {@code outbuf}; the section
     * must hold {@code datatype}'s base type and at most that many elements. Returns
     * {@code position} advanced past the section, as {@link #Pack} advanced it.
     */
    public int Unpack(mpjbuf.Buffer inbuf, int position, Object outbuf, int offset, int outcount, Datatype datatype)
            throws MPIException {
        return call(() -> Packing.unpack(this, inbuf, position, outbuf, offset, outcount, datatype));
    }

    private void requirePackable(String call, Datatype datatype) {
        if (datatype == null || datatype.isObject()) {
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": " + datatype
                    + " cannot be packed into bytes (send objects with MPI.OBJECT directly)");
        }
    }

    private void checkPackRange(String call, byte[] bytes, int position, int n) {
        if (bytes == null || position < 0 || (long) position + n > bytes.length) {
            throw new TesseraException(ErrorClass.BUFFER, where(call) + ": " + n + " bytes at position " + position
                    + " do not fit the byte buffer of length " + (bytes == null ? "null" : bytes.length));
        }
    }

    // ------------------------------------------------------------------ send machinery

    /** Starts a send of {@code count} items in {@code mode}. */
    Request isend(String call, Object buf, int offset, int count, Datatype datatype, int dest, int tag, int mode) {
        if (datatype == null) {
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": datatype is null");
        }
        if (buf instanceof mpjbuf.Buffer packed) {
            checkDest(call, dest);
            return Packing.send(this, call, packed, datatype, dest, tag, mode == BUFFERED);
        }
        datatype = datatype.on(buf);
        int n = datatype.checkBuffer(call, "", buf, offset, count);
        checkDest(call, dest);
        boolean copy = mode == BUFFERED || !datatype.contiguous || datatype.isObject() || buf == null;
        if (!copy) {
            dev.tessera.comm.Buffer b = Datatype.wrap(buf, offset, n);
            dev.tessera.comm.Request r = mode == SYNCHRONOUS ? inner.issend(b, dest, tag) : inner.isend(b, dest, tag);
            return Request.of(r, Status::sent);
        }
        return sendPacked(call, n == 0 ? datatype.newArray(0) : datatype.pack(buf, offset, count), n, datatype, dest, tag, mode);
    }

    /** Sends {@code n} packed base elements of {@code datatype} from {@code packed} (a private copy). */
    Request sendPacked(String call, Object packed, int n, Datatype datatype, int dest, int tag, int mode) {
        if (mode == BUFFERED) {
            long bytes = datatype.isObject() ? 0 : (long) n * datatype.base.byteSize();
            long reserved = MPI.reserveBsend(call, bytes);
            dev.tessera.comm.Request r;
            try {
                r = datatype.isObject() ? inner.isendObject(packed, dest, tag) : inner.isend(Datatype.wrap(packed, 0, n), dest, tag);
            } catch (RuntimeException e) {
                MPI.releaseBsend(reserved);
                throw e;
            }
            MPI.trackBsend(r, reserved);
            return Request.completed(Status.empty());
        }
        dev.tessera.comm.Request r;
        if (datatype.isObject()) {
            r = inner.isendObject(packed, dest, tag);      // object messages have no synchronous mode: standard
        } else {
            Buffer b = Datatype.wrap(packed, 0, n);
            r = mode == SYNCHRONOUS ? inner.issend(b, dest, tag) : inner.isend(b, dest, tag);
        }
        return Request.of(r, Status::sent);
    }

    void checkDest(String call, int dest) {
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= peerSize())) {
            throw new TesseraException(ErrorClass.RANK, where(call) + ": invalid destination rank " + dest
                    + " (" + (inner.isInter() ? "remote group" : "communicator") + " size " + peerSize() + ")");
        }
    }

    void checkSource(String call, int source) {
        if (source != MPI.PROC_NULL && source != MPI.ANY_SOURCE && (source < 0 || source >= peerSize())) {
            throw new TesseraException(ErrorClass.RANK, where(call) + ": invalid source rank " + source
                    + " (" + (inner.isInter() ? "remote group" : "communicator") + " size " + peerSize() + ")");
        }
    }

    // ------------------------------------------------------------------ object receives

    /** A receive of {@link MPI#OBJECT} items: the core communicator's nonblocking object receive, unpacked into the target. */
    private Request.Pending objectReceive(String call, Object buf, int offset, int count, Datatype datatype, int source, int tag) {
        Target t = new Target(call, buf, offset, count, datatype);
        checkSource(call, source);
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB)) {
            throw new TesseraException(ErrorClass.TAG, where(call) + ": invalid tag " + tag);
        }
        if (source == MPI.PROC_NULL) {
            return Request.completed(new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, false)).pending;
        }
        ObjectRequest<Object> r = inner.irecvObject(source, tag);
        return Request.tessera(r, st -> st.cancelled() ? new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, true)
                : unpackObjects(call, t, r.value(), st));
    }

    private Status unpackObjects(String call, Target target, Object v, dev.tessera.comm.Status st) {
        Object[] got = v instanceof Object[] a ? a : new Object[] {v};
        if (got.length > target.elements) {
            throw new TesseraException(ErrorClass.TRUNCATE, where(call) + ": message from rank " + st.source()
                    + " (tag " + st.tag() + ") has " + got.length + " objects but the receive buffer holds "
                    + target.elements + ": message truncated");
        }
        target.unpackObjects(got);
        return new Status(st.source(), st.tag(), got.length, false);
    }

    @Override
    public String toString() {
        return "mpi." + getClass().getSimpleName() + "[" + inner + "]";
    }
}
