package dev.tessera.internal;

import dev.tessera.device.Device;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Which rank the calling thread belongs to, for the error messages of calls made before any
 * communicator is at hand (for example {@code Buffer.of}). The communication layer may not
 * depend on the runtime that starts ranks, so the runtime installs the lookup here when it
 * starts one; until then every thread belongs to no rank.
 */
public final class CurrentRank {

    private static volatile Supplier<Device> lookup = () -> null;

    private CurrentRank() {
    }

    /** Called by the runtime: how to find the device of the calling thread's rank (null for none). */
    public static void install(Supplier<Device> deviceOfCallingThread) {
        lookup = Objects.requireNonNull(deviceOfCallingThread, "deviceOfCallingThread");
    }

    /** The device of the calling thread's rank, or null when the thread belongs to no rank. */
    public static Device device() {
        return lookup.get();
    }
}
