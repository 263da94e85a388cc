package dev.tessera.device.shm;

import dev.tessera.device.ConnectedRank;
import dev.tessera.device.DeviceProvider;
import dev.tessera.device.JobEnvironment;
import dev.tessera.device.WaitMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Provides the shm device: one process per rank on one machine, lock-free rings in a file
 * under TESSERA_SHM_DIR (default /dev/shm) named after the job.
 */
public final class ShmProvider implements DeviceProvider {

    @Override
    public String name() {
        return "shm";
    }

    @Override
    public String description() {
        // read by `tessera info` only: builds the heap single copy's helper if it is not cached yet
        return "one process per rank on one machine, shared-memory rings; single copy (native memory): "
                + (SingleCopy.available() ? "on" : "off") + "; single copy of heap arrays: " + HeapCopy.status();
    }

    @Override
    public LaunchStyle launchStyle() {
        return LaunchStyle.PROCESSES;
    }

    /** The shared file of a job: TESSERA_SHM_DIR (default /dev/shm) / tessera-JOB. */
    public static Path shmFile(Map<String, String> variables, String job) {
        return Path.of(variables.getOrDefault("TESSERA_SHM_DIR", "/dev/shm"),
                "tessera-" + job.replaceAll("[^A-Za-z0-9_.-]", "_"));
    }

    @Override
    public Availability availability(Map<String, String> variables) {
        Path dir = Path.of(variables.getOrDefault("TESSERA_SHM_DIR", "/dev/shm"));
        return Files.isWritable(dir)
                ? Availability.usable("shared files in " + dir + " (TESSERA_SHM_DIR)")
                : Availability.unusable(dir + " is not writable: set TESSERA_SHM_DIR to a writable directory in memory");
    }

    @Override
    public ConnectedRank connect(JobEnvironment env, Link link) {
        String job = env.jobId();
        if (job == null) {
            throw new IllegalStateException("rank " + env.rank() + ": the shm device needs TESSERA_JOB_ID "
                    + "(set by tessera run) or an mpirun/srun job id to name its shared file");
        }
        int[] world = link.worldRanks() != null ? link.worldRanks() : IntStream.range(0, env.size()).toArray();
        // Inside the auto device the shm part is polled by the auto device's own wait loop: it never sleeps.
        WaitMode wait = link.worldRanks() != null ? WaitMode.SPIN : WaitMode.resolve(env.variables(), env.rank(), env.size());
        ShmDevice d = ShmFile.join(shmFile(env.variables(), job), env.rank(), env.size(), env.startTimeout(),
                link.failure(), link.engine(), world, wait);
        return new ConnectedRank(d, env.rank(), env.size(), env.nodeId(), job);
    }

    @Override
    public void cleanUpAfter(String jobId, Map<String, String> variables) {
        Path file = shmFile(variables, jobId);
        try (Stream<Path> s = Files.list(file.getParent())) {
            s.filter(p -> p.getFileName().toString().startsWith(file.getFileName().toString())).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort: the next job of the same id deletes it first
                }
            });
        } catch (IOException ignored) {
            // the directory is gone: nothing to clean
        }
    }
}
