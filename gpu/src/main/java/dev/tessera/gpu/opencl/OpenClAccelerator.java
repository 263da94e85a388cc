package dev.tessera.gpu.opencl;

import static org.jocl.CL.CL_MAP_READ;
import static org.jocl.CL.CL_MAP_WRITE;
import static org.jocl.CL.CL_MEM_ALLOC_HOST_PTR;
import static org.jocl.CL.CL_MEM_READ_WRITE;
import static org.jocl.CL.CL_PROGRAM_BUILD_LOG;
import static org.jocl.CL.CL_SUCCESS;
import static org.jocl.CL.clBuildProgram;
import static org.jocl.CL.clCreateBuffer;
import static org.jocl.CL.clCreateProgramWithSource;
import static org.jocl.CL.clEnqueueMapBuffer;
import static org.jocl.CL.clEnqueueUnmapMemObject;
import static org.jocl.CL.clFinish;
import static org.jocl.CL.clGetProgramBuildInfo;
import static org.jocl.CL.clReleaseCommandQueue;
import static org.jocl.CL.clReleaseContext;
import static org.jocl.CL.clReleaseMemObject;
import static org.jocl.CL.clReleaseProgram;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.DeviceInfo;
import dev.tessera.gpu.ElementType;
import dev.tessera.gpu.HostBuffer;
import dev.tessera.gpu.KernelCompileException;
import dev.tessera.gpu.KernelSource;
import dev.tessera.gpu.Program;
import dev.tessera.gpu.Queue;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.cl_command_queue;
import org.jocl.cl_context;
import org.jocl.cl_device_id;
import org.jocl.cl_mem;
import org.jocl.cl_program;

/**
 * One OpenCL device in a context of its own. Host buffers are driver-allocated
 * ({@code CL_MEM_ALLOC_HOST_PTR}) and mapped once: page-locked on GPU drivers, so
 * transfers from them are asynchronous DMA; on a CPU device (PoCL) they are ordinary memory.
 */
final class OpenClAccelerator extends Accelerator {

    private final cl_device_id device;
    private final cl_context context;
    private final boolean cpuDevice;
    /** For mapping host buffers: a queue of its own so a mapping never waits behind user work. */
    private final cl_command_queue mapQueue;

    OpenClAccelerator(DeviceInfo info, cl_device_id device, cl_context context, boolean cpuDevice) {
        super(info);
        this.device = device;
        this.context = context;
        this.cpuDevice = cpuDevice;
        this.mapQueue = createCommandQueue();
    }

    @SuppressWarnings("deprecation")
    private cl_command_queue createCommandQueue() {
        // clCreateCommandQueue (1.2) rather than ...WithProperties (2.0): it exists on every platform.
        int[] err = new int[1];
        cl_command_queue q = CL.clCreateCommandQueue(context, device, 0, err);
        OpenClCheck.check(err, "clCreateCommandQueue");
        return q;
    }

    @Override
    protected DeviceBuffer allocateBuffer(ElementType type, long count) {
        int[] err = new int[1];
        cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, count * type.byteSize(), null, err);
        if (err[0] != CL_SUCCESS) {
            throw OpenClCheck.failure(err[0], "clCreateBuffer", "(" + count + " x " + type + ")");
        }
        return new OpenClBuffer(this, type, count, mem);
    }

    @Override
    protected HostBuffer allocateHostBuffer(long bytes) {
        int[] err = new int[1];
        cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, null, err);
        OpenClCheck.check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR, " + bytes + " bytes)");
        ByteBuffer mapped = clEnqueueMapBuffer(mapQueue, mem, true, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, null, null,
                err);
        if (err[0] != CL_SUCCESS) {
            clReleaseMemObject(mem);
            throw OpenClCheck.failure(err[0], "clEnqueueMapBuffer", null);
        }
        return new HostBuffer(MemorySegment.ofBuffer(mapped), !cpuDevice) {
            @Override
            protected void release() {
                OpenClCheck.check(clEnqueueUnmapMemObject(mapQueue, mem, mapped, 0, null, null), "clEnqueueUnmapMemObject");
                OpenClCheck.check(clFinish(mapQueue), "clFinish");
                OpenClCheck.check(clReleaseMemObject(mem), "clReleaseMemObject");
            }
        };
    }

    @Override
    protected Queue newQueue() {
        return new OpenClQueue(this, createCommandQueue());
    }

    @Override
    protected Program build(KernelSource source) {
        int[] err = new int[1];
        cl_program program = clCreateProgramWithSource(context, 1, new String[] {source.text(Backend.OPENCL)}, null, err);
        OpenClCheck.check(err, "clCreateProgramWithSource(" + source.name() + ")");
        int status = clBuildProgram(program, 1, new cl_device_id[] {device}, "", null, null);
        if (status != CL_SUCCESS) {
            String log = buildLog(program);
            clReleaseProgram(program);
            throw new KernelCompileException(Backend.OPENCL, "clBuildProgram", CL.stringFor_errorCode(status), status,
                    source.name(), log);
        }
        return new OpenClProgram(this, source, program);
    }

    private String buildLog(cl_program program) {
        long[] size = new long[1];
        if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, null, size) != CL_SUCCESS || size[0] <= 1) {
            return "(no build log)";
        }
        byte[] log = new byte[(int) size[0]];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log.length, Pointer.to(log), null);
        return new String(log, 0, log.length - 1, StandardCharsets.UTF_8);
    }

    @Override
    protected void closeContext() {
        clReleaseCommandQueue(mapQueue);
        clReleaseContext(context);
    }
}
