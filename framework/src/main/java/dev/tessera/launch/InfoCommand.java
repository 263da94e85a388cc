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
        System.out.println("  shared-memory directory " + shm + (Files.isWritable(shm) ? " (writable)" : " (NOT writable)"));
        return 0;
    }
}
