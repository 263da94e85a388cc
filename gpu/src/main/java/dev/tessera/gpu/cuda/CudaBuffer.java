package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuMemFree;

import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.ElementType;
import jcuda.driver.CUdeviceptr;

/** Device memory from {@code cuMemAlloc}. */
final class CudaBuffer extends DeviceBuffer {

    final CUdeviceptr ptr;
    private final CudaAccelerator cuda;

    CudaBuffer(CudaAccelerator owner, ElementType type, long count, CUdeviceptr ptr) {
        super(owner, type, count);
        this.cuda = owner;
        this.ptr = ptr;
    }

    @Override
    protected void release() {
        cuda.makeCurrent();
        CudaCheck.check(cuMemFree(ptr), "cuMemFree");
    }
}
