package dev.tessera.gpu.cpu;

import dev.tessera.gpu.AcceleratorException;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.CpuKernel;
import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.KernelSource;
import dev.tessera.gpu.Program;

/** A kernel source on the CPU backend: its Java bodies, looked up by kernel name. */
final class CpuProgram extends Program {

    CpuProgram(CpuAccelerator owner, KernelSource source) {
        super(owner, source);
    }

    @Override
    protected Kernel createKernel(String name) {
        CpuKernel body = source().cpuKernels().get(name);
        if (body == null) {
            throw new AcceleratorException(Backend.CPU, "kernel '" + name + "' of " + sourceName()
                    + " has no Java body for the CPU backend (register one with KernelSource.withCpu)");
        }
        return new CpuKernelHandle(this, name, body);
    }

    @Override
    protected void release() {
    }

    /** A kernel of the CPU backend: its Java body. */
    static final class CpuKernelHandle extends Kernel {
        private final CpuKernel body;

        CpuKernelHandle(Program program, String name, CpuKernel body) {
            super(program, name);
            this.body = body;
        }

        CpuKernel body() {
            return body;
        }
    }
}
