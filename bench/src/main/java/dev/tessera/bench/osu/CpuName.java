package dev.tessera.bench.osu;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The processor a benchmark ran on, as its tables print it: the model name from /proc/cpuinfo
 * and the family and model numbers, "AMD EPYC (family 26, model 2)". Cloud VMs often name the
 * CPU "AMD EPYC" only, and the family tells Zen 3/4 (25) from Zen 5 (26), whose shm defaults
 * differ (single copy, docs/architecture.md); Intel's family 6 model numbers tell generations apart.
 */
public final class CpuName {

    private CpuName() {
    }

    /** This machine's processor, or "unknown CPU" where /proc/cpuinfo cannot be read. */
    public static String describe() {
        return describe(Path.of("/proc/cpuinfo"));
    }

    /** The processor that {@code cpuinfo} (a file in /proc/cpuinfo's format) describes. */
    public static String describe(Path cpuinfo) {
        List<String> lines;
        try {
            lines = Files.readAllLines(cpuinfo);
        } catch (IOException | RuntimeException e) {
            return "unknown CPU";
        }
        String name = field(lines, "model name");
        String family = field(lines, "cpu family");
        String model = field(lines, "model");
        String kind = family.isEmpty() ? "" : " (family " + family + (model.isEmpty() ? "" : ", model " + model) + ")";
        return (name.isEmpty() ? "unknown CPU" : name) + kind;
    }

    /** The value of the first line whose key (the text before the colon, trimmed) is {@code key}; "" if none. */
    private static String field(List<String> lines, String key) {
        for (String l : lines) {
            int colon = l.indexOf(':');
            if (colon > 0 && l.substring(0, colon).strip().equals(key)) {
                return l.substring(colon + 1).strip();
            }
        }
        return "";
    }
}
