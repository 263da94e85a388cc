package dev.tessera.gpu;

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
        for (BackendStatus s : Accelerators.probeAll()) {
            if (s.isAvailable()) {
                out.append(String.format("  %-10s available, %d device(s)%n", s.backend().id(), s.devices().size()));
                for (DeviceInfo d : s.devices()) {
                    out.append("    ").append(d.describe()).append('\n');
                }
            } else {
                out.append(String.format("  %-10s NOT available: %s%n", s.backend().id(), s.unavailableReason()));
            }
        }
        Accelerators.Selection sel = Accelerators.choose(AcceleratorSpec.AUTO, 0, 1);
        out.append("  default    ").append(sel.backend().id()).append(':').append(sel.deviceIndex()).append('\n');
        return out.toString();
    }
}
