package dev.tessera.comm;

import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;

/**
 * A nonblocking receive of an object ({@link Comm#irecvObject}): a {@link Request} whose
 * completion also gives the object received. It is matched when it (or another object
 * receive of its communicator) is tested or waited for; see {@link ObjectReceiveQueue}.
 *
 * @param <T> the type the receiver expects
 */
public final class ObjectRequest<T> extends Request {

    final int source;
    final int tag;
    private final DeviceRequest done;
    private final ObjectReceiveQueue queue;
    private volatile T value;

    private ObjectRequest(Comm comm, String call, DeviceRequest done, ObjectReceiveQueue queue, int source, int tag,
            java.util.function.BooleanSupplier stepper) {
        super(comm, call, done, null, stepper);
        this.done = done;
        this.queue = queue;
        this.source = source;
        this.tag = tag;
    }

    static <T> ObjectRequest<T> post(Comm comm, String call, ObjectReceiveQueue queue, int source, int tag) {
        DeviceRequest done = new DeviceRequest(DeviceRequest.Kind.RECEIVE);
        ObjectRequest<T> r = new ObjectRequest<>(comm, call, done, queue, source, tag, () -> {
            if (!done.isComplete()) {
                queue.match();
            }
            return done.isComplete();
        });
        if (source == Comm.PROC_NULL) {
            done.complete(Comm.PROC_NULL, Comm.ANY_TAG, 0, Datatype.OBJECT.code(), null);
        } else {
            queue.add(r);
        }
        return r;
    }

    @SuppressWarnings("unchecked")
    void deliver(Comm.Received<?> received) {
        value = (T) received.value();
        Status s = received.status();
        done.complete(comm().peers().worldRank(s.source()), s.tag(), s.byteCount(), Datatype.OBJECT.code(), null);
    }

    void fail(TesseraException e) {
        done.complete(Comm.PROC_NULL, Comm.ANY_TAG, 0, Datatype.OBJECT.code(), e);
    }

    /** Waits for the object and returns it (null for a receive from PROC_NULL). */
    public T get() {
        await();
        return value;
    }

    /** The object received; only after completion. */
    public T value() {
        status();
        return value;
    }

    @Override
    public boolean cancel() {
        if (queue.remove(this)) {
            done.completeCancelled();
            return true;
        }
        return false;
    }
}
