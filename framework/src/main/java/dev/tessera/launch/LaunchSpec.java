package dev.tessera.launch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Everything {@code bin/tessera run} was asked to start: ranks, placement, device,
 * threads per rank, and the program (class path, main class, arguments).
 *
 * @param ranks         number of ranks (-np)
 * @param ranksPerNode  ranks per host (--ppn), or 0 to fill hosts evenly
 * @param hosts         hosts to run on (--hosts / --hostfile); empty means this machine only
 * @param threads       threads per rank (--threads), or 0 for the default
 * @param device        smp, shm, tcp, auto or mpi
 * @param tagOutput     prefix every output line with the rank (--tag-output)
 * @param classPath     the program's class path entries
 * @param mainClass     the program's main class
 * @param args          the program's arguments
 * @param jvmOptions    extra JVM options for rank processes
 * @param startTimeout  how long ranks wait for each other at startup
 * @param bindToCore    bind each rank process's main thread, or each smp rank thread, to its own cores (--bind-to core, the default)
 */
public record LaunchSpec(int ranks, int ranksPerNode, List<String> hosts, int threads, String device,
                         boolean tagOutput, List<Path> classPath, String mainClass, List<String> args,
                         List<String> jvmOptions, Duration startTimeout, boolean bindToCore) {

    /**
     * How long the other ranks get to end by themselves once one rank has failed, before the
     * launcher ends the job: rank processes are killed, smp rank threads cut off (both launchers).
     */
    public static final long RANK_FAILURE_GRACE_MILLIS = 10_000;

    /** A spec with ranks bound to cores (the default of {@code tessera run}). */
    public LaunchSpec(int ranks, int ranksPerNode, List<String> hosts, int threads, String device,
                      boolean tagOutput, List<Path> classPath, String mainClass, List<String> args,
                      List<String> jvmOptions, Duration startTimeout) {
        this(ranks, ranksPerNode, hosts, threads, device, tagOutput, classPath, mainClass, args, jvmOptions,
                startTimeout, true);
    }
}
