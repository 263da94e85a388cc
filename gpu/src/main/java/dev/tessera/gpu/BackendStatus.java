package dev.tessera.gpu;

import java.util.List;

/**
 * The result of probing one backend on this machine: its devices, or the one-line reason
 * it cannot be used (no driver, no platform, no device, a native library that would not load).
 */
public record BackendStatus(Backend backend, List<DeviceInfo> devices, String unavailableReason) {

    public BackendStatus {
        devices = List.copyOf(devices);
    }

    public static BackendStatus available(Backend backend, List<DeviceInfo> devices) {
        return new BackendStatus(backend, devices, null);
    }

    public static BackendStatus unavailable(Backend backend, String reason) {
        return new BackendStatus(backend, List.of(), reason);
    }

    /** True when the backend loaded and has at least one device. */
    public boolean isAvailable() {
        return unavailableReason == null && !devices.isEmpty();
    }
}
