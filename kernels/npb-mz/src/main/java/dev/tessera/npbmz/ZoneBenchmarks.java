package dev.tessera.npbmz;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The NPB-MZ benchmarks by command-line name, found by class name at run time so that the
 * driver builds and runs whichever of them this build contains.
 */
public final class ZoneBenchmarks {

    /** Command-line name to implementing class. */
    public static final Map<String, String> CLASSES;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("bt-mz", "dev.tessera.npbmz.bt.BtMz");
        m.put("sp-mz", "dev.tessera.npbmz.sp.SpMz");
        m.put("lu-mz", "dev.tessera.npbmz.lu.LuMz");
        CLASSES = java.util.Collections.unmodifiableMap(m);
    }

    private ZoneBenchmarks() {
    }

    /** The benchmark called {@code name} (bt-mz, sp-mz, lu-mz, any case), or empty if this build lacks its class. */
    public static Optional<ZoneBenchmark> find(String name) {
        String className = CLASSES.get(name.toLowerCase(Locale.ROOT));
        if (className == null) {
            throw new IllegalArgumentException("unknown benchmark '" + name + "' (valid: " + String.join(", ", CLASSES.keySet()) + ")");
        }
        Class<?> c;
        try {
            c = Class.forName(className, true, ZoneBenchmarks.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
        if (!ZoneBenchmark.class.isAssignableFrom(c)) {
            throw new IllegalStateException(className + " does not implement " + ZoneBenchmark.class.getName());
        }
        try {
            return Optional.of((ZoneBenchmark) c.getDeclaredConstructor().newInstance());
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cannot create " + className + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + className + " (it needs a public no-argument constructor): " + e, e);
        }
    }

    /** The benchmark called {@code name}; IllegalStateException with one clear line if this build lacks it. */
    public static ZoneBenchmark require(String name) {
        return find(name).orElseThrow(() -> new IllegalStateException(name.toUpperCase(Locale.ROOT)
                + " is not available in this build (class " + CLASSES.get(name.toLowerCase(Locale.ROOT)) + " not found)"));
    }
}
