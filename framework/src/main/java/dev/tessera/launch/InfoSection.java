package dev.tessera.launch;

import java.util.List;

/**
 * A section that a module adds to {@code tessera info} (the gpu module lists its backends and
 * devices), found through {@link java.util.ServiceLoader}: the framework prints what the
 * modules on the class path provide without depending on any of them.
 */
public interface InfoSection {

    /** The section's title, e.g. "Accelerators". */
    String title();

    /** The section's lines, each printed indented under the title. */
    List<String> lines();
}
