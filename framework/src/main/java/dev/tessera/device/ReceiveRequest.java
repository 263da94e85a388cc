package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;

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
        TesseraException error = null;
        long n = env.byteCount();
        if (typeCode != ANY_TYPE && env.typeCode() != ANY_TYPE && env.typeCode() != typeCode) {
            error = new TesseraException(ErrorClass.TYPE, "element type mismatch");
            n = 0;
        } else if (n > buffer.byteSize()) {
            error = new TesseraException(ErrorClass.TRUNCATE, "message truncated");
            n = buffer.byteSize();
        }
        if (n > 0) {
            payload.copyTo(buffer, n);
        }
        complete(env.source(), env.tag(), env.byteCount(), env.typeCode(), error);
    }

    /**
     * How many bytes of a message with this envelope {@link #accept} will copy: none on a
     * type mismatch, else as many as fit. For devices that stream a payload in pieces.
     */
    public long acceptableBytes(Envelope env) {
        if (typeCode != ANY_TYPE && env.typeCode() != ANY_TYPE && env.typeCode() != typeCode) {
            return 0;
        }
        return Math.min(env.byteCount(), buffer.byteSize());
    }

    /** Copies the first {@code byteCount} bytes of a message's payload into a buffer. */
    @FunctionalInterface
    public interface PayloadCopier {
        void copyTo(MemorySegment destination, long byteCount);
    }
}
