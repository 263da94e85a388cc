package dev.tessera.device;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive operation in flight on a device, and its completion status.
 *
 * <p>Completion protocol: the completer fills the status fields, then writes the volatile
 * {@code complete} flag (release), then reads {@code waiter} and unparks it. A waiter
 * publishes itself in {@code waiter} (volatile) before re-checking {@code complete}. Both
 * sides write one volatile and then read the other, so at least one of them sees the
 * other's write: the waiter either sees completion or gets unparked. Status fields are
 * plain: they are read only after {@code complete} has been seen true (acquire).
 */
public class DeviceRequest {

    /** Kind of operation, for error messages and cancel. */
    public enum Kind { SEND, RECEIVE }

    private final Kind kind;
    private volatile boolean complete;
    private volatile Thread waiter;
    private List<Runnable> onComplete;

    // Status, valid once complete.
    private int source;
    private int tag;
    private long byteCount;
    private int typeCode;
    private boolean cancelled;
    private RuntimeException error;

    public DeviceRequest(Kind kind) {
        this.kind = kind;
    }

    public final Kind kind() {
        return kind;
    }

    public final boolean isComplete() {
        return complete;
    }

    /** Completes the request with the given status; wakes a parked waiter. Idempotent only once. */
    public final void complete(int source, int tag, long byteCount, int typeCode, RuntimeException error) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
        this.typeCode = typeCode;
        this.error = error;
        finish();
    }

    /** Completes a send: the send side's status carries nothing the user needs. */
    public final void completeSend() {
        finish();
    }

    /** Completes the request as cancelled. */
    public final void completeCancelled() {
        this.cancelled = true;
        finish();
    }

    private void finish() {
        List<Runnable> callbacks;
        synchronized (this) {
            complete = true;
            callbacks = onComplete;
            onComplete = null;
        }
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
        if (callbacks != null) {
            for (Runnable r : callbacks) {
                r.run();
            }
        }
    }

    /**
     * Runs {@code action} once the request completes: at once on this thread if it already
     * has, else on the completing thread. Actions must be short and must not block.
     */
    public final void whenComplete(Runnable action) {
        synchronized (this) {
            if (!complete) {
                if (onComplete == null) {
                    onComplete = new ArrayList<>(2);
                }
                onComplete.add(action);
                return;
            }
        }
        action.run();
    }

    /** Registers the current thread as the one to unpark on completion. */
    public final void registerWaiter() {
        waiter = Thread.currentThread();
    }

    public final void clearWaiter() {
        waiter = null;
    }

    public final int source() {
        return source;
    }

    public final int tag() {
        return tag;
    }

    public final long byteCount() {
        return byteCount;
    }

    public final int typeCode() {
        return typeCode;
    }

    public final boolean isCancelled() {
        return cancelled;
    }

    /** The error the operation completed with (truncation, type mismatch, peer failure), or null. */
    public final RuntimeException error() {
        return error;
    }
}
