package dev.tessera.npb;

import dev.tessera.comm.Comm;
import dev.tessera.task.Team;

/**
 * One NAS Parallel Benchmark kernel, distributed over the ranks of a communicator the way
 * NPB-MPI distributes it, with the work inside each rank spread over the rank's team.
 */
public interface NpbKernel {

    /** Benchmark name as the reference prints it ("EP", "IS", "CG", "MG", "FT"). */
    String name();

    /**
     * Checks, before any work, that this kernel can run class {@code problemClass} on
     * {@code ranks} ranks; throws IllegalArgumentException with one clear line otherwise
     * (wrong class letter, a rank count the reference does not allow).
     */
    void check(char problemClass, int ranks);

    /** Runs the benchmark (setup, untimed warm-up as the reference does, timed part, verification). Collective over {@code world}. */
    KernelResult run(Comm world, Team team, char problemClass);
}
