package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/**
 * The device SPI (in the spirit of FastMPJ's xxdev): moves bytes between the ranks of one
 * job. Ranks are world ranks; contexts separate communicators (and each communicator's
 * point-to-point traffic from its collective traffic). Buffers are {@link MemorySegment}s,
 * heap or native; a device never needs an intermediate buffer for primitive arrays.
 *
 * <p>Every method is thread-safe: the comm layer enforces the user's thread level, and
 * runs nonblocking collectives on helper threads, so devices must accept concurrent calls.
 */
public interface Device extends AutoCloseable {

    /** Matches any source rank in receives and probes. */
    int ANY_SOURCE = -1;
    /** Matches any tag in receives and probes. */
    int ANY_TAG = -1;

    /** Short name: smp, shm, tcp, auto, mpi. */
    String name();

    /** This rank in the job (world rank). */
    int rank();

    /** Number of ranks in the job. */
    int size();

    /** Largest payload sent eagerly (buffered) by a standard-mode send. */
    long eagerLimit();

    /**
     * Starts a send. A synchronous send completes only once the matching receive has
     * started; a standard send may complete as soon as the payload is buffered.
     */
    DeviceRequest isend(MemorySegment buffer, int dest, int tag, int context, int typeCode, boolean synchronous);

    /** Starts a receive into {@code buffer} for a message matching (source, tag, context). */
    ReceiveRequest irecv(MemorySegment buffer, int source, int tag, int context, int typeCode);

    /** The envelope of a matching message that has arrived and not been received, or null. */
    Envelope iprobe(int source, int tag, int context);

    /**
     * Matched probe: removes a matching arrived message so that no other receive can take
     * it, or returns null. Receive it with {@link #mrecv}.
     */
    IncomingMessage improbe(int source, int tag, int context);

    /** Receives a message taken by {@link #improbe}. */
    default ReceiveRequest mrecv(IncomingMessage message, MemorySegment buffer, int typeCode) {
        Envelope e = message.envelope();
        ReceiveRequest r = new ReceiveRequest(buffer, e.source(), e.tag(), e.context(), typeCode);
        message.deliver(r);
        return r;
    }

    /**
     * Called by every member of a new communicator, in the same order on each, once they
     * have agreed on its context; {@code worldRanks} lists the members in rank order.
     * Devices that mirror communicators in a library (the mpi device's native collectives)
     * create theirs here; the others ignore it.
     */
    default void contextCreated(int context, int[] worldRanks) {
    }

    /**
     * Shared memory for the shared-memory collectives of the communicator with point-to-point
     * context {@code context}, or null when the device offers none for it (then the comm layer
     * runs its point-to-point algorithms). The shm and smp devices offer one for the world
     * communicator unless TESSERA_SHM_COLL=off or TESSERA_SMP_COLL=off.
     */
    default NodeRegion nodeRegion(int context) {
        return null;
    }

    /** The library collectives this device offers, or null (Tessera's own algorithms run). */
    default NativeCollectives nativeCollectives() {
        return null;
    }

    /** Tries to cancel a pending operation; true if it was cancelled (it then completes as such). */
    boolean cancel(DeviceRequest request);

    /** Advances pending communication; true if anything happened. Devices driven by other threads return false. */
    boolean progress();

    /** Blocks until the request completes, driving progress; throws if the job has failed. */
    void await(DeviceRequest request);

    /** Throws the job's failure, if a rank has failed or the job was aborted. */
    void checkHealthy();

    /**
     * Tears the job down: every rank blocked in a call wakes with an error naming the cause.
     * If the job had already failed, the notice sent to the peers names that first failure
     * ({@link #failureOrigin()}), not {@code failedRank}: a rank that stops because another
     * failed only relays the origin.
     */
    void abort(int failedRank, Throwable cause);

    /** The rank that failed first and why; null while the job is healthy. */
    default JobFailure.Origin failureOrigin() {
        return null;
    }

    /** Releases the device's resources; pending operations are abandoned. */
    @Override
    void close();
}
