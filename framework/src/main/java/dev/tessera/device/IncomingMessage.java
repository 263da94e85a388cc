package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/**
 * A message (or, for rendezvous, the announcement of one) that has arrived at a rank and
 * not yet been received: a node of the matching engine's unexpected queue. Subclasses
 * know where the payload is (a bounce buffer, the sender's own buffer, a socket) and how
 * to move it into a receive buffer.
 */
public abstract class IncomingMessage implements ReceiveRequest.PayloadCopier {

    protected final Envelope envelope;

    // Intrusive list links, guarded by the matching engine's lock.
    IncomingMessage prev;
    IncomingMessage next;

    protected IncomingMessage(Envelope envelope) {
        this.envelope = envelope;
    }

    public final Envelope envelope() {
        return envelope;
    }

    /** Moves the payload into {@code receive} and completes it (possibly later, asynchronously). */
    public void deliver(ReceiveRequest receive) {
        receive.accept(envelope, this);
        delivered();
    }

    /** Copies the first {@code byteCount} bytes of the payload into {@code destination}. */
    @Override
    public abstract void copyTo(MemorySegment destination, long byteCount);

    /** Hook run after delivery, e.g. to complete a rendezvous sender. */
    protected void delivered() {
    }

    /**
     * Withdraws a message that was matched and will never be delivered (a cancelled
     * send); default: nothing to release.
     */
    protected void withdrawn() {
    }
}
