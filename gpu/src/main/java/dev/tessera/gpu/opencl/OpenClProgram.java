package dev.tessera.gpu.opencl;

import static org.jocl.CL.CL_KERNEL_NUM_ARGS;
import static org.jocl.CL.clCreateKernel;
import static org.jocl.CL.clGetKernelInfo;
import static org.jocl.CL.clReleaseKernel;
import static org.jocl.CL.clReleaseProgram;

import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.KernelSource;
import dev.tessera.gpu.Program;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_kernel;
import org.jocl.cl_program;

/** A built OpenCL program and its kernels. */
final class OpenClProgram extends Program {

    private final cl_program program;

    OpenClProgram(OpenClAccelerator owner, KernelSource source, cl_program program) {
        super(owner, source);
        this.program = program;
    }

    @Override
    protected Kernel createKernel(String name) {
        int[] err = new int[1];
        cl_kernel k = clCreateKernel(program, name, err);
        OpenClCheck.check(err[0], "clCreateKernel(" + name + ") in " + sourceName());
        int[] n = new int[1];
        OpenClCheck.check(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, Sizeof.cl_uint, Pointer.to(n), null),
                "clGetKernelInfo(" + name + ", CL_KERNEL_NUM_ARGS)");
        return new OpenClKernel(this, name, k, n[0]);
    }

    @Override
    protected void release() {
        for (Kernel k : createdKernels()) {
            clReleaseKernel(((OpenClKernel) k).kernel);
        }
        clReleaseProgram(program);
    }

    /** An OpenCL kernel object; launches lock it, since setting arguments and enqueueing are one step. */
    static final class OpenClKernel extends Kernel {
        final cl_kernel kernel;
        final int arity;

        OpenClKernel(Program program, String name, cl_kernel kernel, int arity) {
            super(program, name);
            this.kernel = kernel;
            this.arity = arity;
        }
    }
}
