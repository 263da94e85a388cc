package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.Device;
import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;

/**
 * Point-to-point on a communicator's collective context, for one collective call: the
 * algorithms send raw segments to communicator ranks under the call's tag. A receive that
 * completes with an error means the ranks disagree about the call (different counts,
 * types or roots): that is reported as an error of the collective, naming it, and ends the
 * job. The channel also runs the call's agreement check ({@link CollectiveCheck}), by a
 * signature exchange or by a header on each message ("framed").
 */
final class CollectiveChannel {

    private final Comm comm;
    private final Device device;
    private final String call;
    private final int tag;
    private final int context;
    private final Datatype type;
    /** The agreement check of this call, or null when off (or on one rank). */
    private final CollectiveCheck check;

    /** The signature every message of this call carries (framed mode), or null. */
    private final CollectiveCheck.Signature frame;
    /** Framed mode: the receive scratch (header + payload) and the caller's target of each posted receive. */
    private java.util.IdentityHashMap<DeviceRequest, MemorySegment[]> framedReceives;

    /**
     * A channel for one call. With a signature and the check on, the ranks' agreement is
     * checked ({@link CollectiveCheck}): by a signature exchange with ring neighbours, or,
     * {@code framed}, by a header on every message of the call (for algorithms whose exchange
     * pattern reaches every rank whatever the arguments).
     */
    CollectiveChannel(Comm comm, String call, int tag, Datatype type, CollectiveCheck.Signature signature, boolean framed) {
        this(comm, call, tag, type, checked(comm, signature) && !framed ? new CollectiveCheck(comm, tag, signature) : null,
                checked(comm, signature) && framed ? signature : null);
    }

    /** A channel whose agreement check (or none: null) the caller made: the shared-memory slot check. */
    CollectiveChannel(Comm comm, String call, int tag, Datatype type, CollectiveCheck check) {
        this(comm, call, tag, type, check, null);
    }

    private CollectiveChannel(Comm comm, String call, int tag, Datatype type, CollectiveCheck check,
                              CollectiveCheck.Signature frame) {
        this.comm = comm;
        this.device = comm.device();
        this.call = call;
        this.tag = tag;
        this.context = comm.collectiveContext();
        this.type = type;
        this.frame = frame;
        this.check = check;
    }

    private static boolean checked(Comm comm, CollectiveCheck.Signature signature) {
        return signature != null && comm.size() > 1 && CollectiveCheck.enabled(comm.env.tuning);
    }

    /**
     * Ends the call's agreement check at the end of a call that ran Tessera's own algorithm:
     * compares at once if the neighbour's signature is in, else leaves the comparison pending
     * on the communicator ({@link Comm#deferCheck}), to be made at the latest when the rank
     * next starts a collective on it, blocks in a wait that does not complete, frees it or
     * closes (see {@link CollectiveCheck}). The call itself has completed all its transfers,
     * so it cannot hang on a mismatch; not waiting here saves the neighbour's latency.
     */
    void finish() {
        if (check != null && !check.tryVerify()) {
            comm.deferCheck(check);
        }
    }

    /**
     * Ends the call's agreement check before handing the call to a library's own collective,
     * which could hang on a mismatch: waits for the neighbour's signature and compares
     * (aborting the job on a mismatch).
     */
    void finishBeforeLibrary() {
        if (check != null) {
            check.verify();
        }
    }

    /** Compares signatures if the neighbour's has arrived, without blocking; true once compared. */
    boolean tryFinish() {
        return check == null || check.tryVerify();
    }

    int rank() {
        return comm.rank();
    }

    int size() {
        return comm.size();
    }

    Datatype type() {
        return type;
    }

    String call() {
        return call;
    }

    DeviceRequest isend(MemorySegment data, int dest) {
        if (frame != null) {
            MemorySegment framed = scratch(CollectiveCheck.BYTES + data.byteSize());
            frame.write(framed);
            MemorySegment.copy(data, 0, framed, CollectiveCheck.BYTES, data.byteSize());
            data = framed;
        }
        return device.isend(data, comm.group.worldRank(dest), tag, context, type.code(), false);
    }

    DeviceRequest irecv(MemorySegment into, int source) {
        if (frame != null) {
            MemorySegment framed = scratch(CollectiveCheck.BYTES + into.byteSize());
            DeviceRequest r = device.irecv(framed, comm.group.worldRank(source), tag, context, type.code());
            if (framedReceives == null) {
                framedReceives = new java.util.IdentityHashMap<>();
            }
            framedReceives.put(r, new MemorySegment[] {framed, into});
            return r;
        }
        return device.irecv(into, comm.group.worldRank(source), tag, context, type.code());
    }

    /** Whether this call's messages carry its signature. */
    boolean framed() {
        return frame != null;
    }

