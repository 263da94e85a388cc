package dev.tessera.gpu.cuda;

import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDeviceTotalMem;
import static jcuda.driver.JCudaDriver.cuInit;

import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorBackend;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.BackendStatus;
import dev.tessera.gpu.DeviceInfo;
import dev.tessera.gpu.NativeLibraries;
import dev.tessera.task.Team;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import jcuda.nvrtc.JNvrtc;

/**
 * CUDA through JCuda's driver API and NVRTC. The probe checks, before any JNI class is
 * touched, the things a machine may lack and names the first one missing: the NVIDIA
 * driver ({@code libcuda.so.1}), then a device ({@code cuInit}, {@code cuDeviceGetCount}),
 * then NVRTC ({@code libnvrtc.so.12}, from the CUDA toolkit) for run-time compilation.
 * JCuda's JNI libraries are extracted by {@link NativeLibraries#preExtract} first, so ranks
 * starting together on one node do not race on JCuda's fixed temporary file names.
 */
public final class CudaBackend implements AcceleratorBackend {

    private static final String VERSION = "12.0.0";
    private static final String DRIVER_LIBRARY = "libJCudaDriver-" + VERSION + "-linux-x86_64.so";
    private static final String NVRTC_LIBRARY = "libJNvrtc-" + VERSION + "-linux-x86_64.so";

    private record Found(DeviceInfo info, int ordinal, int ccMajor, int ccMinor) {
    }

    private List<Found> found = List.of();
    private BackendStatus status;

    @Override
    public Backend kind() {
        return Backend.CUDA;
    }

    @Override
    public synchronized BackendStatus probe() {
        if (status == null) {
            status = discover();
        }
        return status;
    }

    private BackendStatus discover() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")
                || !"amd64".equals(System.getProperty("os.arch"))) {
            return BackendStatus.unavailable(Backend.CUDA, "the bundled JCuda natives are for linux-x86_64, this is "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        if (NativeLibraries.firstLoadable("libcuda.so.1", "libcuda.so") == null) {
            return BackendStatus.unavailable(Backend.CUDA, "no CUDA driver (libcuda.so.1 not found): no NVIDIA GPU "
                    + "driver on this machine");
        }
        try {
            NativeLibraries.preExtract("/lib/" + DRIVER_LIBRARY, DRIVER_LIBRARY);
            JCudaDriver.setExceptionsEnabled(false);
            int r = cuInit(0);
            if (r != CUresult.CUDA_SUCCESS) {
                return BackendStatus.unavailable(Backend.CUDA, "cuInit: " + CUresult.stringFor(r) + " (" + r + ")");
            }
            int[] count = new int[1];
            r = cuDeviceGetCount(count);
            if (r != CUresult.CUDA_SUCCESS || count[0] == 0) {
                return BackendStatus.unavailable(Backend.CUDA, "no CUDA device ("
                        + (r == 0 ? "cuDeviceGetCount: 0" : CUresult.stringFor(r)) + ")");
            }
            List<Found> all = new ArrayList<>();
            for (int i = 0; i < count[0]; i++) {
                CUdevice d = new CUdevice();
                CudaCheck.check(cuDeviceGet(d, i), "cuDeviceGet");
                byte[] name = new byte[256];
                CudaCheck.check(cuDeviceGetName(name, name.length, d), "cuDeviceGetName");
                long[] mem = new long[1];
                CudaCheck.check(cuDeviceTotalMem(mem, d), "cuDeviceTotalMem");
                int sms = attribute(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
                int major = attribute(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
                int minor = attribute(d, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
                all.add(new Found(new DeviceInfo(Backend.CUDA, i, cString(name), "NVIDIA", mem[0], sms, true,
                        "compute capability " + major + "." + minor), i, major, minor));
            }
            if (NativeLibraries.firstLoadable("libnvrtc.so.12", "libnvrtc.so") == null) {
                return BackendStatus.unavailable(Backend.CUDA, count[0] + " CUDA device(s) but no NVRTC "
                        + "(libnvrtc.so.12) to compile kernels: install the CUDA toolkit's cuda-nvrtc-12 and put its "
                        + "lib64 on LD_LIBRARY_PATH");
            }
            NativeLibraries.preExtract("/lib/" + NVRTC_LIBRARY, NVRTC_LIBRARY);
            JNvrtc.setExceptionsEnabled(false);
            found = List.copyOf(all);
            return BackendStatus.available(Backend.CUDA, all.stream().map(Found::info).toList());
        } catch (LinkageError e) {
            return BackendStatus.unavailable(Backend.CUDA, NativeLibraries.explainLinkageError("JCuda", e));
        } catch (RuntimeException e) {
            return BackendStatus.unavailable(Backend.CUDA, NativeLibraries.firstLine(e));
        }
    }

    private static int attribute(CUdevice d, int attribute) {
        int[] v = new int[1];
        CudaCheck.check(cuDeviceGetAttribute(v, attribute, d), "cuDeviceGetAttribute(" + attribute + ")");
        return v[0];
    }

    private static String cString(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public Accelerator open(int index, Team team) {
        BackendStatus s = probe();
        if (!s.isAvailable()) {
            throw new IllegalStateException("cuda is unavailable: " + s.unavailableReason());
        }
        if (index < 0 || index >= found.size()) {
            throw new IllegalArgumentException("cuda has " + found.size() + " device(s), no index " + index);
        }
        Found f = found.get(index);
        CUdevice d = new CUdevice();
        CudaCheck.check(cuDeviceGet(d, f.ordinal()), "cuDeviceGet");
        CUcontext ctx = new CUcontext();
        CudaCheck.check(cuDevicePrimaryCtxRetain(ctx, d), "cuDevicePrimaryCtxRetain");
        return new CudaAccelerator(f.info(), d, ctx, f.ccMajor(), f.ccMinor());
    }
}
