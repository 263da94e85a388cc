package dev.tessera.device;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What a process rank knows about its job before it connects, built once by the runtime
 * from the launcher's variables (Tessera's launcher, Open MPI's mpirun, Slurm, PMI) and
 * handed to a {@link DeviceProvider}. Devices read their own settings (eager limits,
 * directories, interfaces) from {@link #variable} rather than from the process environment,
 * so a test or an embedding program can connect a rank with variables of its choosing.
 *
 * @param rank         this rank in the job, or -1 where the device itself decides (mpi)
 * @param size         ranks in the job, or -1 where the device itself decides
 * @param localRank    this rank's index among the ranks of its node, as the launcher said (-1: unknown)
 * @param localSize    ranks on this rank's node, as the launcher said (-1: unknown)
 * @param nodeId       index of this rank's node, as the launcher said (0 when unknown)
 * @param nodeName     name of this rank's node (TESSERA_NODE, else the host name)
 * @param jobId        the job's id (TESSERA_JOB_ID, else the launcher's job id), or null
 * @param secret       the job secret (TESSERA_SECRET), or null
 * @param startTimeout how long ranks wait for each other while connecting
 * @param variables    every variable the launcher passed (the process environment, normally)
 */
public record JobEnvironment(int rank, int size, int localRank, int localSize, int nodeId, String nodeName,
        String jobId, String secret, Duration startTimeout, Map<String, String> variables) {

    public JobEnvironment {
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(startTimeout, "startTimeout");
        variables = Map.copyOf(variables);
    }

    /** A launcher variable, or null. */
    public String variable(String name) {
        return variables.get(name);
    }

    /** A launcher variable, or {@code fallback} when it is absent or blank. */
    public String variable(String name, String fallback) {
        String v = variables.get(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** A numeric launcher variable, or {@code fallback}; a malformed value is an error naming the variable. */
    public long longVariable(String name, long fallback) {
        String v = variable(name, null);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rank " + rank + ": " + name + "=" + v + " is not a number", e);
        }
    }

    /** The same job seen by a subset of its ranks (a node's ranks for the auto device's shared memory). */
    public JobEnvironment forGroup(int groupRank, int groupSize, String groupJobId) {
        return new JobEnvironment(groupRank, groupSize, groupRank, groupSize, nodeId, nodeName, groupJobId, secret,
                startTimeout, variables);
    }
}
