package dev.tessera.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code tessera gpu-info} (and the accelerator part of {@code tessera info}): each
 * backend, available with its devices or unavailable with the reason, and what automatic
 * selection would take. Never fails for a missing driver: that is what it reports.
 * {@link #report()} gives the text for callers that embed it.
 */
public final class GpuInfo {

    private GpuInfo() {
    }

    public static void main(String[] args) {
        System.out.print(report());
    }

    /** The report, several lines, each ending with a newline. */
    public static String report() {
        StringBuilder out = new StringBuilder("Accelerators (--accel cuda|opencl|cpu[:INDEX], TESSERA_ACCEL; default "
                + "CUDA > OpenCL > CPU):\n");
        for (String line : lines()) {
            out.append("  ").append(line).append('\n');
        }
        return out.toString();
    }

    /** The report's lines without the title and indentation (for {@code tessera info}'s section). */
    public static List<String> lines() {
        List<String> lines = new ArrayList<>();
        for (BackendStatus s : Accelerators.probeAll()) {
            if (s.isAvailable()) {
                lines.add(String.format("%-10s available, %d device(s)", s.backend().id(), s.devices().size()));
                for (DeviceInfo d : s.devices()) {
                    lines.add("  " + d.describe());
                }
            } else {
                lines.add(String.format("%-10s NOT available: %s", s.backend().id(), s.unavailableReason()));
            }
        }
        Accelerators.Selection sel = Accelerators.choose(AcceleratorSpec.AUTO, 0, 1);
        lines.add("default    " + sel.backend().id() + ":" + sel.deviceIndex());
        return lines;
    }
}
