package dev.tessera.bench.sweep;

import java.io.IOException;

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
        String cpu = dev.tessera.bench.osu.CpuName.describe();
        return host + " (" + cpu + ", " + java.lang.Runtime.getRuntime().availableProcessors() + " cores)";
    }
}
