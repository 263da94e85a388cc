package dev.tessera.gpu;

import dev.tessera.task.RangeBody;

/**
 * One launch of a {@link CpuKernel}: the work size, the arguments (buffers as the Java
 * arrays that back them on the CPU backend, scalars unboxed) and a parallel loop over the
 * rank's team.
 */
public interface CpuLaunch {

    WorkSize size();

    double[] doubles(int arg);

    float[] floats(int arg);

    long[] longs(int arg);

    int[] ints(int arg);

    int intArg(int arg);

    long longArg(int arg);

    double doubleArg(int arg);

    float floatArg(int arg);

    /**
     * Runs {@code body} over [lo, hi): split over the team when the work ({@code hi - lo}
     * times {@code itemsPerIndex}) is large enough to pay for a fork, inline otherwise (so
     * small kernels such as halo packing do not wait for the team while a large one holds it).
     */
    void parallelFor(int lo, int hi, long itemsPerIndex, RangeBody body);
}
