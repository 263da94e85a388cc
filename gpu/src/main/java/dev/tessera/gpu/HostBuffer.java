package dev.tessera.gpu;

import java.lang.foreign.MemorySegment;

/**
 * Host memory for staging transfers, allocated by the accelerator's driver where it can:
 * page-locked ("pinned") with CUDA ({@code cuMemAllocHost}), driver-allocated host memory
 * with OpenCL ({@code CL_MEM_ALLOC_HOST_PTR}, mapped; pinned on GPU drivers, ordinary
 * memory on PoCL), and plain native memory for the CPU backend. Transfers from and to a
 * pinned segment run asynchronously at full bus speed; a pageable one is first copied by
 * the driver. {@link #pinned()} says which this is. Closing frees the memory: no transfer
 * using it may still be in flight.
 */
public abstract class HostBuffer implements AutoCloseable {

    private final MemorySegment segment;
    private final boolean pinned;
    private volatile boolean closed;

    protected HostBuffer(MemorySegment segment, boolean pinned) {
        this.segment = segment;
        this.pinned = pinned;
    }

    /** The memory; valid until {@link #close()}. */
    public MemorySegment segment() {
        if (closed) {
            throw new IllegalStateException("HostBuffer.segment: the buffer is closed");
        }
        return segment;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** True when the driver page-locked the memory (or mapped it for direct device access). */
    public boolean pinned() {
        return pinned;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        release();
    }

    protected abstract void release();
}
