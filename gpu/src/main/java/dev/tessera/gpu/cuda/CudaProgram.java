package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleUnload;

import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.KernelSource;
import dev.tessera.gpu.Program;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;

/** A module loaded from PTX that NVRTC compiled, and its functions. */
final class CudaProgram extends Program {

    private final CudaAccelerator cuda;
    private final CUmodule module;

    CudaProgram(CudaAccelerator owner, KernelSource source, CUmodule module) {
        super(owner, source);
        this.cuda = owner;
        this.module = module;
    }

    @Override
    protected Kernel createKernel(String name) {
        cuda.makeCurrent();
        CUfunction f = new CUfunction();
        CudaCheck.check(cuModuleGetFunction(f, module, name), "cuModuleGetFunction(" + name + ") in " + sourceName());
        return new CudaKernel(this, name, f);
    }

    @Override
    protected void release() {
        cuda.makeCurrent();
        cuModuleUnload(module);
    }

    static final class CudaKernel extends Kernel {
        final CUfunction function;

        CudaKernel(Program program, String name, CUfunction function) {
            super(program, name);
            this.function = function;
        }
    }
}
