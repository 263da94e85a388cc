package dev.tessera.launch;

import dev.tessera.device.smp.SmpFabric;
import dev.tessera.runtime.Tessera;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code tessera info}: what this installation can do on this machine. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Prints the Tessera version, the JVM, the machine and the available devices.")
final class InfoCommand implements Callable<Integer> {

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** The MPI library the mpi device would use (compiles the shim on first use), or why there is none. */
    private static String mpiLine() {
        try {
            dev.tessera.device.mpi.MpiLibrary lib = dev.tessera.device.mpi.MpiLibrary.load();
            return "available: " + lib.libraryVersion() + "\n             library " + lib.libraryFile()
                    + "\n             ABI " + lib.abi() + ", MPI " + lib.mpiVersion() + " headers; start with "
                    + "tessera run --device mpi or mpirun with TESSERA_DEVICE=mpi";
        } catch (dev.tessera.TesseraException e) {
            return "NOT available: " + e.getMessage();
        }
    }

    @Override
    public Integer call() {
        Runtime rt = Runtime.getRuntime();
        System.out.println("Tessera " + Tessera.VERSION);
        System.out.println("Java:        " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name")
                + " (" + System.getProperty("java.home") + ")");
        System.out.println("OS:          " + System.getProperty("os.name") + " " + System.getProperty("os.version")
                + " " + System.getProperty("os.arch"));
        System.out.println("Cores:       " + rt.availableProcessors());
        System.out.println("Max heap:    " + (rt.maxMemory() >> 20) + " MiB");
        System.out.println("Devices:");
        System.out.println("  smp        available (ranks as threads; eager limit "
                + SmpFabric.DEFAULT_EAGER_LIMIT + " B)");
        Path shm = Path.of(System.getenv().getOrDefault("TESSERA_SHM_DIR", "/dev/shm"));
        System.out.println("  shm        " + (Files.isWritable(shm) ? "available" : "NOT available")
                + " (processes on one machine; shared files in " + shm + ", TESSERA_SHM_DIR)");
        System.out.println("  tcp        available (processes on one or more machines; eager limit "
                + dev.tessera.device.tcp.TcpDevice.DEFAULT_EAGER_LIMIT + " B)");
        System.out.println("  auto       available (shm within a node, tcp between nodes)");
        System.out.println("  mpi        " + mpiLine());
        System.out.println("Launchers:   tessera run (smp, shm, tcp, auto on this machine); mpirun/srun start ranks with "
                + "TESSERA_DEVICE=auto|shm|tcp|mpi" + (onPath("mpirun") ? " (mpirun found)" : " (mpirun not found)"));
        return 0;
    }
}
