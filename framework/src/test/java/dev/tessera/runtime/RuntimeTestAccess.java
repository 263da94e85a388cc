package dev.tessera.runtime;

import dev.tessera.device.Device;

/** Test-only access to the process rank's device (for tests that look inside a device). */
public final class RuntimeTestAccess {

    private RuntimeTestAccess() {
    }

    public static Device currentDevice() {
        return ProcessBootstrap.currentDevice();
    }
}
