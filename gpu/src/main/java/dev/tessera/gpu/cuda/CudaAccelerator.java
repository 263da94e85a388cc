package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRelease;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemAllocHost;
import static jcuda.driver.JCudaDriver.cuMemFreeHost;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;
import static jcuda.driver.JCudaDriver.cuStreamCreate;
import static jcuda.nvrtc.JNvrtc.nvrtcCompileProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcCreateProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcDestroyProgram;
import static jcuda.nvrtc.JNvrtc.nvrtcGetPTX;
import static jcuda.nvrtc.JNvrtc.nvrtcGetProgramLog;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorException;
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
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.CUstream_flags;
import jcuda.nvrtc.nvrtcProgram;
import jcuda.nvrtc.nvrtcResult;

/**
 * One CUDA device through its primary context, made current on whichever thread calls
 * (ranks, queues and cleaners may all be different threads). Kernels are compiled by
 * NVRTC for the device's compute capability with {@code --fmad=false} (no contraction,
 * like the OpenCL prelude), then loaded as PTX. Host buffers are page-locked
 * ({@code cuMemAllocHost}).
 */
final class CudaAccelerator extends Accelerator {

    private final CUdevice device;
    private final CUcontext context;
    private final int ccMajor;
    private final int ccMinor;

    CudaAccelerator(DeviceInfo info, CUdevice device, CUcontext context, int ccMajor, int ccMinor) {
        super(info);
        this.device = device;
        this.context = context;
        this.ccMajor = ccMajor;
        this.ccMinor = ccMinor;
    }

    CUcontext context() {
        return context;
    }

    void makeCurrent() {
        CudaCheck.check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
    }

    @Override
    protected DeviceBuffer allocateBuffer(ElementType type, long count) {
        makeCurrent();
        CUdeviceptr p = new CUdeviceptr();
        int r = cuMemAlloc(p, count * type.byteSize());
        if (r != 0) {
            throw new AcceleratorException(Backend.CUDA, "cuMemAlloc", jcuda.driver.CUresult.stringFor(r), r,
                    "(" + count + " x " + type + ")");
        }
        return new CudaBuffer(this, type, count, p);
    }

    @Override
    protected HostBuffer allocateHostBuffer(long bytes) {
        makeCurrent();
        Pointer p = new Pointer();
        CudaCheck.check(cuMemAllocHost(p, bytes), "cuMemAllocHost(" + bytes + " bytes)");
        return new HostBuffer(MemorySegment.ofBuffer(p.getByteBuffer(0, bytes)), true) {
            @Override
            protected void release() {
                makeCurrent();
                CudaCheck.check(cuMemFreeHost(p), "cuMemFreeHost");
            }
        };
    }

    @Override
    protected Queue newQueue() {
        makeCurrent();
        CUstream s = new CUstream();
        CudaCheck.check(cuStreamCreate(s, CUstream_flags.CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        return new CudaQueue(this, s);
    }

    @Override
    protected Program build(KernelSource source) {
        makeCurrent();
        nvrtcProgram program = new nvrtcProgram();
        int r = nvrtcCreateProgram(program, source.text(Backend.CUDA), source.name(), 0, null, null);
        if (r != nvrtcResult.NVRTC_SUCCESS) {
            throw new AcceleratorException(Backend.CUDA, "nvrtcCreateProgram", nvrtcResult.stringFor(r), r, null);
        }
        try {
            String[] options = {"--gpu-architecture=compute_" + ccMajor + ccMinor, "--fmad=false"};
            r = nvrtcCompileProgram(program, options.length, options);
            String[] log = new String[1];
            nvrtcGetProgramLog(program, log);
            if (r != nvrtcResult.NVRTC_SUCCESS) {
                throw new KernelCompileException(Backend.CUDA, "nvrtcCompileProgram", nvrtcResult.stringFor(r), r,
                        source.name(), log[0] == null ? "(no log)" : log[0]);
            }
            String[] ptx = new String[1];
            r = nvrtcGetPTX(program, ptx);
            if (r != nvrtcResult.NVRTC_SUCCESS) {
                throw new AcceleratorException(Backend.CUDA, "nvrtcGetPTX", nvrtcResult.stringFor(r), r, null);
            }
            CUmodule module = new CUmodule();
            CudaCheck.check(cuModuleLoadData(module, ptx[0]), "cuModuleLoadData(" + source.name() + ")");
            return new CudaProgram(this, source, module);
        } finally {
            nvrtcDestroyProgram(program);
        }
    }

    @Override
    protected void closeContext() {
        cuDevicePrimaryCtxRelease(device);
    }
}
