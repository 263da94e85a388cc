package dev.tessera.device.mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.BufferedMessage;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingDevice;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.NativeCollectives;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Tessera over the system's MPI library (Open MPI, MPICH), for clusters whose fastest
 * transport is the site's tuned MPI (UCX, libfabric, PSM underneath).
 *
 * <p>All point-to-point traffic travels on one duplicate of MPI_COMM_WORLD, and matching
 * stays Tessera's own ({@link MatchingEngine}), so contexts, tags, element types, probes,
 * cancellation and truncation behave exactly as on every other device. Protocols:
 * <ul>
 *   <li>eager (standard sends up to {@link #eagerLimit()}): one MPI message. When the
 *       envelope fits in the library's tag range (tags below 2^20, contexts below 128 with
 *       Open MPI's MPI_TAG_UB of 2^31 - 1) it travels in the MPI tag and the message is the
 *       payload alone, as a C code would send it (up to 8 bytes, Open MPI's shared-memory
 *       transport then uses its fastest path); else on tag 0 as a 32-byte header followed
 *       by the payload. The receiver keeps {@value #RING} receives (any source, any tag)
 *       pre-posted into native slots and consumes them in posting order (MPI fills them in
 *       arrival order, so each sender's messages stay in order whatever their form), then
 *       matches the envelope in its engine;</li>
 *   <li>large and synchronous sends: the header alone on tag 0, and the payload as a
 *       second MPI message, on a second duplicate communicator, on a tag private to the
 *       pair (a per-destination sequence). The
 *       receiver posts its receive for that tag only once the header has matched a
 *       Tessera receive, straight into the receive's buffer when it is native memory: MPI's
 *       own rendezvous then moves the data with no copy in Java, and a synchronous send
 *       (MPI_Issend) completes only once the receive has started.</li>
 * </ul>
 * Heap arrays cannot be handed to a nonblocking MPI call (the collector moves them), so
 * large payloads in heap arrays go through pooled native staging buffers ({@link StagingPool}); native
 * {@link MemorySegment}s go straight through. Messages to self never enter MPI.
 *
 * <p>Threads: every MPI call and the device's own queues are serialized by one lock; the
 * library is initialised with MPI_THREAD_MULTIPLE when it offers it (so that native
 * collectives can block without holding that lock), else MPI_THREAD_SERIALIZED, and a
 * library that offers less is refused with an error naming both levels.
 */
public final class MpiDevice extends MatchingDevice {

    /** Default eager limit: payloads up to this size travel inline with their header. */
    public static final long DEFAULT_EAGER_LIMIT = 16 * 1024;

    static final int RING = 32;
    /**
     * Eager messages up to this many bytes with their header go out with a blocking MPI_Send
     * from one reused buffer: far below every MPI library's own eager limit (Open MPI's
     * shared-memory transport: 4 KiB), so the library buffers them and returns at once, and
     * the message costs one MPI call instead of MPI_Isend plus MPI_Test.
     */
    static final int SMALL_SEND = 1024;
    private static final int HEADER = 32;
    private static final int EAGER = 1;
    private static final int LARGE = 2;
    private static final int HEADER_TAG = 0;
    /** Bits of a compact MPI tag that carry the Tessera context (contexts 0..127). */
    private static final int CONTEXT_BITS = 7;
    /** Bits of a compact MPI tag that carry the element type code plus 2 (codes -1..13; never 0). */
    private static final int TYPE_BITS = 4;

    private final MpiLibrary lib;
    private final int rank;
    private final int size;
    private final long eagerLimit;
    private final int dataTagSpan;
    private final boolean multiple;
    private final String grantedLevel;
    /** Serializes MPI calls and the device's queues. */
    private final ReentrantLock mpi = new ReentrantLock();
    /**
     * The device's own native memory (ring slots, requests, communicator handles, scratch),
     * kept until the device is gone. An automatic arena: a downcall acquires and releases
     * the session of every segment it is passed, which for a shared arena is two atomic
     * updates of one counter per segment (six on every poll's MPI_Test), for an automatic
     * one nothing. Large payloads' staging buffers are freed explicitly (StagingPool).
     */
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment traffic;
    /** Second duplicate of MPI_COMM_WORLD for the payloads of large messages (their own tags, never seen by the ring). */
    private final MemorySegment bulk;
    /** Bits of a compact MPI tag that carry the Tessera tag; 0 where the library's tag range is too small for compact tags. */
    private final int tagBits;
    private final MemorySegment scratch;
    private final MemorySegment smallSend;
    private final MemorySegment[] ringSlots = new MemorySegment[RING];
    private final MemorySegment[] ringRequests = new MemorySegment[RING];
    private int ringHead;
    /**
     * Consumed ring slots not yet re-posted, the ones just before {@link #ringHead}: a
     * consumed slot is re-posted at the start of the next poll rather than at once, so the
     * MPI_Irecv stays off the path between a message's arrival and the caller's reply.
     */
    private int unposted;
    private final ArrayDeque<MemorySegment> requestPool = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> eagerPool = new ArrayDeque<>();
    /** Native copies of large heap payloads, reused (guarded by the lock). */
    private final StagingPool stagingPool = new StagingPool();
    private final List<PendingOp> pending = new ArrayList<>();
    private final AtomicIntegerArray nextDataTag;
    private final MpiCollectives collectives;
    private volatile boolean closed;
    /** Set first thing in close(): native collectives that start after it refuse to call MPI. */
    private volatile boolean closing;
    /** Threads inside {@link #await}: close() from a shutdown hook must not finalize MPI under them. */
    private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();
    /** How long close() waits for other threads' MPI calls to return before it gives up finalizing. */
    private static final long CLOSE_WAIT_SECONDS = 2;

    /** An MPI request in flight and what to do when it completes. */
    private record PendingOp(MemorySegment request, Completion onDone) {
    }

    @FunctionalInterface
    private interface Completion {
        void done(int source, int error, long bytes, boolean cancelled);
    }

    private MpiDevice(MpiLibrary lib, int rank, int size, long tagUb, boolean multiple, String grantedLevel,
                      long eagerLimit, JobFailure failure, boolean nativeCollectives) {
        super(new MatchingEngine(), failure, IdleStrategy.backoff());
        this.lib = lib;
        this.rank = rank;
        this.size = size;
        this.multiple = multiple;
        this.grantedLevel = grantedLevel;
        this.eagerLimit = eagerLimit;
        this.dataTagSpan = (int) Math.max(1, Math.min(tagUb, Integer.MAX_VALUE) - 1);
        this.nextDataTag = new AtomicIntegerArray(size);
        this.scratch = arena.allocate(64 + 8L * MpiLibrary.STATUS_WORDS, 8);
        this.traffic = arena.allocate(lib.commSize, 8);
        this.bulk = arena.allocate(lib.commSize, 8);
        int usable = 63 - Long.numberOfLeadingZeros(Math.min(tagUb, Integer.MAX_VALUE) + 1);
        this.tagBits = usable - CONTEXT_BITS - TYPE_BITS >= 8 ? usable - CONTEXT_BITS - TYPE_BITS : 0;
        this.smallSend = arena.allocate(SMALL_SEND, 16);
        call("MPI_Comm_dup", () -> (int) lib.commDupPredefined.invokeExact(0, traffic));
        call("MPI_Comm_dup", () -> (int) lib.commDupPredefined.invokeExact(0, bulk));
        for (int i = 0; i < RING; i++) {
            ringSlots[i] = arena.allocate(HEADER + eagerLimit, 16);
            ringRequests[i] = arena.allocate(lib.requestSize, 8);
            postRing(i);
        }
        this.collectives = nativeCollectives ? new MpiCollectives(this, lib, arena, multiple) : null;
    }

    /**
     * Initialises MPI (MPI_Init_thread) and the device. {@code nativeCollectives} sends the
     * common collectives on primitive buffers with built-in ops to the library's own tuned
     * implementations instead of Tessera's algorithms.
     */
    public static MpiDevice init(JobFailure failure, long eagerLimit, boolean nativeCollectives) {
        MpiLibrary lib = MpiLibrary.load();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment provided = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment rank = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment size = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment tagUb = a.allocate(ValueLayout.JAVA_LONG);
            int rc = (int) lib.init.invokeExact(lib.threadLevels[3], provided, rank, size, tagUb);
            if (rc != 0) {
                throw new TesseraException(ErrorClass.OTHER, "mpi device: MPI_Init_thread failed: " + lib.errorText(rc));
            }
            int granted = provided.get(ValueLayout.JAVA_INT, 0);
            String grantedName = levelName(lib, granted);
            if (granted < lib.threadLevels[2]) {
                lib.finalizeMpi.invokeExact();
                throw new TesseraException(ErrorClass.OTHER, "mpi device: the MPI library (" + lib.libraryVersion()
                        + ") granted " + grantedName + " but Tessera needs MPI_THREAD_SERIALIZED or better (it requested "
                        + "MPI_THREAD_MULTIPLE): progress and nonblocking collectives call MPI from more than one thread."
                        + " Use a library built with thread support, or another device");
            }
            return new MpiDevice(lib, rank.get(ValueLayout.JAVA_INT, 0), size.get(ValueLayout.JAVA_INT, 0),
                    tagUb.get(ValueLayout.JAVA_LONG, 0), granted >= lib.threadLevels[3], grantedName, eagerLimit,
                    failure, nativeCollectives);
        } catch (TesseraException e) {
            throw e;
        } catch (Throwable t) {
            throw new TesseraException(ErrorClass.INTERN, "mpi device: initialisation failed: " + t, t);
        }
    }

    private static String levelName(MpiLibrary lib, int level) {
        String[] names = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};
        for (int k = 0; k < 4; k++) {
            if (lib.threadLevels[k] == level) {
                return names[k];
            }
        }
        return "thread level " + level;
    }

    /** The thread level the library granted. */
    public String threadLevelGranted() {
        return grantedLevel;
    }

    public MpiLibrary library() {
        return lib;
    }

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    @Override
    public NativeCollectives nativeCollectives() {
        return collectives;
    }

    @Override
    public void contextCreated(int context, int[] worldRanks) {
        if (collectives != null) {
            collectives.contextCreated(context, worldRanks);
        }
    }

    // ------------------------------------------------------------------ MPI calls

    @FunctionalInterface
    interface MpiCall {
        int invoke() throws Throwable;
    }

    /** Runs one MPI call under the lock; a failing call aborts nothing but throws naming the call. */
    void call(String what, MpiCall c) {
        mpi.lock();
        try {
            check(what, invoke(c));
        } finally {
            mpi.unlock();
        }
    }

    static int invoke(MpiCall c) {
        try {
            return c.invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    void check(String what, int rc) {
        if (rc != 0) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": " + what + " failed: " + lib.errorText(rc));
        }
    }

    ReentrantLock lock() {
        return mpi;
    }

    private MemorySegment requestSlot() {
        MemorySegment s = requestPool.poll();
        return s != null ? s : arena.allocate(lib.requestSize, 8);
    }

    private MemorySegment eagerSlot() {
        MemorySegment s = eagerPool.poll();
        return s != null ? s : arena.allocate(HEADER + eagerLimit, 16);
    }

    private void postRing(int i) {
        MemorySegment slot = ringSlots[i];
        check("MPI_Irecv", invoke(() -> (int) lib.irecv.invokeExact(slot, slot.byteSize(), lib.anySource, lib.anyTag,
                traffic, ringRequests[i])));
    }

    /**
     * Copies bytes between segments with the element-layout form of MemorySegment.copy. The
     * plain form copies payloads under 64 bytes with a Java loop (JDK 25), which on this
     * device's paths, between MPI downcalls, measured about 0.1 us per copy more than the
     * intrinsic copy (8 B ping-pong 1.1-1.3 us, 0.77-0.8 us with this); the same copy in a
     * microbenchmark, or on the shm device, shows no difference.
     */
    private static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long n) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, n);
    }

    /**
     * The MPI tag that carries a small message's whole envelope, so that the message is its
     * payload alone: (type code + 2, context, tag) packed into the library's tag range, never
     * 0 (the tag of messages with a header). Returns 0 when the envelope does not fit: a tag
     * or context too large, or a library whose tag range is too small.
     */
    private int compactTag(int tag, int context, int typeCode) {
        if (tagBits == 0 || tag >>> tagBits != 0 || context >>> CONTEXT_BITS != 0 || typeCode < -1
                || typeCode > (1 << TYPE_BITS) - 3) {
            return 0;
        }
        return ((typeCode + 2) << (tagBits + CONTEXT_BITS)) | (context << tagBits) | tag;
    }

    private static void header(MemorySegment h, int kind, int tag, int context, int typeCode, long bytes, int dataTag) {
        h.set(ValueLayout.JAVA_INT, 0, kind);
        h.set(ValueLayout.JAVA_INT, 4, tag);
        h.set(ValueLayout.JAVA_INT, 8, context);
        h.set(ValueLayout.JAVA_INT, 12, typeCode);
        h.set(ValueLayout.JAVA_LONG, 16, bytes);
        h.set(ValueLayout.JAVA_INT, 24, dataTag);
    }

    /** Starts an MPI send of {@code bytes} at {@code buf}; {@code onDone} runs (under the lock) when it completes. */
    private void startSend(MemorySegment buf, long bytes, int dest, int tag, MemorySegment comm, boolean sync,
                           Completion onDone) {
        MemorySegment req = requestSlot();
        int s = sync ? 1 : 0;
        check(sync ? "MPI_Issend" : "MPI_Isend",
                invoke(() -> (int) lib.isend.invokeExact(buf, bytes, dest, tag, comm, s, req)));
        pollOrQueue(new PendingOp(req, onDone));
    }

    private void startRecv(MemorySegment buf, long bytes, int source, int tag, Completion onDone) {
        MemorySegment req = requestSlot();
        check("MPI_Irecv", invoke(() -> (int) lib.irecv.invokeExact(buf, bytes, source, tag, bulk, req)));
        pollOrQueue(new PendingOp(req, onDone));
    }

    private void pollOrQueue(PendingOp op) {
        if (!testOp(op)) {
            pending.add(op);
        }
    }

    /** Tests one request; on completion runs its action and recycles the handle slot. Caller holds the lock. */
    private boolean testOp(PendingOp op) {
        MemorySegment flag = scratch;
        MemorySegment status = scratch.asSlice(8);
        MemorySegment req = op.request();
        check("MPI_Test", invoke(() -> (int) lib.test.invokeExact(req, flag, status)));
        if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
            return false;
        }
        requestPool.push(req);
        op.onDone().done((int) status.getAtIndex(ValueLayout.JAVA_LONG, 0), (int) status.getAtIndex(ValueLayout.JAVA_LONG, 2),
                status.getAtIndex(ValueLayout.JAVA_LONG, 4), status.getAtIndex(ValueLayout.JAVA_LONG, 3) != 0);
        return true;
    }

    // ------------------------------------------------------------------ sending

    @Override
    public DeviceRequest isend(MemorySegment buffer, int dest, int tag, int context, int typeCode, boolean synchronous) {
        failure.check();
        DeviceRequest send = new DeviceRequest(DeviceRequest.Kind.SEND);
        long n = buffer.byteSize();
        boolean eager = !synchronous && n <= eagerLimit;
        if (dest == rank) {
            return deliverLocally(engine, buffer, new Envelope(rank, tag, context, n, typeCode), eager, send);
        }
        mpi.lock();
        try {
            checkOpen();
            int compact = eager ? compactTag(tag, context, typeCode) : 0;
            if (compact != 0 && n <= SMALL_SEND) {
                // the payload alone, its envelope in the MPI tag: what a C code sends, and for
                // up to 8 bytes Open MPI's fastest shared-memory path
                MemorySegment src = buffer;
                if (!buffer.isNative() || n == 0) {
                    src = smallSend;
                    if (n > 0) {
                        copy(buffer, 0, src, 0, n);
                    }
                }
                MemorySegment from = src;
                int rc = invoke(() -> (int) lib.send.invokeExact(from, n, dest, compact, traffic));
                completeSend(send, rc, dest);
            } else if (compact != 0) {
                MemorySegment slot = eagerSlot();
                MemorySegment.copy(buffer, 0, slot, 0, n);
                startSend(slot, n, dest, compact, traffic, false, (src, err, bytes, cancelled) -> {
                    eagerPool.push(slot);
                    completeSend(send, err, dest);
                });
            } else if (eager && HEADER + n <= SMALL_SEND) {
                MemorySegment slot = smallSend;
                header(slot, EAGER, tag, context, typeCode, n, 0);
                if (n > 0) {
                    copy(buffer, 0, slot, HEADER, n);
                }
                long bytes = HEADER + n;
                int rc = invoke(() -> (int) lib.send.invokeExact(slot, bytes, dest, HEADER_TAG, traffic));
                completeSend(send, rc, dest);
            } else if (eager) {
                MemorySegment slot = eagerSlot();
                header(slot, EAGER, tag, context, typeCode, n, 0);
                if (n > 0) {
                    MemorySegment.copy(buffer, 0, slot, HEADER, n);
                }
                startSend(slot, HEADER + n, dest, HEADER_TAG, traffic, false, (src, err, bytes, cancelled) -> {
                    eagerPool.push(slot);
                    completeSend(send, err, dest);
                });
            } else {
                int dataTag = 1 + (int) Integer.toUnsignedLong(nextDataTag.getAndIncrement(dest)) % dataTagSpan;
                MemorySegment slot = eagerSlot();
                header(slot, LARGE, tag, context, typeCode, n, dataTag);
                startSend(slot, HEADER, dest, HEADER_TAG, traffic, false, (src, err, bytes, cancelled) -> eagerPool.push(slot));
                MemorySegment payload = buffer;
                MemorySegment staging = null;
                if (!buffer.isNative() && n > 0) {
                    staging = stagingPool.take(n);
                    payload = staging.asSlice(0, n);
                    MemorySegment.copy(buffer, 0, payload, 0, n);
                }
                MemorySegment release = staging;
                startSend(n == 0 ? MemorySegment.NULL : payload, n, dest, dataTag, bulk, synchronous,
                        (src, err, bytes, cancelled) -> {
                            if (release != null) {
                                stagingPool.give(release);
                            }
                            completeSend(send, err, dest);
                        });
            }
        } finally {
            mpi.unlock();
        }
        return send;
    }

    private void completeSend(DeviceRequest send, int err, int dest) {
        if (err != 0) {
            send.complete(dest, 0, 0, 0, new TesseraException(ErrorClass.OTHER, "send to rank " + dest + " failed: "
                    + lib.errorText(err)));
        } else {
            send.completeSend();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": the mpi device is closed (MPI_Finalize was called)");
        }
    }

    // ------------------------------------------------------------------ receiving

    @Override
    public boolean progress() {
        return progress(null);
    }

    /**
     * One poll: consumes completed ring receives (stopping as soon as {@code until}, if
     * given, completes: the waiter returns without one more MPI_Test on its path), then
     * tests the other requests in flight.
     */
    private boolean progress(DeviceRequest until) {
        if (closed || !mpi.tryLock()) {
            return false;
        }
        try {
            boolean any = false;
            repostRing();
            while (testRingHead()) {
                any = true;
                if (until != null && until.isComplete()) {
                    return true;
                }
                if (unposted >= RING / 2) {
                    repostRing();
                }
            }
            for (int i = 0; i < pending.size(); ) {
                if (testOp(pending.get(i))) {
                    pending.remove(i);
                    any = true;
                } else {
                    i++;
                }
            }
            return any;
        } finally {
            mpi.unlock();
        }
    }

    /** Consumes the oldest pre-posted header receive if it has completed; caller holds the lock. */
    private boolean testRingHead() {
        int i = ringHead;
        MemorySegment flag = scratch;
        MemorySegment status = scratch.asSlice(8);
        MemorySegment req = ringRequests[i];
        check("MPI_Test", invoke(() -> (int) lib.test.invokeExact(req, flag, status)));
        if (flag.get(ValueLayout.JAVA_INT, 0) == 0) {
            return false;
        }
        int source = (int) status.getAtIndex(ValueLayout.JAVA_LONG, 0);
        int err = (int) status.getAtIndex(ValueLayout.JAVA_LONG, 2);
        ringHead = (i + 1) % RING;
        unposted++;
        if (err != 0) {
            failure.report(rank, new TesseraException(ErrorClass.OTHER, "receiving a message header from rank " + source
                    + " failed: " + lib.errorText(err)));
            return false;
        }
        MemorySegment slot = ringSlots[i];
        int mpiTag = (int) status.getAtIndex(ValueLayout.JAVA_LONG, 1);
        if (mpiTag != HEADER_TAG) {
            // a compact message: the payload alone, the envelope in the tag
            int mask = (1 << tagBits) - 1;
            Envelope env = new Envelope(source, mpiTag & mask, (mpiTag >>> tagBits) & ((1 << CONTEXT_BITS) - 1),
                    status.getAtIndex(ValueLayout.JAVA_LONG, 4), (mpiTag >>> (tagBits + CONTEXT_BITS)) - 2);
            MemorySegment payload = slot.asSlice(0, env.byteCount());
            ReceiveRequest r = engine.arrive(env, () -> BufferedMessage.copyOf(env, payload));
            if (r != null) {
                r.accept(env, (dst, n) -> copy(payload, 0, dst, 0, n));
            }
            return true;
        }
        int kind = slot.get(ValueLayout.JAVA_INT, 0);
        Envelope env = new Envelope(source, slot.get(ValueLayout.JAVA_INT, 4), slot.get(ValueLayout.JAVA_INT, 8),
                slot.get(ValueLayout.JAVA_LONG, 16), slot.get(ValueLayout.JAVA_INT, 12));
        if (kind == EAGER) {
            MemorySegment payload = slot.asSlice(HEADER, env.byteCount());
            ReceiveRequest r = engine.arrive(env, () -> BufferedMessage.copyOf(env, payload));
            if (r != null) {
                r.accept(env, (dst, n) -> copy(payload, 0, dst, 0, n));
            }
        } else {
            RemotePayload m = new RemotePayload(env, slot.get(ValueLayout.JAVA_INT, 24));
            ReceiveRequest r = engine.arrive(m);
            if (r != null) {
                m.deliverLocked(r);
            }
        }
        return true;
    }

    /** Re-posts the consumed ring slots, oldest first (so MPI fills the ring in order); caller holds the lock. */
    private void repostRing() {
        while (unposted > 0) {
            postRing(Math.floorMod(ringHead - unposted, RING));
            unposted--;
        }
    }

    /** A large or synchronous message whose payload waits in MPI on its own tag until a receive matches. */
    private final class RemotePayload extends IncomingMessage {
        private final int dataTag;

        RemotePayload(Envelope env, int dataTag) {
            super(env);
            this.dataTag = dataTag;
        }

        @Override
        public void deliver(ReceiveRequest receive) {
            mpi.lock();
            try {
                deliverLocked(receive);
            } finally {
                mpi.unlock();
            }
        }

        /**
         * Posts the MPI receive of the payload: straight into the receive's own buffer when
         * it is native and takes the whole message, else into native staging copied out on
         * completion. The whole payload is always received (MPI's truncation handling is not
         * relied on: some transports write past a short buffer); the Tessera receive then
         * takes what it accepts and completes with its own truncation or type error.
         */
        void deliverLocked(ReceiveRequest receive) {
            long n = envelope.byteCount();
            MemorySegment dst = receive.buffer();
            boolean direct = dst.isNative() && receive.acceptableBytes(envelope) == n;
            MemorySegment staging = direct || n == 0 ? null : stagingPool.take(n);
            MemorySegment into = n == 0 ? MemorySegment.NULL : direct ? dst.asSlice(0, n) : staging.asSlice(0, n);
            startRecv(into, n, envelope.source(), dataTag, (src, err, bytes, cancelled) -> {
                if (err != 0) {
                    receive.complete(envelope.source(), envelope.tag(), 0, envelope.typeCode(), new TesseraException(
                            ErrorClass.OTHER, "receiving from rank " + envelope.source() + " failed: " + lib.errorText(err)));
                } else {
                    receive.accept(envelope, (d, k) -> {
                        if (!direct) {
                            MemorySegment.copy(into, 0, d, 0, k);
                        }
                    });
                }
                if (staging != null) {
                    stagingPool.give(staging);
                }
            });
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            throw new IllegalStateException("the payload of a large message is received from MPI on its own tag");
        }
    }

    @Override
    public void await(DeviceRequest request) {
        if (request.isComplete()) {
            return;
        }
        waiting.incrementAndGet();
        dev.tessera.device.BlockedCalls.Wait blocked = dev.tessera.device.BlockedCalls.enter(this, request);
        try {
            int idleCount = 0;
            while (!request.isComplete()) {
                if (progress(request)) {
                    idleCount = 0;
                    continue;
                }
                failure.check();
                checkOpen();
                idle.idle(Math.min(idleCount++, 2_100));
            }
        } finally {
            dev.tessera.device.BlockedCalls.exit(blocked);
            waiting.decrementAndGet();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void abort(int failedRank, Throwable cause) {
        super.abort(failedRank, cause);
        if (!closed) {
            System.out.flush();
            JobFailure.Origin origin = failure.origin();
            System.err.println("tessera: rank " + rank + ": aborting the MPI job: rank " + origin.rank() + " failed: "
                    + origin.reason());
            System.err.flush();
            // MPI_Abort kills every rank, and MPICH's launcher then drops what it has not read
            // from the ranks' pipes yet: wait (bounded) until it has read the line above
            dev.tessera.device.Posix.drain(1, 2000);
            dev.tessera.device.Posix.drain(2, 2000);
            try {
                int rc = (int) lib.abort.invokeExact(1);
            } catch (Throwable ignored) {
                // MPI_Abort does not return; if it does, the caller exits anyway
            }
        }
    }

    /**
     * MPI_Finalize, after cancelling receives that can never be satisfied (the pre-posted
     * header receives and any posted Tessera receives) and waiting (bounded) for sends in
     * flight, since finalizing with pending requests is erroneous in MPI.
     */
    @Override
    public void close() {
        closing = true;
        boolean locked;
        try {
            // Bounded: on SIGTERM the shutdown hook gets here while the main thread may be
            // blocked in MPI (locked, or in a native collective) waiting for a peer that is
            // being killed too.
            locked = mpi.tryLock(CLOSE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            locked = false;
        }
        try {
            if (closed) {
                return;
            }
            long waitUntil = System.nanoTime() + CLOSE_WAIT_SECONDS * 1_000_000_000L;
            while (collectives != null && collectives.inFlight() > 0 && System.nanoTime() < waitUntil) {
                Thread.onSpinWait();
            }
            if (!locked || (collectives != null && collectives.inFlight() > 0) || waiting.get() > 0) {
                // MPI_Finalize now would free what that call is using (a SIGSEGV and an
                // hs_err file), or, with a thread still waiting for a message (a signal ended
                // the process mid-job), wait for the other ranks to finalize too, for ever;
                // the process is ending, so leave MPI to the launcher.
                closed = true;
                System.err.println("tessera: rank " + rank + ": MPI_Finalize skipped: another thread is still inside an MPI call"
                        + " or waiting for a message");
                System.err.flush();
                return;
            }
            repostRing(); // every slot posted: each is cancelled and completed below
            for (int i = 0; i < RING; i++) {
                MemorySegment req = ringRequests[i];
                invoke(() -> (int) lib.cancel.invokeExact(req));
                pending.add(new PendingOp(req, (src, err, bytes, cancelled) -> { }));
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!pending.isEmpty() && System.nanoTime() < deadline && !failure.hasFailed()) {
                pending.removeIf(this::testOp);
                Thread.onSpinWait();
            }
            closed = true;
            if (collectives != null) {
                collectives.free();
            }
            invoke(() -> (int) lib.commFree.invokeExact(traffic));
            invoke(() -> (int) lib.commFree.invokeExact(bulk));
            invoke(() -> (int) lib.finalizeMpi.invokeExact());
            stagingPool.clear(); // buffers of requests still in flight after the deadline are left alone
        } finally {
            if (locked) {
                mpi.unlock();
            }
        }
    }

    /** Throws if the device is closing: no new MPI call may start under MPI_Finalize. */
    void checkNotClosing() {
        if (closing) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": the mpi device is closing (MPI_Finalize)");
        }
    }

    /** Processor name, as MPI_Get_processor_name reports it. */
    public String processorName() {
        return lib.processorName();
    }

    @Override
    public String toString() {
        return "mpi device, rank " + rank + " of " + size + ", " + lib.libraryVersion() + ", " + grantedLevel
                + (collectives != null ? ", native collectives" : "");
    }

    boolean isMultiple() {
        return multiple;
    }
}
