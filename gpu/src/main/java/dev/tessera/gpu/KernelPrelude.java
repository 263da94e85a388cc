package dev.tessera.gpu;

/**
 * The macros that let one kernel source serve OpenCL C and CUDA C++. A kernel is written
 * as
 * <pre>{@code
 * KERNEL scale_double(GLOBAL double* RESTRICT a, double s, long n) {
 *     long i = GLOBAL_ID(0);
 *     if (i < n) a[i] *= s;
 * }
 * }</pre>
 * <ul>
 *   <li>{@code KERNEL}: a kernel returning void ({@code __kernel void} / {@code extern "C" __global__ void},
 *       unmangled so the host finds it by name);</li>
 *   <li>{@code GLOBAL}: a pointer into device memory ({@code __global} / nothing);</li>
 *   <li>{@code GLOBAL_ID(d)}: the work item's index in dimension d = 0, 1, 2 ({@code get_global_id}
 *       / {@code blockIdx * blockDim + threadIdx}); CUDA rounds the index space up to whole blocks,
 *       so every kernel checks its bounds against sizes passed as arguments;</li>
 *   <li>{@code RESTRICT}: no aliasing ({@code restrict} / {@code __restrict__});</li>
 *   <li>{@code TESSERA_OPENCL} or {@code TESSERA_CUDA} is defined for what differs.</li>
 * </ul>
 * Floating-point contraction (fused multiply-add) is off on both, so a kernel computes
 * what the same expression computes in Java, bit for bit, where the device is IEEE 754:
 * the CPU backend is a reference and not only an approximation.
 */
public final class KernelPrelude {

    private KernelPrelude() {
    }

    /** The prelude for {@code backend} (the CPU backend compiles nothing and gets none). */
    public static String forBackend(Backend backend) {
        return switch (backend) {
            case OPENCL -> """
                    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
                    #pragma OPENCL FP_CONTRACT OFF
                    #define TESSERA_OPENCL 1
                    #define KERNEL __kernel void
                    #define GLOBAL __global
                    #define RESTRICT restrict
                    #define GLOBAL_ID(d) ((long) get_global_id(d))
                    """;
            case CUDA -> """
                    #define TESSERA_CUDA 1
                    #define KERNEL extern "C" __global__ void
                    #define GLOBAL
                    #define RESTRICT __restrict__
                    #define TESSERA_GID_0 ((long) blockIdx.x * blockDim.x + threadIdx.x)
                    #define TESSERA_GID_1 ((long) blockIdx.y * blockDim.y + threadIdx.y)
                    #define TESSERA_GID_2 ((long) blockIdx.z * blockDim.z + threadIdx.z)
                    #define GLOBAL_ID(d) TESSERA_GID_##d
                    """;
            case CPU -> "";
        };
    }
}
