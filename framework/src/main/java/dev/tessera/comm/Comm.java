package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.internal.CommAccess;
import dev.tessera.device.Device;
import dev.tessera.device.BlockedCalls;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A communicator: an ordered group of ranks and a private message space (context).
 *
 * <p>Buffer methods take a {@link Buffer} (a typed slice of an array, segment or byte
 * buffer); object methods ({@code sendObject}, {@code bcastObject}, ...) serialize any
 * {@link java.io.Serializable}. Errors are {@link TesseraException}s naming the rank, the
 * call and the bad argument. Point-to-point and collective traffic use separate contexts,
 * so user messages can never match a collective's internal messages.
 */
public class Comm {

    /** Receive from any source. */
    public static final int ANY_SOURCE = Device.ANY_SOURCE;
    /** Receive with any tag. */
    public static final int ANY_TAG = Device.ANY_TAG;
    /** The null process: sends to it and receives from it complete at once and move nothing. */
    public static final int PROC_NULL = -2;
    /**
     * The root argument of an intercommunicator's rooted collective at the root itself (the
     * other members of the root's group pass {@link #PROC_NULL}); see {@link InterComm}.
     */
    public static final int ROOT = -3;
    /** Color for {@link #split} of ranks that want no new communicator; rank of non-members. */
    public static final int UNDEFINED = Group.UNDEFINED;
    /** Largest valid tag. */
    public static final int TAG_UB = (1 << 30) - 1;

    final RankEnvironment env;
    final Group group;
    final int rank;
    final int context;
    private final java.util.concurrent.atomic.AtomicLong collectiveSequence = new java.util.concurrent.atomic.AtomicLong();
    /** The shared-memory collectives of this communicator, once looked up; NO_NODE when the device offers none. */
    private volatile Object node;
    private static final Object NO_NODE = new Object();
    /** The agreement check of the last collective call, when its comparison was left for later ({@link #deferCheck}). */
    private final AtomicReference<CollectiveCheck> pendingCheck = new AtomicReference<>();
    /** Whether this communicator is in the rank's set of communicators that deferred a check. */
    private volatile boolean deferredChecks;
    private volatile boolean freed;
    /**
     * Created at the first collective call. Read without a lock (volatile: a plain load on x86):
     * a lock is two locked instructions per collective call, and each waits until the previous
     * call's stores into shared memory (a NodeCollectives lane line the peer holds) have taken
     * their line back, so a reduce contributor could not run ahead of that transfer.
     */
    private volatile Collectives collectives;
    private ObjectReceiveQueue objectReceives;

    Comm(RankEnvironment env, Group group, int context) {
        this.env = env;
        this.group = group;
        this.context = context;
        this.rank = group.rankOf(env.device.rank());
        if (rank == Group.UNDEFINED) {
            throw new TesseraException(ErrorClass.INTERN, "communicator created on a rank outside its group");
        }
    }

    static {
        CommAccess.register(new CommAccess() {
            @Override
            public Comm createWorld(Device device, ThreadLevel level, CollectiveTuning tuning, String nodeName) {
                return Comm.createWorld(device, level, tuning, nodeName);
            }

            @Override
            public void releaseRank(Comm world) {
                world.releaseRank();
            }

            @Override
            public byte[] encodeObject(Object value, String where) {
                return ObjectCodec.encode(value, where);
            }

            @Override
            public Object decodeObject(byte[] data, String where) {
                return ObjectCodec.decode(data, where);
            }

            @Override
            public void reduce(Op op, java.lang.foreign.MemorySegment in, java.lang.foreign.MemorySegment inout, int count,
                    Datatype type) {
                op.apply(in, inout, count, type);
            }
        });
    }

    /**
     * The world communicator of a rank; called once per rank by the runtime (through
     * {@link CommAccess}). Contexts 0-1 belong to the world, 2-3 to the self communicator.
     */
    static Comm createWorld(Device device, ThreadLevel level, CollectiveTuning tuning, String nodeName) {
        RankEnvironment env = new RankEnvironment(device, level, Thread.currentThread(), 4, tuning, nodeName);
        return new Comm(env, Group.range(device.size()), 0);
    }

    /** The communicator holding only this rank. */
    public Comm self() {
        return new Comm(env, new Group(new int[] {env.device.rank()}), 2);
    }

    // ------------------------------------------------------------------ basics

    /** This rank's number in the communicator, 0 .. size-1. */
    public int rank() {
        return rank;
    }

    public int size() {
        return group.size();
    }

    public Group group() {
        return group;
    }

    /**
     * The ranks that point-to-point ranks of this communicator name: its own group, or for
     * an {@link InterComm} the remote group.
     */
    Group peers() {
        return group;
    }

    public ThreadLevel threadLevel() {
        return env.threadLevel;
    }

    /** Collective algorithm choices for this rank (shared by all its communicators). */
    public CollectiveTuning tuning() {
        return env.tuning;
    }

    public String deviceName() {
        return env.device.name();
    }

    Device device() {
        return env.device;
    }

    /** "rank R: call" for error messages (R is the world rank). */
    /** How hang reports name this communicator. */
    String reportName() {
        return context == 0 ? "the world communicator" : "the communicator of context " + context + " (" + size() + " ranks)";
    }

    String where(String call) {
        return "rank " + env.device.rank() + ": " + call;
    }

    // ------------------------------------------------------------------ point-to-point, buffers

    /** Sends, returning when the buffer may be reused (small messages are buffered; large ones wait for the receiver). */
    public void send(Buffer buffer, int dest, int tag) {
        sendAndWait(buffer, dest, tag, "Comm.send", false);
    }

    /** Synchronous send: returns only once the matching receive has started. */
    public void ssend(Buffer buffer, int dest, int tag) {
        sendAndWait(buffer, dest, tag, "Comm.ssend", true);
    }

