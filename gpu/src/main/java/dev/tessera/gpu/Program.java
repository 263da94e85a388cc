package dev.tessera.gpu;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The compiled form of one {@link KernelSource} on one accelerator. {@link #kernel(String)}
 * looks a kernel up by name (once; the handle is cached). Closed with its accelerator.
 */
public abstract class Program implements AutoCloseable {

    private final Accelerator owner;
    private final KernelSource source;
    private final Map<String, Kernel> kernels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    protected Program(Accelerator owner, KernelSource source) {
        this.owner = owner;
        this.source = source;
    }

    public Accelerator accelerator() {
        return owner;
    }

    public KernelSource source() {
        return source;
    }

    public String sourceName() {
        return source.name();
    }

    /** The kernel called {@code name}; an {@link AcceleratorException} if the source has none by that name. */
    public Kernel kernel(String name) {
        if (closed) {
            throw new IllegalStateException("Program.kernel(" + name + "): program " + sourceName() + " is closed");
        }
        return kernels.computeIfAbsent(name, this::createKernel);
    }

    protected abstract Kernel createKernel(String name);

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        release();
    }

    /** Frees the kernels and the program; called once. */
    protected abstract void release();

    protected final Iterable<Kernel> createdKernels() {
        return kernels.values();
    }
}
