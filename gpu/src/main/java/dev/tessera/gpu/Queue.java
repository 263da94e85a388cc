package dev.tessera.gpu;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An in-order command queue of one accelerator (an OpenCL command queue, a CUDA stream,
 * a worker thread for the CPU backend). Commands run in the order they were enqueued;
 * two queues run concurrently where the device can, and {@link #waitFor} orders one queue
 * after events of another.
 *
 * <p>Transfers. From and to Java arrays they are blocking: the call returns when the data
 * arrived (the array may move under the garbage collector, so the driver must finish with
 * it inside the call). From and to {@link MemorySegment}s they are asynchronous when the
 * segment is native (off-heap, best a {@link HostBuffer}): the call returns an {@link Event}
 * at once and the segment must stay alive and untouched until the event completes; for a
 * heap segment they complete before returning. Offsets and counts are in elements of the
 * device buffer's type; a segment moves {@code byteSize / elementSize} elements.
 *
 * <p>Not thread-safe: one thread enqueues on a queue at a time (use a queue per thread).
 */
public abstract class Queue implements AutoCloseable {

    private final Accelerator owner;
    private volatile boolean closed;

    protected Queue(Accelerator owner) {
        this.owner = owner;
    }

    public Accelerator accelerator() {
        return owner;
    }

    // ------------------------------------------------------------ blocking array transfers

    public void write(double[] src, DeviceBuffer dst) {
        write(src, 0, dst, 0, src.length);
    }

    public void write(float[] src, DeviceBuffer dst) {
        write(src, 0, dst, 0, src.length);
    }

    public void write(long[] src, DeviceBuffer dst) {
        write(src, 0, dst, 0, src.length);
    }

    public void write(int[] src, DeviceBuffer dst) {
        write(src, 0, dst, 0, src.length);
    }

    /** Copies {@code src[srcOffset, srcOffset + count)} to elements {@code [dstOffset, dstOffset + count)} of {@code dst}. */
    public void write(Object src, int srcOffset, DeviceBuffer dst, long dstOffset, int count) {
        MemorySegment s = arraySlice("Queue.write", src, srcOffset, count, dst);
        checkTransfer("Queue.write", dst, dstOffset, count);
        if (count > 0) {
            enqueueWrite(s, dst, dstOffset * dst.type().byteSize(), true).await();
        }
    }

    public void read(DeviceBuffer src, double[] dst) {
        read(src, 0, dst, 0, dst.length);
    }

    public void read(DeviceBuffer src, float[] dst) {
        read(src, 0, dst, 0, dst.length);
    }

    public void read(DeviceBuffer src, long[] dst) {
        read(src, 0, dst, 0, dst.length);
    }

    public void read(DeviceBuffer src, int[] dst) {
        read(src, 0, dst, 0, dst.length);
    }

    /** Copies elements {@code [srcOffset, srcOffset + count)} of {@code src} to {@code dst[dstOffset, dstOffset + count)}. */
    public void read(DeviceBuffer src, long srcOffset, Object dst, int dstOffset, int count) {
        MemorySegment d = arraySlice("Queue.read", dst, dstOffset, count, src);
        checkTransfer("Queue.read", src, srcOffset, count);
        if (count > 0) {
            enqueueRead(src, srcOffset * src.type().byteSize(), d, true).await();
        }
    }

    // ------------------------------------------------------------ segment transfers

    /** Copies all of {@code src} to {@code dst} from element {@code dstOffset}; asynchronous for a native segment. */
    public Event writeAsync(MemorySegment src, DeviceBuffer dst, long dstOffset) {
        long n = elements("Queue.writeAsync", src, dst);
        checkTransfer("Queue.writeAsync", dst, dstOffset, n);
        if (n == 0) {
            return Event.completed();
        }
        return enqueueWrite(src, dst, dstOffset * dst.type().byteSize(), !src.isNative());
    }

    /** Fills all of {@code dst} from {@code src} starting at element {@code srcOffset}; asynchronous for a native segment. */
    public Event readAsync(DeviceBuffer src, long srcOffset, MemorySegment dst) {
        long n = elements("Queue.readAsync", dst, src);
        checkTransfer("Queue.readAsync", src, srcOffset, n);
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("Queue.readAsync: the destination segment is read-only");
        }
        if (n == 0) {
            return Event.completed();
        }
        return enqueueRead(src, srcOffset * src.type().byteSize(), dst, !dst.isNative());
    }

    /** Copies {@code count} elements between device buffers of the same type (asynchronous). */
    public Event copy(DeviceBuffer src, long srcOffset, DeviceBuffer dst, long dstOffset, long count) {
        checkTransfer("Queue.copy", src, srcOffset, count);
        checkTransfer("Queue.copy", dst, dstOffset, count);
        if (src.type() != dst.type()) {
            throw new IllegalArgumentException("Queue.copy: " + src + " and " + dst + " differ in element type");
        }
        if (count == 0) {
            return Event.completed();
        }
        long es = src.type().byteSize();
        return enqueueCopy(src, srcOffset * es, dst, dstOffset * es, count * es);
    }

    // ------------------------------------------------------------ kernels and ordering

    /** Launches {@code kernel} over {@code size} with {@code args} (asynchronous); an empty size launches nothing. */
    public Event launch(Kernel kernel, WorkSize size, Object... args) {
        requireOpen("Queue.launch");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(size, "size");
        if (kernel.program().accelerator() != owner) {
            throw new IllegalArgumentException("Queue.launch: " + kernel + " was compiled for another accelerator");
        }
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            switch (a) {
                case DeviceBuffer b -> b.requireUsable(owner, "Queue.launch(" + kernel.name() + ") argument " + i);
                case Integer v -> { }
                case Long v -> { }
                case Double v -> { }
                case Float v -> { }
                case null -> throw new IllegalArgumentException("Queue.launch(" + kernel.name() + "): argument " + i
                        + " is null");
                default -> throw new IllegalArgumentException("Queue.launch(" + kernel.name() + "): argument " + i
                        + " is a " + a.getClass().getSimpleName()
                        + "; a kernel takes DeviceBuffer, Integer, Long, Float or Double");
            }
        }
        if (size.isEmpty()) {
            return Event.completed();
        }
        return enqueueLaunch(kernel, size, args.clone());
    }

    /** Makes commands enqueued after this call wait until {@code events} (of any queue of this accelerator) completed. */
    public void waitFor(Event... events) {
        requireOpen("Queue.waitFor");
        enqueueWait(events);
    }

    /** An event that completes when every command enqueued so far completed. */
    public Event marker() {
        requireOpen("Queue.marker");
        return enqueueMarker();
    }

    /** Blocks until every command enqueued so far completed; rethrows the first failure. */
    public void finish() {
        requireOpen("Queue.finish");
        finishAll();
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            finishAll();
        } finally {
            release();
        }
    }

    // ------------------------------------------------------------ backend SPI

    /** Enqueues a host-to-device copy; when {@code blocking}, returns after the copy completed. */
    protected abstract Event enqueueWrite(MemorySegment src, DeviceBuffer dst, long dstByteOffset, boolean blocking);

    /** Enqueues a device-to-host copy filling {@code dst}; when {@code blocking}, returns after it completed. */
    protected abstract Event enqueueRead(DeviceBuffer src, long srcByteOffset, MemorySegment dst, boolean blocking);

    protected abstract Event enqueueCopy(DeviceBuffer src, long srcByteOffset, DeviceBuffer dst, long dstByteOffset,
                                         long bytes);

    /** Enqueues a launch; arguments were checked (types, owner, open). */
    protected abstract Event enqueueLaunch(Kernel kernel, WorkSize size, Object[] args);

    protected abstract void enqueueWait(Event[] events);

    protected abstract Event enqueueMarker();

    protected abstract void finishAll();

    /** Frees the queue; called once, after {@link #finishAll}. */
    protected abstract void release();

    // ------------------------------------------------------------ checks

    private void requireOpen(String call) {
        if (closed) {
            throw new IllegalStateException(call + ": the queue is closed");
        }
        owner.requireOpen(call);
    }

    private void checkTransfer(String call, DeviceBuffer b, long offset, long count) {
        requireOpen(call);
        Objects.requireNonNull(b, call + ": device buffer is null");
        b.requireUsable(owner, call);
        b.requireRange(call, offset, count);
    }

    private static MemorySegment arraySlice(String call, Object array, int offset, int count, DeviceBuffer b) {
        Objects.requireNonNull(array, call + ": array is null");
        Objects.requireNonNull(b, call + ": device buffer is null");
        ElementType t = ElementType.ofArray(array);
        if (t != b.type()) {
            throw new IllegalArgumentException(call + ": " + array.getClass().getSimpleName() + " with " + b);
        }
        int length = java.lang.reflect.Array.getLength(array);
        if (offset < 0 || count < 0 || offset > length - count) {
            throw new IndexOutOfBoundsException(call + ": array slice [" + offset + ", " + (offset + count)
                    + ") outside an array of " + length);
        }
        MemorySegment whole = switch (array) {
            case double[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case byte[] a -> MemorySegment.ofArray(a);
            default -> throw new AssertionError();
        };
        return whole.asSlice((long) offset * t.byteSize(), (long) count * t.byteSize());
    }

    private static long elements(String call, MemorySegment s, DeviceBuffer b) {
        Objects.requireNonNull(s, call + ": segment is null");
        Objects.requireNonNull(b, call + ": device buffer is null");
        long es = b.type().byteSize();
        if (s.byteSize() % es != 0) {
            throw new IllegalArgumentException(call + ": a segment of " + s.byteSize() + " bytes is not a whole number of "
                    + b.type() + " elements");
        }
        if (s.byteSize() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(call + ": transfers are limited to 2 GiB per call, got "
                    + s.byteSize() + " bytes");
        }
        return s.byteSize() / es;
    }
}
