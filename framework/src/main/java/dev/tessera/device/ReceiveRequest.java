package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A posted receive: the buffer and the (source, tag, context) pattern it matches. Also a
 * node of the matching engine's posted-receive list (intrusive links, so removal from the
 * middle of the queue is O(1)).
 */
public final class ReceiveRequest extends DeviceRequest {

    /** Type code that matches any sender type (raw bytes). */
    public static final int ANY_TYPE = -1;

    final MemorySegment buffer;
    final int source;
    final int tag;
    final int context;
    final int typeCode;

    // Intrusive list links, guarded by the matching engine's lock.
    ReceiveRequest prev;
    ReceiveRequest next;
    boolean queued;

    public ReceiveRequest(MemorySegment buffer, int source, int tag, int context, int typeCode) {
        super(Kind.RECEIVE);
        this.buffer = buffer;
        this.source = source;
        this.tag = tag;
        this.context = context;
        this.typeCode = typeCode;
    }

    public MemorySegment buffer() {
        return buffer;
    }

    boolean matches(int msgSource, int msgTag) {
        return (source == Device.ANY_SOURCE || source == msgSource)
                && (tag == Device.ANY_TAG || tag == msgTag);
    }

    /**
     * Accepts a matched message: checks its type and size against this receive, lets
     * {@code payload} copy what fits, and completes. Truncation copies the prefix that fits
     * and completes with {@link ErrorClass#TRUNCATE}; a type mismatch copies nothing and
     * completes with {@link ErrorClass#TYPE}. The comm layer turns these into messages that
     * name the rank and call.
     */
    public void accept(Envelope env, PayloadCopier payload) {
        long n = acceptableBytes(env.typeCode(), env.byteCount());
        if (n > 0) {
            payload.copyTo(buffer, n);
        }
        complete(env.source(), env.tag(), env.byteCount(), env.typeCode(), acceptError(env.typeCode(), env.byteCount()));
    }

    /**
     * As {@link #accept(Envelope, PayloadCopier)} for a payload that lies at {@code offset} of
     * {@code from} (a ring slot or cell): the small-message paths, with no envelope object and
     * no copier.
     */
    public void accept(int msgSource, int msgTag, long byteCount, int msgType, MemorySegment from, long offset) {
        copyFrom(msgType, byteCount, from, offset);
        complete(msgSource, msgTag, byteCount, msgType, acceptError(msgType, byteCount));
    }

    /**
     * As {@link #accept(int, int, long, int, MemorySegment, long)} for a receive that no other
     * thread has seen yet (matched inside the engine call that posts it): completes without an
     * atomic ({@link DeviceRequest#completeUnpublished}).
     */
    void acceptUnpublished(int msgSource, int msgTag, long byteCount, int msgType, MemorySegment from, long offset) {
        copyFromRing(msgType, byteCount, from, offset);
        completeUnpublished(msgSource, msgTag, byteCount, msgType, acceptError(msgType, byteCount));
    }

    /**
     * As {@link #accept(int, int, long, int, MemorySegment, long)} for a message in an smp ring's
     * slot ({@link MatchingEngine#arriveSmall}).
     */
    void acceptFromRing(int msgSource, int msgTag, long byteCount, int msgType, MemorySegment from, long offset) {
        copyFromRing(msgType, byteCount, from, offset);
        complete(msgSource, msgTag, byteCount, msgType, acceptError(msgType, byteCount));
    }

    private void copyFrom(int msgType, long byteCount, MemorySegment from, long offset) {
        long n = acceptableBytes(msgType, byteCount);
        if (n > 0) {
            MemorySegment.copy(from, offset, buffer, 0, n);
        }
    }

    /**
     * {@link #copyFrom} for the smp ring: 8 bytes as one long. MemorySegment.copy's checks and loop
     * took about a sixth of the smp receiver's time in an 8-byte message-rate run (stop 72). Kept
     * apart from {@link #copyFrom}, which the shm device's lane uses: with the long in the shared
     * method the 2-rank shm reduce of 128-256 B was slow in more rounds (stop 72).
     */
    private void copyFromRing(int msgType, long byteCount, MemorySegment from, long offset) {
        long n = acceptableBytes(msgType, byteCount);
        if (n == Long.BYTES) {
            buffer.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, from.get(ValueLayout.JAVA_LONG_UNALIGNED, offset));
        } else if (n > 0) {
            MemorySegment.copy(from, offset, buffer, 0, n);
        }
    }

    /**
     * How many bytes of a message with this envelope {@link #accept} will copy: none on a
     * type mismatch, else as many as fit. For devices that stream a payload in pieces.
     */
    public long acceptableBytes(Envelope env) {
        return acceptableBytes(env.typeCode(), env.byteCount());
    }

    private boolean typeMismatch(int msgType) {
        return typeCode != ANY_TYPE && msgType != ANY_TYPE && msgType != typeCode;
    }

    private long acceptableBytes(int msgType, long byteCount) {
        return typeMismatch(msgType) ? 0 : Math.min(byteCount, buffer.byteSize());
    }

    /** The error a message of this type and size completes this receive with, or null. */
    private TesseraException acceptError(int msgType, long byteCount) {
        if (typeMismatch(msgType)) {
            return new TesseraException(ErrorClass.TYPE, "element type mismatch");
        }
        if (byteCount > buffer.byteSize()) {
            return new TesseraException(ErrorClass.TRUNCATE, "message truncated");
        }
        return null;
    }

    /** Copies the first {@code byteCount} bytes of a message's payload into a buffer. */
    @FunctionalInterface
    public interface PayloadCopier {
        void copyTo(MemorySegment destination, long byteCount);
    }
}
