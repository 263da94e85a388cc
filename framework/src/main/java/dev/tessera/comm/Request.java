package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.BlockedCalls;
import dev.tessera.device.DeviceRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * A nonblocking operation: a send, a receive or a nonblocking collective. Complete it
 * with {@link #await()} or poll it with {@link #test()}; {@link #toFuture()} turns it into
 * a {@link CompletableFuture} for overlapping communication with computation.
 *
 * <p>Errors found at completion (truncation, element type mismatch, a failed peer) are
 * thrown by the call that observes completion, once.
 */
public class Request {

    private final Comm comm;
    private final String call;
    private final DeviceRequest op;
    private final Buffer receiveBuffer;
    /** Advances an operation that runs in steps (a collective schedule); true once done. Null for plain transfers. */
    private final java.util.function.BooleanSupplier stepper;
    /**
     * The outcome once computed: a {@link Status}, or the {@link TesseraException} to throw.
     * Written with a release store and read with an acquire load ({@link #OUTCOME}), with no
     * lock: threads that finish one request at once compute equal outcomes.
     */
    @SuppressWarnings("unused")
    private Object outcome;
    private static final java.lang.invoke.VarHandle OUTCOME;

    static {
        try {
            OUTCOME = java.lang.invoke.MethodHandles.lookup().findVarHandle(Request.class, "outcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Request(Comm comm, String call, DeviceRequest op, Buffer receiveBuffer) {
        this(comm, call, op, receiveBuffer, null);
    }

    Request(Comm comm, String call, DeviceRequest op, Buffer receiveBuffer, java.util.function.BooleanSupplier stepper) {
        this.comm = comm;
        this.call = call;
        this.op = op;
        this.receiveBuffer = receiveBuffer;
        this.stepper = stepper;
    }

    /** Peer and tag, for hang reports (set only when they are on). */
    String detail;

    /** What a stepped operation waits for at the moment (its current round's peers), for hang reports; or null. */
    java.util.function.Supplier<String> waitingFor;

    Comm comm() {
        return comm;
    }

    /** A request that is already complete (operations on PROC_NULL). */
    static Request completed(Comm comm, String call) {
        DeviceRequest done = new DeviceRequest(DeviceRequest.Kind.SEND);
        done.completeSend();
        Request r = new Request(comm, call, done, null);
        r.finish();
        return r;
    }

    /** Blocks until the operation completes; returns its status. */
    public Status await() {
        if (BlockedCalls.enabled() && !op.isComplete()) {
            BlockedCalls.call(comm.device(), comm.where(call) + (detail != null ? detail : "") + " on " + comm.reportName());
        }
        if (stepper != null) {
            // a nonblocking collective: the hang report names it, its communicator and the peers of its current round
            BlockedCalls.Wait blocked = null;
            try {
                for (int idle = 0; !stepper.getAsBoolean(); idle++) {
                    if (blocked == null && BlockedCalls.enabled()) {
                        blocked = BlockedCalls.enter(comm.device(), comm.where(call) + " on " + comm.reportName(), waitingFor);
                    }
                    if (!comm.device().progress()) {
                        comm.device().checkHealthy();
                        dev.tessera.device.IdleStrategy.backoff().idle(idle);
                    }
                }
            } finally {
                BlockedCalls.exit(blocked);
            }
        } else if (!op.isComplete()) {
            comm.env.awaitWithDeferredChecks(op); // an earlier collective's mismatch may be why op never completes
            comm.device().await(op);
        }
        return finish();
    }

    /** True if the operation has completed (errors are thrown here). */
    public boolean test() {
        if (stepper != null) {
            stepper.getAsBoolean();
        }
        if (!op.isComplete()) {
            comm.device().progress();
            if (!op.isComplete()) {
                return false;
            }
        }
        finish();
        return true;
    }

    /** True once complete, without driving progress or throwing. */
    public boolean isComplete() {
        return op.isComplete();
    }

    /** The status of a completed operation. */
    public Status status() {
        if (!op.isComplete()) {
            throw new TesseraException(ErrorClass.REQUEST, comm.where(call) + ": status of a request that has not completed");
        }
        return finish();
    }

    /**
     * Tries to cancel the operation: a receive that has not matched, or a send whose
     * message has not been received. Returns true if it was cancelled; the status then says so.
     */
    public boolean cancel() {
        return !op.isComplete() && comm.device().cancel(op);
    }

    /**
     * A future completed (on a pool thread, not the completing rank's) when this request
     * completes. A nonblocking collective advances only when its request is tested or
     * waited for: keep calling {@link #test} (or wait) for its future to complete.
     */
    public CompletableFuture<Status> toFuture() {
        CompletableFuture<Status> future = new CompletableFuture<>();
        op.whenComplete(() -> ForkJoinPool.commonPool().execute(() -> {
            try {
                future.complete(finish());
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
            }
        }));
        return future;
    }

    /** The status of the completed operation, or its error thrown (every time it is asked). */
    private Status finish() {
        Object o = OUTCOME.getAcquire(this);
        if (o == null) {
            o = comm.outcome(call, op, receiveBuffer);
            OUTCOME.setRelease(this, o);
        }
        if (o instanceof TesseraException e) {
            throw e;
        }
        return (Status) o;
    }

    // ---------------------------------------------------------------- arrays of requests

    /** Waits for every request; returns their statuses in order (an empty status for a null slot). */
    public static Status[] waitAll(Request... requests) {
        Objects.requireNonNull(requests, "requests");
        Status[] out = new Status[requests.length];
        TesseraException first = null;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] == null) {
                out[i] = Status.EMPTY;   // a null slot: nothing to wait for (MPI's null request, empty status)
                continue;
            }
            try {
                out[i] = requests[i].await();
            } catch (TesseraException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** Waits for every request in a list. */
    public static Status[] waitAll(List<Request> requests) {
        return waitAll(requests.toArray(new Request[0]));
    }

    /** Waits until one request completes; returns its index (-1 if all are null). */
    public static int waitAny(Request... requests) {
        Objects.requireNonNull(requests, "requests");
        if (requests.length == 0) {
            return -1;
        }
        int idle = 0;
        while (true) {
            Request pending = null;
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                if (r != null) {
                    pending = r;
                    if (r.test()) {
                        return i;
                    }
                }
            }
            if (pending == null) {
                return -1;   // every slot null: nothing to wait for (MPI_UNDEFINED)
            }
            pending.comm.device().checkHealthy();
            dev.tessera.device.IdleStrategy.backoff().idle(idle++);
        }
    }

    /** True if every request has completed; null slots are ignored (as MPI's null requests). */
    public static boolean testAll(Request... requests) {
        Objects.requireNonNull(requests, "requests");
        boolean all = true;
        for (Request r : requests) {
            if (r != null) {
                all &= r.test();
            }
        }
        return all;
    }

    /**
     * Indices of the requests that have completed (possibly none). Null slots are ignored,
     * as MPI ignores null requests; when every slot is null the result is empty, as it is
     * from {@link #waitSome} (MPI's outcount MPI_UNDEFINED, {@link #waitAny}'s -1).
     */
    public static int[] testSome(Request... requests) {
        Objects.requireNonNull(requests, "requests");
        List<Integer> done = new ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && requests[i].test()) {
                done.add(i);
            }
        }
        return done.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Waits until at least one request completes; returns the indices of all completed ones.
     * Null slots are ignored; when every slot is null there is nothing to wait for and the
     * result is empty (MPI's outcount MPI_UNDEFINED, {@link #waitAny}'s -1). Otherwise the
     * result holds at least one index.
     */
    public static int[] waitSome(Request... requests) {
        if (waitAny(requests) < 0) {
            return new int[0];
        }
        return testSome(requests);
    }
}