    /**
     * A blocking send. No {@link Request} is made (the caller never sees one); with hang
     * reports on, the request path, whose wait names the call and its peer.
     */
    private void sendAndWait(Buffer buffer, int dest, int tag, String call, boolean synchronous) {
        if (BlockedCalls.enabled()) {
            isend(buffer, dest, tag, call, synchronous).await();
            return;
        }
        DeviceRequest op = startSend(buffer, dest, tag, call, synchronous);
        if (op != null) {
            awaitOutcome(call, op, null);
        }
    }

    public Request isend(Buffer buffer, int dest, int tag) {
        return isend(buffer, dest, tag, "Comm.isend", false);
    }

    public Request issend(Buffer buffer, int dest, int tag) {
        return isend(buffer, dest, tag, "Comm.issend", true);
    }

    private Request isend(Buffer buffer, int dest, int tag, String call, boolean synchronous) {
        DeviceRequest op = startSend(buffer, dest, tag, call, synchronous);
        if (op == null) {
            return Request.completed(this, call);
        }
        Request r = new Request(this, call, op, null);
        if (BlockedCalls.enabled()) {
            r.detail = "(dest " + dest + ", tag " + tag + ")";
        }
        return r;
    }

    /** Checks a send's arguments and starts it on the device; null for a send to PROC_NULL. */
    private DeviceRequest startSend(Buffer buffer, int dest, int tag, String call, boolean synchronous) {
        checkCall(call);
        checkBuffer(call, buffer, false);
        checkDestination(call, dest);
        checkSendTag(call, tag);
        if (dest == PROC_NULL) {
            return null;
        }
        return env.device.isend(buffer.sendSegment(), peers().worldRank(dest), tag, context,
                buffer.type().code(), synchronous);
    }

    /**
     * Receives into {@code buffer}; the message may be shorter than the buffer. No
     * {@link Request} is made (with hang reports on, the request path, as for {@link #send}).
     */
    public Status recv(Buffer buffer, int source, int tag) {
        String call = "Comm.recv";
        if (BlockedCalls.enabled()) {
            return irecv(buffer, source, tag, call).await();
        }
        ReceiveRequest op = startReceive(buffer, source, tag, call);
        return op == null ? Status.EMPTY : awaitOutcome(call, op, buffer);
    }

    public Request irecv(Buffer buffer, int source, int tag) {
        return irecv(buffer, source, tag, "Comm.irecv");
    }

    private Request irecv(Buffer buffer, int source, int tag, String call) {
        ReceiveRequest op = startReceive(buffer, source, tag, call);
        if (op == null) {
            return Request.completed(this, call);
        }
        Request r = new Request(this, call, op, buffer);
        if (BlockedCalls.enabled()) {
            r.detail = "(source " + (source == ANY_SOURCE ? "ANY_SOURCE" : Integer.toString(source)) + ", tag "
                    + (tag == ANY_TAG ? "ANY_TAG" : Integer.toString(tag)) + ")";
        }
        return r;
    }

    /** Checks a receive's arguments and posts it on the device; null for a receive from PROC_NULL. */
    private ReceiveRequest startReceive(Buffer buffer, int source, int tag, String call) {
        checkCall(call);
        checkBuffer(call, buffer, true);
        checkSource(call, source);
        checkReceiveTag(call, tag);
        if (source == PROC_NULL) {
            return null;
        }
        return env.device.irecv(buffer.receiveSegment(), worldSource(source), tag, context, buffer.type().code());
    }

    /** Waits for a blocking call's operation (no Request) and returns its status, or throws its error. */
    private Status awaitOutcome(String call, DeviceRequest op, Buffer buffer) {
        if (!op.isComplete()) {
            env.awaitWithDeferredChecks(op); // an earlier collective's mismatch may be why op never completes
            env.device.await(op);
        }
        Object outcome = outcome(call, op, buffer);
        if (outcome instanceof TesseraException e) {
            throw e;
        }
        return (Status) outcome;
    }

    /** Sends one message and receives another, without deadlock whatever the order on the peers. */
    public Status sendrecv(Buffer sendBuffer, int dest, int sendTag, Buffer recvBuffer, int source, int recvTag) {
        Request r = irecv(recvBuffer, source, recvTag, "Comm.sendrecv");
        Request s = isend(sendBuffer, dest, sendTag, "Comm.sendrecv", false);
        s.await();
        return r.await();
    }

    /** Sends the buffer's content and replaces it with the received message. */
    public Status sendrecvReplace(Buffer buffer, int dest, int sendTag, int source, int recvTag) {
        String call = "Comm.sendrecvReplace";
        checkBuffer(call, buffer, true);
        byte[] copy = new byte[Math.toIntExact(buffer.byteSize())];
        MemorySegment.copy(buffer.sendSegment(), 0, MemorySegment.ofArray(copy), 0, copy.length);
        Buffer outgoing = Buffer.raw(MemorySegment.ofArray(copy), buffer.type());
        Request r = irecv(buffer, source, recvTag, call);
        Request s = isend(outgoing, dest, sendTag, call, false);
        s.await();
        return r.await();
    }

    /** Blocks until a matching message has arrived; returns its status without receiving it. */
    public Status probe(int source, int tag) {
        String call = "Comm.probe";
        checkCall(call);
        checkSource(call, source);
        checkReceiveTag(call, tag);
        if (source == PROC_NULL) {
            return Status.EMPTY;
        }
        int idle = 0;
        Envelope e;
        BlockedCalls.Wait blocked = null;
        try {
            while ((e = env.device.iprobe(worldSource(source), tag, context)) == null) {
                if (blocked == null && BlockedCalls.enabled()) {
                    blocked = BlockedCalls.enter(env.device, where(call) + "(source "
                            + (source == ANY_SOURCE ? "ANY_SOURCE" : Integer.toString(source)) + ", tag "
                            + (tag == ANY_TAG ? "ANY_TAG" : Integer.toString(tag)) + ") on " + reportName());
                }
                idle = idleStep(idle);
            }
        } finally {
            BlockedCalls.exit(blocked);
        }
        return probeStatus(e);
    }

