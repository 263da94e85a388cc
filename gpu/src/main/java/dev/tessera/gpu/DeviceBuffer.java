package dev.tessera.gpu;

/**
 * Memory on an accelerator holding {@link #count()} elements of one {@link ElementType}.
 * Created by {@link Accelerator#allocate}; data moves in and out through a {@link Queue}.
 * Closing frees the device memory (commands already enqueued that use the buffer must
 * have completed: call {@link Queue#finish()} first); closing the accelerator closes
 * the buffers still open. A closed buffer refuses every further use with an error that
 * names the call.
 */
public abstract class DeviceBuffer implements AutoCloseable {

    private final Accelerator owner;
    private final ElementType type;
    private final long count;
    private volatile boolean closed;

    protected DeviceBuffer(Accelerator owner, ElementType type, long count) {
        this.owner = owner;
        this.type = type;
        this.count = count;
    }

    public Accelerator accelerator() {
        return owner;
    }

    public ElementType type() {
        return type;
    }

    /** Number of elements. */
    public long count() {
        return count;
    }

    public long byteSize() {
        return count * type.byteSize();
    }

    public boolean isClosed() {
        return closed;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        owner.forget(this);
        release();
    }

    /** Frees the native memory; called once. */
    protected abstract void release();

    /** Checks that this buffer is open and belongs to {@code acc}, naming {@code call} otherwise. */
    final void requireUsable(Accelerator acc, String call) {
        if (closed) {
            throw new IllegalStateException(call + ": " + this + " is closed");
        }
        if (acc != owner) {
            throw new IllegalArgumentException(call + ": " + this + " belongs to " + owner.info().backend().id() + ":"
                    + owner.info().index() + ", not to the queue's accelerator");
        }
    }

    /** Checks that elements [offset, offset + n) lie inside this buffer. */
    final void requireRange(String call, long offset, long n) {
        if (offset < 0 || n < 0 || offset > count - n) {
            throw new IndexOutOfBoundsException(call + ": elements [" + offset + ", " + (offset + n) + ") outside "
                    + this);
        }
    }

    @Override
    public String toString() {
        return "DeviceBuffer(" + count + " x " + type + " on " + owner.backend().id() + ")";
    }
}
