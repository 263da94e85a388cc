package dev.tessera.gpu;

/**
 * The Java body of a kernel for the CPU backend, registered with
 * {@link KernelSource#withCpu}. It runs once per launch (not once per work item) and
 * usually splits its outer loop with {@link CpuLaunch#parallelFor}.
 */
@FunctionalInterface
public interface CpuKernel {
    void run(CpuLaunch launch);
}