    /** Framed mode: compares a completed receive's header and size with this rank's, then unpacks its payload. */
    private void unframe(DeviceRequest r, MemorySegment[] framedAndTarget) {
        MemorySegment framed = framedAndTarget[0];
        MemorySegment into = framedAndTarget[1];
        int peer = comm.group.rankOf(r.source());
        RuntimeException e = r.error();
        if (e instanceof TesseraException te && te.errorClass() == ErrorClass.TYPE) {
            throw CollectiveCheck.mismatch(comm, frame, peer, new CollectiveCheck.Signature(frame.call(), r.typeCode(),
                    frame.count(), frame.root(), frame.op()));
        }
        if (e != null && !(e instanceof TesseraException te && te.errorClass() == ErrorClass.TRUNCATE)) {
            return; // reported by check()
        }
        CollectiveCheck.Signature other = r.byteCount() >= CollectiveCheck.BYTES ? CollectiveCheck.Signature.read(framed) : null;
        if (other == null || frame.difference(other) != null || r.byteCount() != framed.byteSize()) {
            throw CollectiveCheck.mismatch(comm, frame, peer, other);
        }
        MemorySegment.copy(framed, CollectiveCheck.BYTES, into, 0, into.byteSize());
    }

    void send(MemorySegment data, int dest) {
        await(isend(data, dest));
    }

    void recv(MemorySegment into, int source) {
        await(irecv(into, source));
    }

    /** Exchanges with two peers at once (either may equal the other). */
    void sendrecv(MemorySegment data, int dest, MemorySegment into, int source) {
        DeviceRequest r = irecv(into, source);
        DeviceRequest s = isend(data, dest);
        await(s);
        await(r);
    }

    void await(DeviceRequest r) {
        if (check != null && !r.isComplete()) {
            check.verify(); // before blocking: a mismatch may mean r never completes
        }
        if (!r.isComplete()) {
            comm.env.awaitWithDeferredChecks(r); // or a mismatch of an earlier call on another communicator
        }
        device.await(r);
        check(r);
    }

    /** Throws the error of a completed transfer as an error of this collective, naming it. */
    void check(DeviceRequest r) {
        MemorySegment[] framed = framedReceives == null ? null : framedReceives.remove(r);
        if (framed != null) {
            unframe(r, framed);
        }
        RuntimeException e = r.error();
        if (e != null) {
            ErrorClass cls = e instanceof TesseraException te ? te.errorClass() : ErrorClass.INTERN;
            if (cls == ErrorClass.TRUNCATE || cls == ErrorClass.TYPE) {
                if (check != null) {
                    check.tryVerify(); // the signatures name the disagreement better, once they are in
                }
                // the sender's call is not known here, only what arrived; its signature names it,
                // but it may reach another rank (the sender's ring neighbour) after this one failed
                TesseraException mismatch = new TesseraException(cls, comm.where(call)
                        + ": ranks disagree on the collective call: rank " + comm.group.rankOf(r.source()) + " sent "
                        + r.byteCount() + " bytes of " + Datatype.ofCode(r.typeCode()) + " where rank " + comm.rank()
                        + " expected its part of " + call + " (every rank must make the same collective calls in the "
                        + "same order, with the same count, element type, root and operation)", e);
                // fatal, as a signature mismatch is: other ranks may wait for transfers this one will not make
                device.abort(comm.group.worldRank(comm.rank()), mismatch);
                throw mismatch;
            }
            throw new TesseraException(cls, comm.where(call) + ": " + e.getMessage(), e);
        }
    }

    void awaitAll(DeviceRequest... requests) {
        for (DeviceRequest r : requests) {
            if (r != null) {
                await(r);
            }
        }
    }

    /** A scratch segment of {@code bytes} bytes (heap: reduction kernels read it with unaligned layouts). */
    static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
    }

    /** Largest scratch a thread keeps between calls ({@link #reusedScratch}). */
    static final int REUSED_SCRATCH_MAX = 8 << 20;
    private static final ThreadLocal<byte[]> REUSED = new ThreadLocal<>();

    /**
     * A scratch segment of {@code bytes} bytes that this thread reuses from call to call (up to
     * {@link #REUSED_SCRATCH_MAX}; larger ones are new), for a blocking algorithm that holds one
     * scratch for the length of the call and calls nothing else that takes this one: a new array
     * each call cost its zeroing (an smp allreduce of 256 KiB spent a fifth of its time in it).
     * Its contents are whatever the last call left.
     */
    static MemorySegment reusedScratch(long bytes) {
        if (bytes > REUSED_SCRATCH_MAX) {
            return scratch(bytes);
        }
        byte[] b = REUSED.get();
        if (b == null || b.length < bytes) {
            b = new byte[Math.toIntExact(bytes)];
            REUSED.set(b);
        }
        return MemorySegment.ofArray(b).asSlice(0, bytes);
    }
}
