package dev.tessera.gpu;

import dev.tessera.launch.InfoSection;
import java.util.List;

/**
 * The accelerators section of {@code tessera info}: found by the framework through
 * {@link java.util.ServiceLoader} when this module is on the class path (the framework
 * does not depend on it). The same lines as {@code tessera gpu-info}.
 */
public final class GpuInfoSection implements InfoSection {

    @Override
    public String title() {
        return "Accelerators (--accel cuda|opencl|cpu[:INDEX], TESSERA_ACCEL; default CUDA > OpenCL > CPU)";
    }

    @Override
    public List<String> lines() {
        return GpuInfo.lines();
    }
}
