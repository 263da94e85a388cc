package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoDAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoHAsync;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoDAsync;
import static jcuda.driver.JCudaDriver.cuStreamDestroy;
import static jcuda.driver.JCudaDriver.cuStreamSynchronize;
import static jcuda.driver.JCudaDriver.cuStreamWaitEvent;

import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.WorkSize;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import jcuda.Pointer;
import jcuda.driver.CUstream;

/**
 * A CUDA stream (non-blocking: it does not synchronize with the legacy default stream).
 * Native segments are copied with the asynchronous calls; heap memory, which the GC may
 * move, is staged through a temporary native segment and the stream is synchronized
 * before returning, so the copy stays in stream order. Launch geometry: blocks of 256
 * (1D), 32 x 8 (2D) or 32 x 4 x 2 (3D) threads, grid rounded up.
 */
final class CudaQueue extends Queue {

    private static final int[][] BLOCKS = {{256, 1, 1}, {32, 8, 1}, {32, 4, 2}};
    private static final long MAX_GRID_YZ = 65_535;

    private final CudaAccelerator cuda;
    private final CUstream stream;

    CudaQueue(CudaAccelerator owner, CUstream stream) {
        super(owner);
        this.cuda = owner;
        this.stream = stream;
    }

    private CudaEvent recorded(String call) {
        return CudaEvent.record(cuda.context(), stream, call);
    }

    @Override
    protected Event enqueueWrite(MemorySegment src, DeviceBuffer dst, long dstByteOffset, boolean blocking) {
        cuda.makeCurrent();
        var target = ((CudaBuffer) dst).ptr.withByteOffset(dstByteOffset);
        if (src.isNative()) {
            CudaCheck.check(cuMemcpyHtoDAsync(target, Pointer.to(src.asByteBuffer()), src.byteSize(), stream),
                    "cuMemcpyHtoDAsync");
            CudaEvent e = recorded("cuMemcpyHtoDAsync");
            if (blocking) {
                e.await();
            }
            return e;
        }
        try (Arena staging = Arena.ofConfined()) {
            MemorySegment tmp = staging.allocate(src.byteSize(), 16);
            MemorySegment.copy(src, 0, tmp, 0, src.byteSize());
            CudaCheck.check(cuMemcpyHtoDAsync(target, Pointer.to(tmp.asByteBuffer()), src.byteSize(), stream),
                    "cuMemcpyHtoDAsync");
            CudaCheck.check(cuStreamSynchronize(stream), "cuStreamSynchronize after cuMemcpyHtoDAsync");
        }
        return Event.completed();
    }

    @Override
    protected Event enqueueRead(DeviceBuffer src, long srcByteOffset, MemorySegment dst, boolean blocking) {
        cuda.makeCurrent();
        var source = ((CudaBuffer) src).ptr.withByteOffset(srcByteOffset);
        if (dst.isNative()) {
            CudaCheck.check(cuMemcpyDtoHAsync(Pointer.to(dst.asByteBuffer()), source, dst.byteSize(), stream),
                    "cuMemcpyDtoHAsync");
            CudaEvent e = recorded("cuMemcpyDtoHAsync");
            if (blocking) {
                e.await();
            }
            return e;
        }
        try (Arena staging = Arena.ofConfined()) {
            MemorySegment tmp = staging.allocate(dst.byteSize(), 16);
            CudaCheck.check(cuMemcpyDtoHAsync(Pointer.to(tmp.asByteBuffer()), source, dst.byteSize(), stream),
                    "cuMemcpyDtoHAsync");
            CudaCheck.check(cuStreamSynchronize(stream), "cuStreamSynchronize after cuMemcpyDtoHAsync");
            MemorySegment.copy(tmp, 0, dst, 0, dst.byteSize());
        }
        return Event.completed();
    }

    @Override
    protected Event enqueueCopy(DeviceBuffer src, long srcByteOffset, DeviceBuffer dst, long dstByteOffset, long bytes) {
        cuda.makeCurrent();
        CudaCheck.check(cuMemcpyDtoDAsync(((CudaBuffer) dst).ptr.withByteOffset(dstByteOffset),
                ((CudaBuffer) src).ptr.withByteOffset(srcByteOffset), bytes, stream), "cuMemcpyDtoDAsync");
        return recorded("cuMemcpyDtoDAsync");
    }

    @Override
    protected Event enqueueLaunch(Kernel kernel, WorkSize size, Object[] args) {
        cuda.makeCurrent();
        CudaProgram.CudaKernel k = (CudaProgram.CudaKernel) kernel;
        Pointer[] params = new Pointer[args.length];
        for (int i = 0; i < args.length; i++) {
            params[i] = switch (args[i]) {
                case CudaBuffer b -> Pointer.to(b.ptr);
                case Integer v -> Pointer.to(new int[] {v});
                case Long v -> Pointer.to(new long[] {v});
                case Double v -> Pointer.to(new double[] {v});
                case Float v -> Pointer.to(new float[] {v});
                default -> throw new IllegalArgumentException("Queue.launch(" + k.name() + "): argument " + i
                        + " is not a CUDA buffer");
            };
        }
        int[] block = BLOCKS[size.rank() - 1];
        long[] grid = new long[3];
        for (int d = 0; d < 3; d++) {
            grid[d] = (size.dim(d) + block[d] - 1) / block[d];
        }
        if (grid[0] > Integer.MAX_VALUE || grid[1] > MAX_GRID_YZ || grid[2] > MAX_GRID_YZ) {
            throw new IllegalArgumentException("Queue.launch(" + k.name() + "): work size " + size
                    + " exceeds CUDA's grid limits");
        }
        String call = "cuLaunchKernel(" + k.name() + ")";
        CudaCheck.check(cuLaunchKernel(k.function, (int) grid[0], (int) grid[1], (int) grid[2], block[0], block[1],
                block[2], 0, stream, Pointer.to(params), null), call);
        return recorded(call);
    }

    @Override
    protected void enqueueWait(Event[] events) {
        cuda.makeCurrent();
        for (Event e : events) {
            if (e instanceof CudaEvent c) {
                CudaCheck.check(cuStreamWaitEvent(stream, c.event, 0), "cuStreamWaitEvent");
            } else if (!e.isComplete()) {
                e.await();
            }
        }
    }

    @Override
    protected Event enqueueMarker() {
        cuda.makeCurrent();
        return recorded("marker");
    }

    @Override
    protected void finishAll() {
        cuda.makeCurrent();
        CudaCheck.check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    }

    @Override
    protected void release() {
        cuda.makeCurrent();
        cuStreamDestroy(stream);
    }
}
