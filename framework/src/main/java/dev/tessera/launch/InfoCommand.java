package dev.tessera.launch;

import dev.tessera.device.DeviceProvider;
import dev.tessera.device.DeviceProviders;
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
        System.out.println("Devices (providers found: " + String.join(", ", DeviceProviders.names()) + "):");
        for (DeviceProvider p : DeviceProviders.all()) {
            DeviceProvider.Availability a = p.availability(System.getenv());
            System.out.printf("  %-10s %s: %s%n             %s%n", p.name(), a.usable() ? "available" : "NOT available",
                    a.reason(), p.description());
        }
        String processDevices = String.join("|", DeviceProviders.all().stream()
                .filter(p -> p.launchStyle() != DeviceProvider.LaunchStyle.IN_PROCESS).map(DeviceProvider::name).toList());
        System.out.println("Launchers:   tessera run --device " + String.join("|", DeviceProviders.names())
                + "; mpirun/srun start ranks with TESSERA_DEVICE=" + processDevices
                + (onPath("mpirun") ? " (mpirun found)" : " (mpirun not found)"));
        for (InfoSection section : java.util.ServiceLoader.load(InfoSection.class)) {
            System.out.println(section.title() + ":");
            try {
                section.lines().forEach(line -> System.out.println("  " + line));
            } catch (RuntimeException | LinkageError e) {
                System.out.println("  (could not be listed: " + e + ")");
            }
        }
        return 0;
    }
}
