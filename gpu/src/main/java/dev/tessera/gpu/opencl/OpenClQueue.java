package dev.tessera.gpu.opencl;

import static org.jocl.CL.clEnqueueBarrierWithWaitList;
import static org.jocl.CL.clEnqueueCopyBuffer;
import static org.jocl.CL.clEnqueueMarkerWithWaitList;
import static org.jocl.CL.clEnqueueNDRangeKernel;
import static org.jocl.CL.clEnqueueReadBuffer;
import static org.jocl.CL.clEnqueueWriteBuffer;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clFlush;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clSetKernelArg;

import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.WorkSize;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_command_queue;
import org.jocl.cl_event;

/**
 * An in-order OpenCL command queue. Every command is flushed as it is enqueued, so the
 * device starts it while the host goes on (PoCL, for one, holds unflushed commands back).
 */
final class OpenClQueue extends Queue {

    private final cl_command_queue queue;

    OpenClQueue(OpenClAccelerator owner, cl_command_queue queue) {
        super(owner);
        this.queue = queue;
    }

    /** A JOCL pointer to a segment: direct for native memory, the array plus offset for heap memory. */
    static Pointer pointer(MemorySegment s) {
        if (s.isNative()) {
            return Pointer.to(s.asByteBuffer());
        }
        Object base = s.heapBase().orElseThrow();
        Pointer p = switch (base) {
            case double[] a -> Pointer.to(a);
            case float[] a -> Pointer.to(a);
            case long[] a -> Pointer.to(a);
            case int[] a -> Pointer.to(a);
            case short[] a -> Pointer.to(a);
            case char[] a -> Pointer.to(a);
            case byte[] a -> Pointer.to(a);
            default -> throw new IllegalArgumentException("unsupported heap segment over " + base.getClass());
        };
        return p.withByteOffset(s.address());
    }

    private OpenClEvent flushed(cl_event e, String call) {
        OpenClCheck.check(clFlush(queue), "clFlush after " + call);
        return new OpenClEvent(e, call);
    }

    @Override
    protected Event enqueueWrite(MemorySegment src, DeviceBuffer dst, long dstByteOffset, boolean blocking) {
        cl_event e = new cl_event();
        OpenClCheck.check(clEnqueueWriteBuffer(queue, ((OpenClBuffer) dst).mem, blocking, dstByteOffset, src.byteSize(),
                pointer(src), 0, null, e), "clEnqueueWriteBuffer");
        return flushed(e, "clEnqueueWriteBuffer");
    }

    @Override
    protected Event enqueueRead(DeviceBuffer src, long srcByteOffset, MemorySegment dst, boolean blocking) {
        cl_event e = new cl_event();
        OpenClCheck.check(clEnqueueReadBuffer(queue, ((OpenClBuffer) src).mem, blocking, srcByteOffset, dst.byteSize(),
                pointer(dst), 0, null, e), "clEnqueueReadBuffer");
        return flushed(e, "clEnqueueReadBuffer");
    }

    @Override
    protected Event enqueueCopy(DeviceBuffer src, long srcByteOffset, DeviceBuffer dst, long dstByteOffset, long bytes) {
        cl_event e = new cl_event();
        OpenClCheck.check(clEnqueueCopyBuffer(queue, ((OpenClBuffer) src).mem, ((OpenClBuffer) dst).mem, srcByteOffset,
                dstByteOffset, bytes, 0, null, e), "clEnqueueCopyBuffer");
        return flushed(e, "clEnqueueCopyBuffer");
    }

    @Override
    protected Event enqueueLaunch(Kernel kernel, WorkSize size, Object[] args) {
        OpenClProgram.OpenClKernel k = (OpenClProgram.OpenClKernel) kernel;
        if (args.length != k.arity) {
            throw new IllegalArgumentException("Queue.launch(" + k.name() + "): the kernel takes " + k.arity
                    + " arguments, got " + args.length);
        }
        String call = "clEnqueueNDRangeKernel(" + k.name() + ")";
        cl_event e = new cl_event();
        synchronized (k) {
            for (int i = 0; i < args.length; i++) {
                int status = switch (args[i]) {
                    case OpenClBuffer b -> clSetKernelArg(k.kernel, i, Sizeof.cl_mem, Pointer.to(b.mem));
                    case Integer v -> clSetKernelArg(k.kernel, i, Sizeof.cl_int, Pointer.to(new int[] {v}));
                    case Long v -> clSetKernelArg(k.kernel, i, Sizeof.cl_long, Pointer.to(new long[] {v}));
                    case Double v -> clSetKernelArg(k.kernel, i, Sizeof.cl_double, Pointer.to(new double[] {v}));
                    case Float v -> clSetKernelArg(k.kernel, i, Sizeof.cl_float, Pointer.to(new float[] {v}));
                    default -> throw new IllegalArgumentException("Queue.launch(" + k.name() + "): argument " + i
                            + " is not an OpenCL buffer");
                };
                OpenClCheck.check(status, "clSetKernelArg(" + k.name() + ", " + i + ")");
            }
            OpenClCheck.check(clEnqueueNDRangeKernel(queue, k.kernel, size.rank(), null, size.dims(), null, 0, null, e),
                    call);
        }
        return flushed(e, call);
    }

    @Override
    protected void enqueueWait(Event[] events) {
        List<cl_event> list = new ArrayList<>();
        for (Event ev : events) {
            if (ev instanceof OpenClEvent o) {
                list.add(o.event);
            } else if (!ev.isComplete()) {
                ev.await();
            }
        }
        if (!list.isEmpty()) {
            OpenClCheck.check(clEnqueueBarrierWithWaitList(queue, list.size(), list.toArray(new cl_event[0]), null),
                    "clEnqueueBarrierWithWaitList");
        }
    }

    @Override
    protected Event enqueueMarker() {
        cl_event e = new cl_event();
        OpenClCheck.check(clEnqueueMarkerWithWaitList(queue, 0, null, e), "clEnqueueMarkerWithWaitList");
        return flushed(e, "clEnqueueMarkerWithWaitList");
    }

    @Override
    protected void finishAll() {
        OpenClCheck.check(clFinish(queue), "clFinish");
    }

    @Override
    protected void release() {
        clReleaseCommandQueue(queue);
    }
}
