package dev.tessera.gpu.opencl;

import static org.jocl.CL.clReleaseMemObject;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.ElementType;
import org.jocl.cl_mem;

/** An OpenCL buffer object. */
final class OpenClBuffer extends DeviceBuffer {

    final cl_mem mem;

    OpenClBuffer(Accelerator owner, ElementType type, long count, cl_mem mem) {
        super(owner, type, count);
        this.mem = mem;
    }

    @Override
    protected void release() {
        OpenClCheck.check(clReleaseMemObject(mem), "clReleaseMemObject");
    }
}
