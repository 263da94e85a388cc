package dev.tessera.device;

import java.util.Map;

/**
 * A device as the runtime and the launcher see it: a name, whether it can be used here, how
 * its ranks are started, and how a rank connects. Each device package registers one
 * provider (META-INF/services and module-info {@code provides}); {@link DeviceProviders}
 * finds them by name, so nothing above the device layer names a device class.
 *
 * <p>Adding a device is one package: a {@link Device} implementation and a provider.
 */
public interface DeviceProvider {

    /** How the ranks of a job on this device are started. */
    enum LaunchStyle {
        /** Ranks are threads of one JVM ({@link #createInProcess}). */
        IN_PROCESS,
        /** One process per rank, started by {@code tessera run} (or mpirun/srun) and connected by {@link #connect}. */
        PROCESSES,
        /** One process per rank, started by the device's own library launcher (mpirun for mpi). */
        LIBRARY_LAUNCHER
    }

    /** Whether a device can be used on this machine, and why (one line for {@code tessera info}). */
    record Availability(boolean usable, String reason) {
        public static Availability usable(String reason) {
            return new Availability(true, reason);
        }

        public static Availability unusable(String reason) {
            return new Availability(false, reason);
        }
    }

    /**
     * What a device shares with the devices it is composed with (the auto device joins tcp and
     * shm under one matching engine and one failure state).
     *
     * @param failure    the job's failure state
     * @param engine     the matching engine arriving messages go to
     * @param worldRanks for a device connecting a subset of the job: the world ranks of the
     *                   subset in group-rank order; null for the whole job
     */
    record Link(JobFailure failure, MatchingEngine engine, int[] worldRanks) {
        /** A stand-alone device: its own failure state and engine. */
        public static Link standalone() {
            return new Link(new JobFailure(), new MatchingEngine(), null);
        }
    }

    /** The device's name, as users type it ({@code --device NAME}, TESSERA_DEVICE). */
    String name();

    /** One line: what the device is for. */
    String description();

    LaunchStyle launchStyle();

    /** Whether the device can be used here, with the reason either way. */
    Availability availability(Map<String, String> variables);

    /**
     * Connects this process's rank to its job (collective over the job's ranks: every rank
     * connects, each from its own process).
     *
     * @throws UnsupportedOperationException for devices whose ranks are not processes
     */
    default ConnectedRank connect(JobEnvironment environment, Link link) {
        throw new UnsupportedOperationException("the " + name() + " device's ranks are not separate processes");
    }

    /**
     * Creates a job of {@code ranks} ranks inside this JVM (IN_PROCESS devices; every device
     * that can run a single-rank program on its own).
     *
     * @throws UnsupportedOperationException for devices whose ranks are processes
     */
    default InProcessJob createInProcess(int ranks) {
        throw new UnsupportedOperationException("the " + name() + " device runs one process per rank");
    }

    /** Removes what a job on this device may leave behind (shared-memory files), after the job. Best effort. */
    default void cleanUpAfter(String jobId, Map<String, String> variables) {
    }
}
