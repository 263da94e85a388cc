package dev.tessera.comm;

/**
 * What a completed receive (or a probe) reports: the source rank in the communicator, the
 * tag, the number of elements of the receive's type, the payload size in bytes, and
 * whether the operation was cancelled.
 */
public record Status(int source, int tag, int count, long byteCount, boolean cancelled) {

    /** Status of an operation that moved nothing (sends, PROC_NULL receives). */
    static final Status EMPTY = new Status(Comm.PROC_NULL, Comm.ANY_TAG, 0, 0, false);

    /** Number of elements of {@code type} the message holds. */
    public int count(Datatype type) {
        return (int) (byteCount / type.byteSize());
    }
}
