package dev.tessera.gpu.opencl;

import static org.jocl.CL.CL_CONTEXT_PLATFORM;
import static org.jocl.CL.CL_DEVICE_DOUBLE_FP_CONFIG;
import static org.jocl.CL.CL_DEVICE_GLOBAL_MEM_SIZE;
import static org.jocl.CL.CL_DEVICE_MAX_COMPUTE_UNITS;
import static org.jocl.CL.CL_DEVICE_NAME;
import static org.jocl.CL.CL_DEVICE_NOT_FOUND;
import static org.jocl.CL.CL_DEVICE_TYPE;
import static org.jocl.CL.CL_DEVICE_TYPE_ALL;
import static org.jocl.CL.CL_DEVICE_TYPE_CPU;
import static org.jocl.CL.CL_DEVICE_VENDOR;
import static org.jocl.CL.CL_DEVICE_VERSION;
import static org.jocl.CL.CL_SUCCESS;
import static org.jocl.CL.clCreateContext;
import static org.jocl.CL.clGetDeviceIDs;
import static org.jocl.CL.clGetDeviceInfo;
import static org.jocl.CL.clGetPlatformIDs;

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
import org.jocl.CL;
import org.jocl.Pointer;
import org.jocl.Sizeof;
import org.jocl.cl_context;
import org.jocl.cl_context_properties;
import org.jocl.cl_device_id;
import org.jocl.cl_platform_id;

/**
 * OpenCL through JOCL. Devices of every platform, numbered in platform order. The probe
 * checks, in order, each thing that can be missing and names the first: the ICD loader
 * ({@code libOpenCL.so}, which JOCL opens by that exact name), JOCL's own JNI library, a
 * platform (a vendor driver registered in {@code /etc/OpenCL/vendors}), a device.
 */
public final class OpenClBackend implements AcceleratorBackend {

    /** JOCL's JNI library as its loader names it (see org.jocl.CL.loadNativeLibrary). */
    private static final String JOCL_LIBRARY = "libJOCL_2_0_5-linux-x86_64.so";

    private record Found(DeviceInfo info, cl_platform_id platform, cl_device_id device, boolean cpu) {
    }

    private List<Found> found;
    private BackendStatus status;

    @Override
    public Backend kind() {
        return Backend.OPENCL;
    }

    @Override
    public synchronized BackendStatus probe() {
        if (status == null) {
            status = discover();
        }
        return status;
    }

    private BackendStatus discover() {
        found = List.of();
        if (NativeLibraries.firstLoadable("libOpenCL.so") == null) {
            return BackendStatus.unavailable(Backend.OPENCL, NativeLibraries.firstLoadable("libOpenCL.so.1") == null
                    ? "no OpenCL ICD loader (libOpenCL.so): install ocl-icd-libopencl1 and ocl-icd-opencl-dev, and a driver "
                      + "(pocl-opencl-icd runs OpenCL on the CPU)"
                    : "libOpenCL.so.1 is installed but not libOpenCL.so, which JOCL opens: install ocl-icd-opencl-dev");
        }
        try {
            if (System.getProperty("os.name", "").toLowerCase().contains("linux")
                    && "amd64".equals(System.getProperty("os.arch"))) {
                NativeLibraries.preExtract("/lib/" + JOCL_LIBRARY, JOCL_LIBRARY);
            }
            CL.setExceptionsEnabled(false);
            int[] n = new int[1];
            int r = clGetPlatformIDs(0, null, n);
            if (r != CL_SUCCESS || n[0] == 0) {
                return BackendStatus.unavailable(Backend.OPENCL, "no OpenCL platform ("
                        + (r == CL_SUCCESS ? "none" : CL.stringFor_errorCode(r)) + "): no driver is registered in "
                        + "/etc/OpenCL/vendors (install a GPU driver, or pocl-opencl-icd for the CPU)");
            }
            cl_platform_id[] platforms = new cl_platform_id[n[0]];
            OpenClCheck.check(clGetPlatformIDs(n[0], platforms, null), "clGetPlatformIDs");
            List<Found> all = new ArrayList<>();
            for (cl_platform_id p : platforms) {
                int[] count = new int[1];
                r = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, null, count);
                if (r == CL_DEVICE_NOT_FOUND || count[0] == 0) {
                    continue;
                }
                OpenClCheck.check(r, "clGetDeviceIDs");
                cl_device_id[] devices = new cl_device_id[count[0]];
                OpenClCheck.check(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count[0], devices, null), "clGetDeviceIDs");
                for (cl_device_id d : devices) {
                    boolean cpu = (longInfo(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
                    DeviceInfo info = new DeviceInfo(Backend.OPENCL, all.size(), stringInfo(d, CL_DEVICE_NAME),
                            stringInfo(d, CL_DEVICE_VENDOR), longInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE),
                            intInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS), longInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG) != 0,
                            stringInfo(d, CL_DEVICE_VERSION));
                    all.add(new Found(info, p, d, cpu));
                }
            }
            if (all.isEmpty()) {
                return BackendStatus.unavailable(Backend.OPENCL, n[0] + " OpenCL platform(s) but no device");
            }
            found = List.copyOf(all);
            return BackendStatus.available(Backend.OPENCL, all.stream().map(Found::info).toList());
        } catch (LinkageError e) {
            return BackendStatus.unavailable(Backend.OPENCL, NativeLibraries.explainLinkageError("JOCL", e));
        } catch (RuntimeException e) {
            return BackendStatus.unavailable(Backend.OPENCL, NativeLibraries.firstLine(e));
        }
    }

    @Override
    public Accelerator open(int index, Team team) {
        BackendStatus s = probe();
        if (!s.isAvailable()) {
            throw new IllegalStateException("opencl is unavailable: " + s.unavailableReason());
        }
        if (index < 0 || index >= found.size()) {
            throw new IllegalArgumentException("opencl has " + found.size() + " device(s), no index " + index);
        }
        Found f = found.get(index);
        cl_context_properties props = new cl_context_properties();
        props.addProperty(CL_CONTEXT_PLATFORM, f.platform());
        int[] err = new int[1];
        cl_context context = clCreateContext(props, 1, new cl_device_id[] {f.device()}, null, null, err);
        OpenClCheck.check(err, "clCreateContext");
        return new OpenClAccelerator(f.info(), f.device(), context, f.cpu());
    }

    private static String stringInfo(cl_device_id d, int param) {
        long[] size = new long[1];
        OpenClCheck.check(clGetDeviceInfo(d, param, 0, null, size), "clGetDeviceInfo");
        byte[] b = new byte[(int) size[0]];
        OpenClCheck.check(clGetDeviceInfo(d, param, b.length, Pointer.to(b), null), "clGetDeviceInfo");
        return new String(b, 0, Math.max(0, b.length - 1), StandardCharsets.UTF_8).strip();
    }

    private static long longInfo(cl_device_id d, int param) {
        long[] v = new long[1];
        OpenClCheck.check(clGetDeviceInfo(d, param, Sizeof.cl_long, Pointer.to(v), null), "clGetDeviceInfo");
        return v[0];
    }

    private static int intInfo(cl_device_id d, int param) {
        int[] v = new int[1];
        OpenClCheck.check(clGetDeviceInfo(d, param, Sizeof.cl_int, Pointer.to(v), null), "clGetDeviceInfo");
        return v[0];
    }
}
