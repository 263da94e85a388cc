package dev.tessera.device.mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.ConnectedRank;
import dev.tessera.device.DeviceProvider;
import dev.tessera.device.JobEnvironment;
import java.util.Map;

/**
 * Provides the mpi device: the system's MPI library through FFM, for jobs that mpirun or
 * srun start. Rank and size come from MPI itself. TESSERA_MPI_COLLECTIVES=native (or
 * -Dtessera.mpi.collectives=native) hands the common collectives to the library.
 */
public final class MpiProvider implements DeviceProvider {

    @Override
    public String name() {
        return "mpi";
    }

    @Override
    public String description() {
        return "the system's MPI library (Open MPI, MPICH) through FFM, started by its mpirun";
    }

    @Override
    public LaunchStyle launchStyle() {
        return LaunchStyle.LIBRARY_LAUNCHER;
    }

    @Override
    public Availability availability(Map<String, String> variables) {
        try {
            MpiLibrary lib = MpiLibrary.load();
            return Availability.usable(lib.libraryVersion() + "\n             library " + lib.libraryFile()
                    + "\n             ABI " + lib.abi() + ", MPI " + lib.mpiVersion() + " headers; start with "
                    + "tessera run --device mpi or mpirun with TESSERA_DEVICE=mpi");
        } catch (TesseraException e) {
            return Availability.unusable(e.getMessage());
        }
    }

    @Override
    public ConnectedRank connect(JobEnvironment env, Link link) {
        String collectives = System.getProperty("tessera.mpi.collectives",
                env.variable("TESSERA_MPI_COLLECTIVES", "tessera"));
        if (!collectives.equals("native") && !collectives.equals("tessera")) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_MPI_COLLECTIVES=" + collectives
                    + " is not valid (native: the MPI library's collectives; tessera: Tessera's algorithms)");
        }
        long eager = env.longVariable("TESSERA_EAGER_LIMIT", MpiDevice.DEFAULT_EAGER_LIMIT);
        MpiDevice d;
        try {
            d = MpiDevice.init(link.failure(), eager, collectives.equals("native"));
        } catch (TesseraException e) {
            // Like a failed MPI_Init: one line saying what was looked for, then exit (no stack trace).
            System.err.println("tessera: rank " + env.variable("OMPI_COMM_WORLD_RANK", env.variable("PMI_RANK", "?"))
                    + ": " + e.getMessage());
            System.err.flush();
            System.exit(1);
            throw e;
        }
        int localRank = env.localRank() >= 0 ? env.localRank() : 0;
        int localSize = env.localSize() >= 0 ? env.localSize() : d.size();
        if (localRank == 0 && !"0".equals(env.variable("TESSERA_MPI_CLEAN_SHM", "1"))) {
            StaleSegments.removeInBackground(java.nio.file.Path.of("/dev/shm"));
        }
        String job = env.jobId() != null ? env.jobId() : "mpi";
        return new ConnectedRank(d, localRank, localSize, env.nodeId(), job);
    }
}
