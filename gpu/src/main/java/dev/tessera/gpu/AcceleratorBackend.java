package dev.tessera.gpu;

import dev.tessera.task.Team;

/**
 * What each backend package provides to {@link Accelerators}: a probe of this machine
 * (devices, or why there are none, never an exception) and the opening of one device.
 */
public interface AcceleratorBackend {

    Backend kind();

    /** Devices of this backend here, or the reason it is unavailable; loads native libraries on first call only. */
    BackendStatus probe();

    /** Opens device {@code index} of {@link #probe()}'s list; {@code team} is the rank's (null: the backend's choice). */
    Accelerator open(int index, Team team);
}
