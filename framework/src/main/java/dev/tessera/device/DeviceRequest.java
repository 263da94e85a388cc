package dev.tessera.device;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A send or receive operation in flight on a device, and its completion status.
 *
 * <p>Completion protocol: the completer fills the status fields, then swaps the volatile
 * {@code state} to {@code DONE} in one atomic exchange (release; it also takes the
 * callbacks registered so far), then reads {@code waiter} and unparks it. A waiter
 * publishes itself in {@code waiter} (volatile) before re-checking {@code state}. Both
 * sides write one volatile and then read the other, so at least one of them sees the
 * other's write: the waiter either sees completion or gets unparked. Status fields are
 * plain: they are read only after {@code state} has been seen {@code DONE} (acquire).
 * Completing costs one atomic instruction and no lock: it is on every message's path.
 */
public class DeviceRequest {

    /** Kind of operation, for error messages and cancel. */
    public enum Kind { SEND, RECEIVE }

    /** {@code state} once the request has completed. */
    private static final Object DONE = new Object();
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(DeviceRequest.class, "state", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Kind kind;
    /** null while pending without callbacks, a Runnable or Runnable[] of callbacks, or DONE. */
    private volatile Object state;
    private volatile Thread waiter;

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
        return state == DONE;
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

    /**
     * Completes a request that no thread but the caller has seen yet (a receive completed
     * inside the call that posts it): no waiter can be registered and no callback added, so
     * a release store of the state does what {@link #complete}'s atomic exchange does.
     */
    final void completeUnpublished(int source, int tag, long byteCount, int typeCode, RuntimeException error) {
        this.source = source;
        this.tag = tag;
        this.byteCount = byteCount;
        this.typeCode = typeCode;
        this.error = error;
        if (state != null) {
            finish();   // a callback after all: complete as usual
            return;
        }
        STATE.setRelease(this, DONE);
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
        Object callbacks = STATE.getAndSet(this, DONE);
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
        if (callbacks instanceof Runnable r) {
            r.run();
        } else if (callbacks instanceof Runnable[] all) {
            for (Runnable r : all) {
                r.run();
            }
        }
    }

    /**
     * Runs {@code action} once the request completes: at once on this thread if it already
     * has, else on the completing thread. Actions must be short and must not block.
     */
    public final void whenComplete(Runnable action) {
        for (;;) {
            Object current = state;
            if (current == DONE) {
                action.run();
                return;
            }
            Object next;
            if (current == null) {
                next = action;
            } else if (current instanceof Runnable[] all) {
                Runnable[] more = Arrays.copyOf(all, all.length + 1);
                more[all.length] = action;
                next = more;
            } else {
                next = new Runnable[] {(Runnable) current, action};
            }
            if (STATE.compareAndSet(this, current, next)) {
                return;
            }
        }
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
