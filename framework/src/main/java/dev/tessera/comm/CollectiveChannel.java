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
 * types or roots): that is reported as an error of the collective, naming it.
 */
final class CollectiveChannel {

    private final Comm comm;
    private final Device device;
    private final String call;
    private final int tag;
    private final int context;
    private final Datatype type;

    CollectiveChannel(Comm comm, String call, int tag, Datatype type) {
        this.comm = comm;
        this.device = comm.device();
        this.call = call;
        this.tag = tag;
        this.context = comm.collectiveContext();
        this.type = type;
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
        return device.isend(data, comm.group.worldRank(dest), tag, context, type.code(), false);
    }

    DeviceRequest irecv(MemorySegment into, int source) {
        return device.irecv(into, comm.group.worldRank(source), tag, context, type.code());
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
        device.await(r);
        check(r);
    }

    /** Throws the error of a completed transfer as an error of this collective, naming it. */
    void check(DeviceRequest r) {
        RuntimeException e = r.error();
        if (e != null) {
            ErrorClass cls = e instanceof TesseraException te ? te.errorClass() : ErrorClass.INTERN;
            if (cls == ErrorClass.TRUNCATE || cls == ErrorClass.TYPE) {
                throw new TesseraException(cls, comm.where(call) + ": ranks disagree on the call (rank "
                        + comm.group.rankOf(r.source()) + " sent " + r.byteCount() + " bytes of "
                        + Datatype.ofCode(r.typeCode()) + "): every rank must pass matching counts, types and roots", e);
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
}
