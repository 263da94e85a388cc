package dev.tessera.gpu;

/**
 * What one device is: its backend and index within the backend, name, vendor, global
 * memory, compute units (streaming multiprocessors, OpenCL compute units, or threads of
 * the team for the CPU backend) and whether it computes in double precision.
 */
public record DeviceInfo(Backend backend, int index, String name, String vendor, long globalMemoryBytes,
                         int computeUnits, boolean doublePrecision, String version) {

    /** One line for listings: {@code opencl:0 pthread-znver4 (The pocl project), 2 CUs, 22.9 GiB, fp64, OpenCL 3.0 PoCL}. */
    public String describe() {
        return String.format("%s:%d %s (%s), %d compute units, %.1f GiB, %s, %s", backend.id(), index, name, vendor,
                computeUnits, globalMemoryBytes / (double) (1L << 30), doublePrecision ? "fp64" : "no fp64", version);
    }
}
