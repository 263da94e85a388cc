package dev.tessera.gpu;

import java.util.Locale;

/** The kinds of accelerator Tessera drives, in order of preference when none is asked for. */
public enum Backend {
    /** NVIDIA GPUs through JCuda (driver API, kernels compiled at run time by NVRTC). */
    CUDA,
    /** Any OpenCL device through JOCL: GPUs, and CPUs through PoCL (what CI runs on). */
    OPENCL,
    /** Plain Java on the rank's Team: always there, and the reference the others are checked against. */
    CPU;

    /** The name used on the command line ({@code --accel cuda}) and in messages. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The backend named {@code id} (case-insensitive), or an error listing the names. */
    public static Backend fromId(String id) {
        for (Backend b : values()) {
            if (b.id().equalsIgnoreCase(id.trim())) {
                return b;
            }
        }
        throw new IllegalArgumentException("unknown accelerator backend '" + id + "': use cuda, opencl or cpu");
    }
}
