package dev.tessera.bench.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** "host (CPU model, N cores)": the machine a sweep ran on, for its table and CSV. */
final class MachineName {

    private MachineName() {
    }

    static String describe() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        String cpu = "unknown CPU";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: keep "unknown CPU"
        }
        return host + " (" + cpu + ", " + java.lang.Runtime.getRuntime().availableProcessors() + " cores)";
    }
}
