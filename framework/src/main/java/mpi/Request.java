package mpi;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A nonblocking operation, as in mpiJava 1.2: returned by {@code Isend}, {@code Irecv},
 * ..., completed by {@link #Wait()} or {@link #Test()}, or by the static array forms
 * ({@link #Waitall}, {@link #Waitany}, {@link #Waitsome}, {@link #Testall},
 * {@link #Testany}, {@link #Testsome}). A completed request becomes a null request
 * ({@link #Is_null()}); null entries of request arrays are ignored, and the array forms
 * set {@link Status#index} to the position of each completed request.
 */
public class Request {

    /** What a request waits for. */
    interface Pending {
        /** Drives progress once; the status if the operation has completed, else null. */
        Status poll();

        /** Blocks until the operation completes; its status. */
        Status await();

        /** Tries to cancel; true if cancelled. */
        boolean cancel();
    }

    Pending pending;
    private Status result;
    /** The communicator whose error handler gets this request's errors (null: COMM_WORLD's). */
    Comm comm;

    Request(Pending pending) {
        this.pending = pending;
    }

    /** A request over a Tessera request; {@code finish} turns its status into the facade's (and unpacks). */
    static Request of(dev.tessera.comm.Request r, Function<dev.tessera.comm.Status, Status> finish) {
        return new Request(tessera(r, finish));
    }

    static Pending tessera(dev.tessera.comm.Request r, Function<dev.tessera.comm.Status, Status> finish) {
        return new Pending() {
            @Override
            public Status poll() {
                return r.test() ? finish.apply(r.status()) : null;
            }

            @Override
            public Status await() {
                return finish.apply(r.await());
            }

            @Override
            public boolean cancel() {
                return r.cancel();
            }
        };
    }

    /** A request that has already completed with {@code status}. */
    static Request completed(Status status) {
        return new Request(new Pending() {
            @Override
            public Status poll() {
                return status;
            }

            @Override
            public Status await() {
                return status;
            }

            @Override
            public boolean cancel() {
                return false;
            }
        });
    }

    /** Blocks until the operation completes and returns its status. */
    public Status Wait() throws MPIException {
        return MPI.call(comm, this::waitNow);
    }

    /** The status if the operation has completed (the request then becomes null), else null. */
    public Status Test() throws MPIException {
        return MPI.call(comm, () -> pending == null ? Status.empty() : ready() ? take() : null);
    }

    /** Asks for the operation to be cancelled; complete it with Wait/Test, whose status says whether it was. */
    public void Cancel() throws MPIException {
        MPI.run(comm, () -> {
            if (pending != null && result == null) {
                pending.cancel();
            }
        });
    }

    /** Releases the request; an operation still in progress completes on its own. */
    public void Free() throws MPIException {
        pending = null;
        result = null;
    }

    /** True for a null request (completed or freed). */
    public boolean Is_null() throws MPIException {
        return pending == null;
    }

    Status waitNow() {
        if (pending == null) {
            return Status.empty();
        }
        if (result == null) {
            result = pending.await();
        }
        return take();
    }

    /** True if active and complete (the status is kept until {@link #take()}). */
    boolean ready() {
        if (result == null && pending != null) {
            result = pending.poll();
        }
        return result != null;
    }

    private Status take() {
        Status s = result;
        result = null;
        completed();
        return s;
    }

    /** Called when the operation's completion has been reported: a plain request becomes null. */
    void completed() {
        pending = null;
    }

    boolean active() {
        return pending != null;
    }

    // ------------------------------------------------------------------ arrays of requests

    /** Waits for every request; the statuses in order (empty statuses for null requests). */
    public static Status[] Waitall(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> {
            Status[] out = new Status[array.length];
            for (int i = 0; i < array.length; i++) {
                out[i] = (array[i] == null ? Status.empty() : array[i].waitNow()).withIndex(i);
            }
            return out;
        });
    }

    /**
     * Waits until one request completes; its status, with {@link Status#index} set. If every
     * request is null, returns an empty status with index {@link MPI#UNDEFINED}.
     */
    public static Status Waitany(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> {
            for (int idle = 0; ; idle++) {
                Status s = testAny(array);
                if (s != null) {
                    return s;
                }
                dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
            }
        });
    }

    /** The status of one completed request (index set), null if none has completed, an empty status (index UNDEFINED) if all are null. */
    public static Status Testany(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> testAny(array));
    }

    /** The communicator of the first request of the array: its error handler gets the array call's errors. */
    private static Comm commOf(Request[] array) {
        if (array != null) {
            for (Request r : array) {
                if (r != null && r.comm != null) {
                    return r.comm;
                }
            }
        }
        return null;
    }

    private static Status testAny(Request[] array) {
        boolean any = false;
        for (int i = 0; i < array.length; i++) {
            Request r = array[i];
            if (r != null && r.active()) {
                any = true;
                if (r.ready()) {
                    return r.take().withIndex(i);
                }
            }
        }
        return any ? null : Status.empty();
    }

    /** The statuses of all requests if every one has completed (null requests count as complete), else null (nothing is completed then). */
    public static Status[] Testall(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> {
            boolean all = true;
            for (Request r : array) {
                all &= r == null || !r.active() || r.ready();
            }
            if (!all) {
                return null;
            }
            Status[] out = new Status[array.length];
            for (int i = 0; i < array.length; i++) {
                Request r = array[i];
                out[i] = (r == null || !r.active() ? Status.empty() : r.take()).withIndex(i);
            }
            return out;
        });
    }

    /** Waits until at least one request completes; the statuses (index set) of every completed one (none if all requests are null). */
    public static Status[] Waitsome(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> {
            for (int idle = 0; ; idle++) {
                Status[] done = testSome(array);
                if (done == null) {
                    return new Status[0];
                }
                if (done.length > 0) {
                    return done;
                }
                dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
            }
        });
    }

    /** The statuses (index set) of the requests that have completed, possibly none. */
    public static Status[] Testsome(Request[] array) throws MPIException {
        return MPI.call(commOf(array), () -> {
            Status[] done = testSome(array);
            return done == null ? new Status[0] : done;
        });
    }

    private static Status[] testSome(Request[] array) {
        List<Status> done = new ArrayList<>();
        boolean any = false;
        for (int i = 0; i < array.length; i++) {
            Request r = array[i];
            if (r != null && r.active()) {
                any = true;
                if (r.ready()) {
                    done.add(r.take().withIndex(i));
                }
            }
        }
        return any ? done.toArray(new Status[0]) : null;      // null: no active request (Waitsome/Testsome return an empty array then)
    }
}