    /** The status of a matching message that has arrived, if any, without receiving it. */
    public Optional<Status> iprobe(int source, int tag) {
        String call = "Comm.iprobe";
        checkCall(call);
        checkSource(call, source);
        checkReceiveTag(call, tag);
        if (source == PROC_NULL) {
            return Optional.of(Status.EMPTY);
        }
        env.device.progress();
        Envelope e = env.device.iprobe(worldSource(source), tag, context);
        return e == null ? Optional.empty() : Optional.of(probeStatus(e));
    }

    private Status probeStatus(Envelope e) {
        Datatype t = Datatype.ofCode(e.typeCode());
        int count = t == null ? (int) e.byteCount() : (int) (e.byteCount() / t.byteSize());
        return new Status(peers().rankOf(e.source()), e.tag(), count, e.byteCount(), false);
    }

    private int idleStep(int idle) {
        if (env.device.progress()) {
            return 0;
        }
        env.device.checkHealthy();
        IdleStrategy.backoff().idle(idle);
        return idle + 1;
    }

    // ------------------------------------------------------------------ point-to-point, objects

    /** Sends a serializable object (or null). */
    public void sendObject(Object value, int dest, int tag) {
        isendObject(value, dest, tag, "Comm.sendObject").await();
    }

    public Request isendObject(Object value, int dest, int tag) {
        return isendObject(value, dest, tag, "Comm.isendObject");
    }

    private Request isendObject(Object value, int dest, int tag, String call) {
        checkCall(call);
        checkDestination(call, dest);
        checkSendTag(call, tag);
        if (dest == PROC_NULL) {
            return Request.completed(this, call);
        }
        byte[] bytes = ObjectCodec.encode(value, where(call));
        DeviceRequest op = env.device.isend(MemorySegment.ofArray(bytes), peers().worldRank(dest), tag, context,
                Datatype.OBJECT.code(), false);
        return new Request(this, call, op, null);
    }

    /**
     * Starts a receive of an object sent with {@link #sendObject} or {@link #isendObject}
     * (nonblocking): {@code irecvObject(source, tag).get()} waits and returns it. Object
     * receives are matched in the order they were posted, as MPI matches receives.
     */
    public <T> ObjectRequest<T> irecvObject(int source, int tag) {
        String call = "Comm.irecvObject";
        checkCall(call);
        checkSource(call, source);
        checkReceiveTag(call, tag);
        return ObjectRequest.post(this, call, objectReceives(), source, tag);
    }

    private synchronized ObjectReceiveQueue objectReceives() {
        if (objectReceives == null) {
            objectReceives = new ObjectReceiveQueue(this);
        }
        return objectReceives;
    }

    /** Receives an object sent with {@link #sendObject}. */
    public <T> T recvObject(int source, int tag) {
        return this.<T>recvObjectWithStatus(source, tag).value();
    }

    /** Receives an object and the status of its message. */
    @SuppressWarnings("unchecked")
    public <T> Received<T> recvObjectWithStatus(int source, int tag) {
        String call = "Comm.recvObject";
        checkCall(call);
        checkSource(call, source);
        checkReceiveTag(call, tag);
        if (source == PROC_NULL) {
            return new Received<>(null, Status.EMPTY);
        }
        ObjectReceiveQueue queue;
        synchronized (this) {
            queue = objectReceives;
        }
        if (queue != null && queue.hasPending()) {
            // earlier nonblocking object receives come first: match through their queue
            ObjectRequest<T> r = ObjectRequest.post(this, call, queue, source, tag);
            Status st = r.await();
            return new Received<>(r.value(), st);
        }
        return receiveObjectNow(source, tag, call);
    }

