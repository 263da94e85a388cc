package dev.tessera.gpu;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One device opened for computing: allocates {@link DeviceBuffer}s and pinned
 * {@link HostBuffer}s, compiles {@link KernelSource}s into {@link Program}s, and hands out
 * {@link Queue}s on which transfers and launches run asynchronously. Obtained from
 * {@link Accelerators} (one per rank: {@link Accelerators#forRank}); close it when done,
 * which finishes its queues and frees whatever is still allocated.
 *
 * <pre>{@code
 * try (Accelerator acc = Accelerators.forRank(session);
 *      DeviceBuffer a = acc.allocate(ElementType.DOUBLE, n)) {
 *     Queue q = acc.defaultQueue();
 *     q.write(host, a);
 *     q.launch(acc.compile(source).kernel("scale_double"), WorkSize.of(n), a, 2.0, (long) n);
 *     q.read(a, host);
 * }
 * }</pre>
 */
public abstract class Accelerator implements AutoCloseable {

    private final DeviceInfo info;
    private final Set<DeviceBuffer> buffers = ConcurrentHashMap.newKeySet();
    private final List<AutoCloseable> owned = new ArrayList<>();
    private Queue defaultQueue;
    private GridKernels gridKernels;
    private volatile boolean closed;

    protected Accelerator(DeviceInfo info) {
        this.info = info;
    }

    public DeviceInfo info() {
        return info;
    }

    public Backend backend() {
        return info.backend();
    }

    /** A buffer of {@code count} (at least 1) elements, uninitialized. */
    public final DeviceBuffer allocate(ElementType type, long count) {
        requireOpen("Accelerator.allocate");
        Objects.requireNonNull(type, "type");
        if (count < 1) {
            throw new IllegalArgumentException("Accelerator.allocate: count must be at least 1, got " + count);
        }
        DeviceBuffer b = allocateBuffer(type, count);
        buffers.add(b);
        return b;
    }

    /** A buffer holding a copy of {@code values} (written through the default queue). */
    public final DeviceBuffer copyOf(double[] values) {
        DeviceBuffer b = allocate(ElementType.DOUBLE, Math.max(1, values.length));
        defaultQueue().write(values, b);
        return b;
    }

    /** Host memory of {@code bytes} for staging transfers, pinned where the backend can ({@link HostBuffer#pinned()}). */
    public final HostBuffer allocateHost(long bytes) {
        requireOpen("Accelerator.allocateHost");
        if (bytes < 1) {
            throw new IllegalArgumentException("Accelerator.allocateHost: bytes must be at least 1, got " + bytes);
        }
        HostBuffer h = allocateHostBuffer(bytes);
        remember(h);
        return h;
    }

    /** The queue for code that needs only one (created on first use, closed with the accelerator). */
    public final synchronized Queue defaultQueue() {
        requireOpen("Accelerator.defaultQueue");
        if (defaultQueue == null) {
            defaultQueue = createQueue();
        }
        return defaultQueue;
    }

    /** A new queue (closed with the accelerator, or earlier by the caller). */
    public final Queue createQueue() {
        requireOpen("Accelerator.createQueue");
        Queue q = newQueue();
        remember(q);
        return q;
    }

    /** Compiles {@code source} for this device; a {@link KernelCompileException} with the compiler log if it does not compile. */
    public final Program compile(KernelSource source) {
        requireOpen("Accelerator.compile");
        Objects.requireNonNull(source, "source");
        Program p = build(source);
        remember(p);
        return p;
    }

    /** Tessera's built-in grid kernels compiled for this device (once). */
    public final synchronized GridKernels gridKernels() {
        if (gridKernels == null) {
            gridKernels = new GridKernels(compile(GridKernels.source()));
        }
        return gridKernels;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Finishes and closes the queues, then frees programs, buffers and the device context. */
    @Override
    public final void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(owned);
            owned.clear();
        }
        RuntimeException first = null;
        // Queues first (they finish pending work), then buffers and programs, last the context.
        for (int pass = 0; pass < 2; pass++) {
            for (AutoCloseable c : toClose) {
                if ((c instanceof Queue) == (pass == 0)) {
                    first = closeQuietly(c, first);
                }
            }
        }
        for (DeviceBuffer b : List.copyOf(buffers)) {
            first = closeQuietly(b, first);
        }
        try {
            closeContext();
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (first != null) {
            throw first;
        }
    }

    private static RuntimeException closeQuietly(AutoCloseable c, RuntimeException first) {
        try {
            c.close();
        } catch (Exception e) {
            RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
            if (first == null) {
                return r;
            }
            first.addSuppressed(r);
        }
        return first;
    }

    private synchronized void remember(AutoCloseable c) {
        owned.add(c);
    }

    final void forget(DeviceBuffer b) {
        buffers.remove(b);
    }

    final void requireOpen(String call) {
        if (closed) {
            throw new IllegalStateException(call + ": the " + backend().id() + " accelerator is closed");
        }
    }

    @Override
    public String toString() {
        return info.describe();
    }

    // ------------------------------------------------------------ backend SPI

    protected abstract DeviceBuffer allocateBuffer(ElementType type, long count);

    protected abstract HostBuffer allocateHostBuffer(long bytes);

    protected abstract Queue newQueue();

    protected abstract Program build(KernelSource source);

    /** Frees the device context after everything else was closed. */
    protected abstract void closeContext();
}
