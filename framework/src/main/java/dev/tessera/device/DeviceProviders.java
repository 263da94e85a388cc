package dev.tessera.device;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The devices of this installation, found through {@link ServiceLoader} (META-INF/services
 * on the class path, {@code provides} on the module path). Looked up by name; the list is
 * read once.
 */
public final class DeviceProviders {

    private static volatile List<DeviceProvider> all;

    private DeviceProviders() {
    }

    /** Every provider found, in a stable order (the built-in ones first, by their usual order). */
    public static List<DeviceProvider> all() {
        List<DeviceProvider> list = all;
        if (list == null) {
            List<DeviceProvider> found = new ArrayList<>();
            ServiceLoader.load(DeviceProvider.class, DeviceProvider.class.getClassLoader()).forEach(found::add);
            List<String> order = List.of("smp", "shm", "tcp", "auto", "mpi");
            found.sort(Comparator.comparingInt((DeviceProvider p) -> {
                int i = order.indexOf(p.name());
                return i < 0 ? order.size() : i;
            }).thenComparing(DeviceProvider::name));
            list = List.copyOf(found);
            all = list;
        }
        return list;
    }

    /** Names of every provider found. */
    public static List<String> names() {
        return all().stream().map(DeviceProvider::name).toList();
    }

    /**
     * The provider called {@code name}.
     *
     * @throws IllegalArgumentException naming the devices there are, when none is called so
     */
    public static DeviceProvider require(String name) {
        for (DeviceProvider p : all()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown device '" + name + "' (valid: " + String.join(", ", names()) + ")");
    }
}