    /** Receives the first arrived object message matching (source, tag), waiting for one (no queue). */
    @SuppressWarnings("unchecked")
    <T> Received<T> receiveObjectNow(int source, int tag, String call) {
        int idle = 0;
        IncomingMessage m;
        while ((m = env.device.improbe(worldSource(source), tag, context)) == null) {
            idle = idleStep(idle);
        }
        Envelope e = m.envelope();
        if (e.typeCode() != Datatype.OBJECT.code()) {
            Datatype sent = Datatype.ofCode(e.typeCode());
            byte[] discard = new byte[Math.toIntExact(e.byteCount())];
            env.device.await(env.device.mrecv(m, MemorySegment.ofArray(discard), ReceiveRequest.ANY_TYPE));
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": message from rank " + peers().rankOf(e.source())
                    + " (tag " + e.tag() + ") holds " + sent + " elements, not an object; receive it with recv(Buffer)");
        }
        byte[] bytes = new byte[Math.toIntExact(e.byteCount())];
        ReceiveRequest r = env.device.mrecv(m, MemorySegment.ofArray(bytes), Datatype.OBJECT.code());
        env.device.await(r);
        Status status = new Status(peers().rankOf(e.source()), e.tag(), 1, e.byteCount(), false);
        return new Received<>((T) ObjectCodec.decode(bytes, where(call)), status);
    }

    /** An object received together with the status of its message. */
    public record Received<T>(T value, Status status) {
    }

    // ------------------------------------------------------------------ completion helpers for Request

    /** What a cancelled operation reports. */
    private static final Status CANCELLED = new Status(PROC_NULL, ANY_TAG, 0, 0, true);

    /**
     * What a completed operation reports: its status, or the error to throw (naming the call).
     * A receive without an error finishes its buffer here ({@link Buffer#received}: unpacks
     * booleans, copies into a confined segment), which is idempotent, so two threads that
     * finish one request at once get equal outcomes.
     */
    Object outcome(String call, DeviceRequest op, Buffer buffer) {
        if (op.isCancelled()) {
            return CANCELLED;
        }
        if (op.error() != null) {
            return translateError(call, op, buffer);
        }
        if (op.kind() != DeviceRequest.Kind.RECEIVE) {
            return Status.EMPTY;
        }
        Status status = receiveStatus(op, buffer);
        if (buffer != null) {
            buffer.received(op.byteCount());
        }
        return status;
    }

    Status receiveStatus(DeviceRequest op, Buffer buffer) {
        int source = peers().rankOf(op.source());
        int size = buffer == null ? 1 : buffer.type().byteSize();
        return new Status(source, op.tag(), (int) (op.byteCount() / size), op.byteCount(), false);
    }

    TesseraException translateError(String call, DeviceRequest op, Buffer buffer) {
        RuntimeException e = op.error();
        if (e instanceof TesseraException te && buffer == null && op.typeCode() == Datatype.OBJECT.code()) {
            // an object receive (irecvObject) failed while matching: its error already names the call,
            // the rank, the sender and both types; op holds the receive's own placeholders, not the message's
            return te;
        }
        if (e instanceof dev.tessera.RankFailedException rf) {
            // a job that goes on when a rank dies: the call names the rank in this communicator
            int peer = peers().rankOf(rf.failedRank());
            return new dev.tessera.RankFailedException(rf.failedRank(), where(call) + ": rank " + peer
                    + (peer == rf.failedRank() ? "" : " (world rank " + rf.failedRank() + ")")
                    + " is gone (its process died or was killed)", rf);
        }
        ErrorClass cls = e instanceof TesseraException te ? te.errorClass() : ErrorClass.INTERN;
        String from = "message from rank " + peers().rankOf(op.source()) + " (tag " + op.tag() + ")";
        String text = switch (cls) {
            case TRUNCATE -> from + " has " + op.byteCount() + " bytes but the receive buffer holds "
                    + (buffer == null ? "?" : buffer.byteSize() + " (" + buffer + ")") + ": message truncated";
            case TYPE -> from + " holds " + Datatype.ofCode(op.typeCode()) + " elements but the receive buffer holds "
                    + (buffer == null ? "?" : buffer.type()) + " elements";
            default -> e.getMessage();
        };
        return new TesseraException(cls, where(call) + ": " + text, e);
    }

    // ------------------------------------------------------------------ argument checks

    void checkCall(String call) {
        if (env.isClosed()) {
            throw new TesseraException(ErrorClass.OTHER, where(call) + ": called after the rank's Session was closed "
                    + "(Session.close(), like MPI_Finalize, ends all communication of the rank)");
        }
        if (freed) {
            throw new TesseraException(ErrorClass.COMM, where(call) + ": communicator used after free()");
        }
        if (BlockedCalls.enabled()) {
            BlockedCalls.call(env.device, where(call) + " on " + reportName());
        }
        ThreadLevel level = env.threadLevel;
        if ((level == ThreadLevel.FUNNELED || level == ThreadLevel.SINGLE)
                && Thread.currentThread() != env.initThread) {
            throw new TesseraException(ErrorClass.OTHER, where(call) + ": called from thread '"
                    + Thread.currentThread().getName() + "' but the thread level is " + level
                    + ": only the thread that initialised the rank may communicate (request ThreadLevel.MULTIPLE)");
        }
    }

    void checkBuffer(String call, Buffer buffer, boolean receive) {
        if (buffer == null) {
            throw new TesseraException(ErrorClass.BUFFER, where(call) + ": buffer is null");
        }
        if (receive && buffer.isReadOnly()) {
            throw new TesseraException(ErrorClass.BUFFER, where(call) + ": receive buffer is read-only");
        }
        if (buffer.type() == Datatype.OBJECT) {
            throw new TesseraException(ErrorClass.TYPE, where(call) + ": use the object methods for OBJECT messages");
        }
    }

    private void checkDestination(String call, int dest) {
        if (dest != PROC_NULL && (dest < 0 || dest >= peers().size())) {
            throw new TesseraException(ErrorClass.RANK, where(call) + ": invalid destination rank " + dest
                    + " (" + (peers() == group ? "communicator" : "remote group") + " size " + peers().size() + ")");
        }
    }

    private void checkSource(String call, int source) {
        if (source != PROC_NULL && source != ANY_SOURCE && (source < 0 || source >= peers().size())) {
            throw new TesseraException(ErrorClass.RANK, where(call) + ": invalid source rank " + source
                    + " (" + (peers() == group ? "communicator" : "remote group") + " size " + peers().size() + ")");
        }
    }

    private void checkSendTag(String call, int tag) {
        if (tag < 0 || tag > TAG_UB) {
            throw new TesseraException(ErrorClass.TAG, where(call) + ": invalid tag " + tag + " (valid: 0.." + TAG_UB + ")");
        }
    }

    private void checkReceiveTag(String call, int tag) {
        if (tag != ANY_TAG && (tag < 0 || tag > TAG_UB)) {
            throw new TesseraException(ErrorClass.TAG, where(call) + ": invalid tag " + tag
                    + " (valid: 0.." + TAG_UB + " or ANY_TAG)");
        }
    }

    void checkRoot(String call, int root) {
        if (root < 0 || root >= size()) {
            throw new TesseraException(ErrorClass.ROOT, where(call) + ": invalid root " + root
                    + " (communicator size " + size() + ")");
        }
    }

    private int worldSource(int source) {
        return source == ANY_SOURCE ? Device.ANY_SOURCE : peers().worldRank(source);
    }

    // ------------------------------------------------------------------ collectives
    // Every rank of the communicator must call each collective, in the same order.
    // Block i of a root's (or every rank's) p-block buffer belongs to rank i.

    /** Blocks until every rank of the communicator has called barrier. */
    public void barrier() {
        checkCall("Comm.barrier");
        collectives().barrier();
    }

    /** Copies the root's buffer into every other rank's buffer. */
    public void bcast(Buffer buffer, int root) {
        checkCall("Comm.bcast");
        collectives().bcast(buffer, root);
    }

    /** Combines every rank's {@code send} element-wise with {@code op} into the root's {@code recv} (null elsewhere is fine). */
    public void reduce(Buffer send, Buffer recv, Op op, int root) {
        checkCall("Comm.reduce");
        requireNonNullSend("Comm.reduce", send);
        collectives().reductions().reduce(send, recv, op, root);
    }

    /** In-place reduce: {@code inout} holds each rank's contribution, and the result at the root. */
    public void reduce(Buffer inout, Op op, int root) {
        checkCall("Comm.reduce");
        collectives().reductions().reduce(null, inout, op, root);
    }

    /** Combines every rank's {@code send} element-wise with {@code op}; every rank gets the result in {@code recv}. */
    public void allreduce(Buffer send, Buffer recv, Op op) {
        checkCall("Comm.allreduce");
        requireNonNullSend("Comm.allreduce", send);
        collectives().reductions().allreduce(send, recv, op);
    }

    /** In-place allreduce: {@code inout} holds this rank's contribution and then the result. */
    public void allreduce(Buffer inout, Op op) {
        checkCall("Comm.allreduce");
        collectives().reductions().allreduce(null, inout, op);
    }

    /** Allreduce of one double. */
    public double allreduce(double value, Op op) {
        double[] v = {value};
        allreduce(Buffer.of(v), op);
        return v[0];
    }

    /** Allreduce of one long. */
    public long allreduce(long value, Op op) {
        long[] v = {value};
        allreduce(Buffer.of(v), op);
        return v[0];
    }

    /** Allreduce of one int. */
    public int allreduce(int value, Op op) {
        int[] v = {value};
        allreduce(Buffer.of(v), op);
        return v[0];
    }

    /** Inclusive prefix reduction: rank r gets send(0) op ... op send(r). */
    public void scan(Buffer send, Buffer recv, Op op) {
        checkCall("Comm.scan");
        requireNonNullSend("Comm.scan", send);
        collectives().reductions().scan(send, recv, op, false);
    }

    /** Exclusive prefix reduction: rank r > 0 gets send(0) op ... op send(r-1); rank 0's recv is left as it was. */
    public void exscan(Buffer send, Buffer recv, Op op) {
        checkCall("Comm.exscan");
        requireNonNullSend("Comm.exscan", send);
        collectives().reductions().scan(send, recv, op, true);
    }

    /** Reduces p blocks of {@code recv.count()} elements; rank i gets the reduced block i. */
    public void reduceScatterBlock(Buffer send, Buffer recv, Op op) {
        checkCall("Comm.reduceScatterBlock");
        collectives().reductions().reduceScatterBlock(send, recv, op);
    }

    /** Reduces {@code send} (sum of recvCounts elements); rank i gets the next recvCounts[i] reduced elements. */
    public void reduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        checkCall("Comm.reduceScatter");
        collectives().reductions().reduceScatter(send, recv, recvCounts, op);
    }

    /** Collects every rank's {@code send} into block i of the root's {@code recv} (null elsewhere is fine). */
    public void gather(Buffer send, Buffer recv, int root) {
        checkCall("Comm.gather");
        collectives().gather(send, recv, root);
    }

    /** Gather of different sizes: rank i's block goes to {@code recv} at displs[i] with counts[i] elements (root only). */
    public void gatherv(Buffer send, Buffer recv, int[] counts, int[] displs, int root) {
        checkCall("Comm.gatherv");
        collectives().gatherv(send, recv, counts, displs, root);
    }

    /** Sends block i of the root's {@code send} to rank i's {@code recv}. */
    public void scatter(Buffer send, Buffer recv, int root) {
        checkCall("Comm.scatter");
        collectives().scatter(send, recv, root);
    }

    /** Scatter of different sizes: rank i gets counts[i] elements from displs[i] of the root's {@code send}. */
    public void scatterv(Buffer send, int[] counts, int[] displs, Buffer recv, int root) {
        checkCall("Comm.scatterv");
        collectives().scatterv(send, counts, displs, recv, root);
    }

    /** Gathers equal blocks from every rank into every rank's {@code recv} (block i from rank i). */
    public void allgather(Buffer send, Buffer recv) {
        checkCall("Comm.allgather");
        requireNonNullSend("Comm.allgather", send);
        collectives().allgather(send, recv);
    }

    /** In-place allgather: this rank's block of {@code recv} is already in place. */
    public void allgather(Buffer recv) {
        checkCall("Comm.allgather");
        collectives().allgather(null, recv);
    }

    /** Allgather of different sizes: rank i's block lands at displs[i] with counts[i] elements on every rank. */
    public void allgatherv(Buffer send, Buffer recv, int[] counts, int[] displs) {
        checkCall("Comm.allgatherv");
        collectives().allgatherv(send, recv, counts, displs);
    }

    /** Block j of rank i's {@code send} goes to block i of rank j's {@code recv}. */
    public void alltoall(Buffer send, Buffer recv) {
        checkCall("Comm.alltoall");
        collectives().alltoall(send, recv);
    }

    /** All-to-all of different sizes, with per-rank counts and displacements on both sides. */
    public void alltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts, int[] recvDispls) {
        checkCall("Comm.alltoallv");
        collectives().alltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    // ------------------------------------------------------------------ nonblocking collectives
    //
    // MPI-3's MPI_I* collectives: each returns at once with a Request; the buffers must not be
    // touched until it completes. They run as schedules of nonblocking point-to-point rounds
    // (NonblockingCollectives), advanced whenever the request is tested or waited for: start
    // one, compute, then wait, and the transfers overlap the computation. Several may be in
    // flight on one communicator; every rank must start them in the same order.

    private NonblockingCollectives nonblocking(String call) {
        checkCall(call);
        return new NonblockingCollectives(this);
    }

    /** Nonblocking barrier. */
    public Request ibarrier() {
        return nonblocking("Comm.ibarrier").ibarrier();
    }

    /** Nonblocking broadcast. */
    public Request ibcast(Buffer buffer, int root) {
        return nonblocking("Comm.ibcast").ibcast(buffer, root);
    }

    /** Nonblocking reduce to {@code root} ({@code recv} is only used there). */
    public Request ireduce(Buffer send, Buffer recv, Op op, int root) {
        requireNonNullSend("Comm.ireduce", send);
        return nonblocking("Comm.ireduce").ireduce(send, recv, op, root);
    }

    /** Nonblocking allreduce. */
    public Request iallreduce(Buffer send, Buffer recv, Op op) {
        requireNonNullSend("Comm.iallreduce", send);
        return nonblocking("Comm.iallreduce").iallreduce(send, recv, op);
    }

    /** Nonblocking reduce-scatter with equal blocks: rank r gets block r of the reduction. */
    public Request ireduceScatterBlock(Buffer send, Buffer recv, Op op) {
        requireNonNullSend("Comm.ireduceScatterBlock", send);
        return nonblocking("Comm.ireduceScatterBlock").ireduceScatterBlock(send, recv, op);
    }

    /** Nonblocking reduce-scatter: rank r gets {@code recvCounts[r]} elements of the reduction. */
    public Request ireduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        requireNonNullSend("Comm.ireduceScatter", send);
        return nonblocking("Comm.ireduceScatter").ireduceScatter(send, recv, recvCounts, op);
    }

    /** Nonblocking inclusive prefix reduction. */
    public Request iscan(Buffer send, Buffer recv, Op op) {
        requireNonNullSend("Comm.iscan", send);
        return nonblocking("Comm.iscan").scan(send, recv, op, false);
    }

    /** Nonblocking exclusive prefix reduction ({@code recv} is left as it is on rank 0). */
    public Request iexscan(Buffer send, Buffer recv, Op op) {
        requireNonNullSend("Comm.iexscan", send);
        return nonblocking("Comm.iexscan").scan(send, recv, op, true);
    }

    /** Nonblocking gather to {@code root} ({@code recv} is only used there). */
    public Request igather(Buffer send, Buffer recv, int root) {
        return nonblocking("Comm.igather").igather(send, recv, root);
    }

    /** Nonblocking gather of varying counts. */
    public Request igatherv(Buffer send, Buffer recv, int[] counts, int[] displs, int root) {
        return nonblocking("Comm.igatherv").igatherv(send, recv, counts, displs, root);
    }

    /** Nonblocking scatter from {@code root} ({@code send} is only used there). */
    public Request iscatter(Buffer send, Buffer recv, int root) {
        return nonblocking("Comm.iscatter").iscatter(send, recv, root);
    }

    /** Nonblocking scatter of varying counts. */
    public Request iscatterv(Buffer send, int[] counts, int[] displs, Buffer recv, int root) {
        return nonblocking("Comm.iscatterv").iscatterv(send, counts, displs, recv, root);
    }

    /** Nonblocking allgather. */
    public Request iallgather(Buffer send, Buffer recv) {
        return nonblocking("Comm.iallgather").iallgather(send, recv);
    }

    /** Nonblocking allgather of varying counts. */
    public Request iallgatherv(Buffer send, Buffer recv, int[] counts, int[] displs) {
        return nonblocking("Comm.iallgatherv").iallgatherv(send, recv, counts, displs);
    }

    /** Nonblocking all-to-all (FT's transpose, overlapped with computation). */
    public Request ialltoall(Buffer send, Buffer recv) {
        return nonblocking("Comm.ialltoall").ialltoall(send, recv);
    }

    /** Nonblocking all-to-all of varying counts. */
    public Request ialltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts, int[] recvDispls) {
        return nonblocking("Comm.ialltoallv").ialltoallv(send, sendCounts, sendDispls, recv, recvCounts, recvDispls);
    }

    /** Sends {@code value} from the root to every rank; returns it on every rank. */
    @SuppressWarnings("unchecked")
    public <T> T bcastObject(T value, int root) {
        String call = "Comm.bcastObject";
        checkCall(call);
        checkRoot(call, root);
        int[] length = new int[1];
        byte[] bytes = null;
        if (rank == root) {
            bytes = ObjectCodec.encode(value, where(call));
            length[0] = bytes.length;
        }
        collectives().bcast(Buffer.of(length), root);
        if (rank != root) {
            bytes = new byte[length[0]];
        }
        collectives().bcast(Buffer.of(bytes), root);
        return rank == root ? value : (T) ObjectCodec.decode(bytes, where(call));
    }

    /** Every rank's object, in rank order, at the root; null on the other ranks. */
    public <T> java.util.List<T> gatherObject(T value, int root) {
        checkCall("Comm.gatherObject");
        return new ObjectCollectives(this).gather(value, root, "Comm.gatherObject");
    }

    /** Every rank's object, in rank order, on every rank. */
    public <T> java.util.List<T> allgatherObject(T value) {
        checkCall("Comm.allgatherObject");
        return new ObjectCollectives(this).allgather(value, "Comm.allgatherObject");
    }

    /** Element i of the root's list goes to rank i. */
    public <T> T scatterObject(java.util.List<T> values, int root) {
        checkCall("Comm.scatterObject");
        return new ObjectCollectives(this).scatter(values, root, "Comm.scatterObject");
    }

    /** Folds every rank's object in rank order with an associative operator; every rank gets the result. */
    public <T> T allreduceObject(T value, java.util.function.BinaryOperator<T> op) {
        checkCall("Comm.allreduceObject");
        return new ObjectCollectives(this).allreduce(value, op, "Comm.allreduceObject");
    }

    /** Folds every rank's object in rank order at the root (null elsewhere). */
    public <T> T reduceObject(T value, java.util.function.BinaryOperator<T> op, int root) {
        checkCall("Comm.reduceObject");
        return new ObjectCollectives(this).reduce(value, op, root, "Comm.reduceObject");
    }

    private void requireNonNullSend(String call, Buffer send) {
        if (send == null) {
            throw new TesseraException(ErrorClass.BUFFER, where(call) + ": send buffer is null (use the in-place form)");
        }
    }

    // ------------------------------------------------------------------ new communicators

    /**
     * An intercommunicator between this communicator's group and another, disjoint group
     * (MPI_Intercomm_create; collective over this communicator, and over the other group's
     * communicator on the other side). {@code localLeader} is a rank here; at the leader,
     * {@code peer} is a communicator holding both leaders and {@code remoteLeader} the
     * other leader's rank in it, and {@code tag} a tag free on {@code peer} for the leaders'
     * exchange; at the other ranks {@code peer} and {@code remoteLeader} are not used.
     */
    public InterComm createIntercomm(int localLeader, Comm peer, int remoteLeader, int tag) {
        checkCall("Comm.createIntercomm");
        return InterComm.create(this, localLeader, peer, remoteLeader, tag);
    }

    /** False: this is an intracommunicator ({@link InterComm} says true). */
    public boolean isInter() {
        return false;
    }

    /** A communicator with the same group and a new context (collective). */
    public Comm dup() {
        checkCall("Comm.dup");
        return CommCreation.dup(this);
    }

    /**
     * Splits the communicator: ranks passing the same {@code color} form a new communicator,
     * ordered by {@code key} then by rank here. Ranks passing {@link #UNDEFINED} get null (collective).
     */
    public Comm split(int color, int key) {
        checkCall("Comm.split");
        return CommCreation.split(this, color, key);
    }

    /** A communicator of the members of {@code subgroup} (a subset of this group); null on non-members (collective). */
    public Comm create(Group subgroup) {
        checkCall("Comm.create");
        return CommCreation.create(this, subgroup);
    }

    /**
     * A Cartesian communicator of prod(dims) ranks (collective); ranks beyond get null.
     * Ranks are laid out row-major (last dimension fastest); {@code reorder} is accepted
     * and ignored (ranks keep their order).
     */
    public CartComm createCart(int[] dims, boolean[] periods, boolean reorder) {
        checkCall("Comm.createCart");
        return CommCreation.cart(this, dims, periods);
    }

    /**
     * A Cartesian communicator over all ranks of this one in {@code ndims} dimensions, not
     * periodic, with the dimensions balanced as {@link CartComm#dimsCreate} balances them
     * (collective): {@code world.createCart(3)} for a 3D domain decomposition.
     */
    public CartComm createCart(int ndims) {
        return createCart(ndims, false);
    }

    /** As {@link #createCart(int)}, periodic in every dimension when {@code periodic}. */
    public CartComm createCart(int ndims, boolean periodic) {
        checkCall("Comm.createCart");
        if (ndims < 1) {
            throw new TesseraException(ErrorClass.DIMS, where("Comm.createCart") + ": ndims must be at least 1, got " + ndims);
        }
        boolean[] periods = new boolean[ndims];
        java.util.Arrays.fill(periods, periodic);
        return CommCreation.cart(this, CartComm.dimsCreate(size(), new int[ndims]), periods);
    }

    /**
     * The ranks of this communicator that share this rank's node (shared memory), in rank
     * order, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) gives them (collective). Nodes are
     * told apart by name: the host name, or TESSERA_NODE where the launcher set one.
     * For one rank per GPU or one I/O aggregator per node.
     */
    public Comm splitByNode() {
        checkCall("Comm.splitByNode");
        int[] map = nodeMap();
        return split(map[rank], rank);
    }

    /**
     * The node of every rank of this communicator (collective): {@code nodeMap()[r]} is the
     * index of rank r's node, nodes numbered 0, 1, ... in the order of their lowest rank.
     */
    public int[] nodeMap() {
        checkCall("Comm.nodeMap");
        java.util.List<String> names = allgatherObject(env.nodeName);
        int[] map = new int[names.size()];
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int r = 0; r < map.length; r++) {
            map[r] = index.computeIfAbsent(names.get(r), k -> index.size());
        }
        return map;
    }

    // ------------------------------------------------------------------ collective plumbing

    /** The collective engine of this communicator (created on first use). */
    Collectives collectives() {
        Collectives c = collectives;
        if (c == null) {
            synchronized (this) {
                c = collectives;
                if (c == null) {
                    c = new Collectives(this);
                    collectives = c;
                }
            }
        }
        return c;
    }

    /**
     * Collective tags wrap after this many collectives: tags only need to tell apart the
     * collectives in flight at once on one communicator, and small tags travel in the
     * envelope-in-tag form of the mpi device.
     */
    static final int COLLECTIVE_TAG_SPAN = 1 << 20;

    /**
     * The next collective tag: every rank calls collectives in the same order, so tags agree.
     * Drawn when a collective starts: first the previous call's deferred agreement check, if
     * any, is completed (a mismatch there ends the job before this call runs).
     */
    int nextCollectiveTag() {
        return (int) (nextCollectiveIndex(false) & (COLLECTIVE_TAG_SPAN - 1));
    }

    /**
     * The index of the next collective call (0, 1, 2, ... in program order), after completing
     * the previous call's deferred check; {@code flagged}: the call goes through the
     * shared-memory flags of {@link NodeCollectives}, which publishes the index itself; other
     * calls on a communicator with shared-memory collectives announce theirs as unflagged.
     */
    long nextCollectiveIndex(boolean flagged) {
        if (pendingCheck.get() != null) {
            verifyPendingCheck();
        }
        long index;
        if (flagged && env.threadLevel != ThreadLevel.MULTIPLE) {
            // one call at a time (NodeCollectives keeps its own state the same way): no locked instruction, which
            // would first wait for the previous call's stores into shared memory to take their lines from the peers
            index = collectiveSequence.getPlain();
            collectiveSequence.setRelease(index + 1);
        } else {
            index = collectiveSequence.getAndIncrement();
        }
        if (!flagged) {
            NodeCollectives n = node();
            if (n != null) {
                n.announceUnflagged(index);
            }
        }
        return index;
    }

    /**
     * How many collective calls of this rank on this communicator moved their data through
     * the shm device's shared-memory collective path (barrier, bcast, reduce, allreduce,
     * allgather and alltoall whose data fits a slot; see docs/collectives.md); 0 on other
     * devices, with TESSERA_SHM_COLL=off, or for communicators the path does not cover.
     * A diagnostic, for checking that the path is taken.
     */
    public long sharedMemoryCollectiveCalls() {
        NodeCollectives n = node();
        return n == null ? 0 : n.slotCalls();
    }

    /**
     * How many collective calls of this rank on this communicator went between its two ranks as
     * point-to-point messages that the shm device copies once (heap arrays, see
     * docs/performance.md, stop 48) instead of through the shared-memory slots. A diagnostic, for
     * checking that the path is taken.
     */
    public long singleCopyCollectiveCalls() {
        NodeCollectives n = node();
        return n == null ? 0 : n.pairCopyCalls();
    }

    /**
     * The shared-memory collectives of this communicator ({@link NodeCollectives}), or null
     * when the device offers no shared region for it (not the shm or smp device, TESSERA_SHM_COLL=off,
     * a communicator other than the world) or it has one rank.
     */
    NodeCollectives node() {
        Object n = node;
        if (n == null) {
            synchronized (this) {
                n = node;
                if (n == null) {
                    dev.tessera.device.NodeRegion region = size() > 1 ? env.device.nodeRegion(context) : null;
                    n = region != null && region.members() == size() ? new NodeCollectives(this, region) : NO_NODE;
                    node = n;
                }
            }
        }
        return n == NO_NODE ? null : (NodeCollectives) n;
    }

    /**
     * Leaves the comparison of a finished call's agreement check for later: the rank's next
     * collective on this communicator, a blocking wait that does not complete, {@link #free} or
     * the rank's close complete it ({@link CollectiveCheck}).
     */
    void deferCheck(CollectiveCheck check) {
        CollectiveCheck previous = pendingCheck.getAndSet(check);
        if (previous != null) {
            previous.verify(); // not expected: each call completes the previous one's when it starts
        }
        if (!deferredChecks) {
            deferredChecks = true;
            env.checksDeferredOn(this);
        }
    }

    /** Waits for and compares the deferred agreement check, if any (aborting the job on a mismatch). */
    void verifyPendingCheck() {
        CollectiveCheck check = pendingCheck.getAndSet(null);
        if (check != null) {
            check.verify();
        }
        if (node instanceof NodeCollectives n) {
            n.verifyRight(Long.MAX_VALUE);
        }
    }

    /**
     * The shared-memory collectives left a comparison with the right neighbour's slot pending
     * ({@link NodeCollectives#tryVerifyRight}): it is completed, at the latest, a few calls
     * later, and by the same events as a deferred check (a blocking wait, free, close).
     */
    void deferNodeCheck() {
        if (!deferredChecks) {
            deferredChecks = true;
            env.checksDeferredOn(this);
        }
    }

    /** Compares the deferred agreement check if its messages are in, without blocking; true when none is left. */
    boolean tryVerifyPendingCheck() {
        CollectiveCheck check = pendingCheck.get();
        if (node instanceof NodeCollectives n && !n.tryVerifyRight()) {
            return false;
        }
        if (check == null) {
            return true;
        }
        if (check.tryVerify()) {
            pendingCheck.compareAndSet(check, null);
            return true;
        }
        return false;
    }

    /** Context of this communicator's collective traffic. */
    int collectiveContext() {
        return context + 1;
    }

    // ------------------------------------------------------------------ lifecycle

    /** Marks the communicator freed: any later call on it fails with a COMM error. */
    public void free() {
        if (this.context < 4) {
            throw new TesseraException(ErrorClass.COMM, where("Comm.free") + ": the world and self communicators cannot be freed");
        }
        if (freed) {
            throw new TesseraException(ErrorClass.COMM, where("Comm.free") + ": communicator (context " + context
                    + ") freed twice");
        }
        verifyPendingCheck();
        env.checksDone(this);
        freed = true;
    }

    /**
     * Releases the rank's communication resources (threads of nonblocking collectives);
     * called on the world communicator by the runtime when the rank closes.
     */
    void releaseRank() {
        if (context != 0) {
            throw new TesseraException(ErrorClass.COMM, where("Comm.releaseRank") + ": only the world communicator can release the rank");
        }
        env.verifyDeferredChecks();
        NodeCollectives n = node();
        if (n != null) {
            n.announceClosed();
        }
        env.close();
    }

    public boolean isFreed() {
        return freed;
    }

    @Override
    public String toString() {
        return "Comm[rank " + rank + " of " + size() + ", context " + context + ", " + env.device.name() + "]";
    }
}
