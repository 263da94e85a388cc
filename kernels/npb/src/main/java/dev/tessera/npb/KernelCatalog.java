package dev.tessera.npb;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The five NPB kernels by their command-line names, found by class name at run time, so
 * that this module builds and runs whether or not every kernel has been written yet: a
 * kernel whose class is missing is reported as not available instead of breaking the build.
 * Each kernel class must implement {@link NpbKernel} and have a public no-argument
 * constructor.
 */
public final class KernelCatalog {

    private static final Map<String, String> CLASS_NAMES = new LinkedHashMap<>();

    static {
        CLASS_NAMES.put("ep", "dev.tessera.npb.ep.EpKernel");
        CLASS_NAMES.put("is", "dev.tessera.npb.is.IsKernel");
        CLASS_NAMES.put("cg", "dev.tessera.npb.cg.CgKernel");
        CLASS_NAMES.put("mg", "dev.tessera.npb.mg.MgKernel");
        CLASS_NAMES.put("ft", "dev.tessera.npb.ft.FtKernel");
    }

    private KernelCatalog() {
    }

    /** The command-line names, in the order the usage lists them. */
    public static Iterable<String> names() {
        return CLASS_NAMES.keySet();
    }

    /**
     * A new instance of the kernel named {@code name} (case-insensitive).
     *
     * @throws IllegalArgumentException with one line when the name is unknown or the kernel's
     *     class is not in this build
     */
    public static NpbKernel create(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        String className = CLASS_NAMES.get(key);
        if (className == null) {
            throw new IllegalArgumentException("unknown kernel '" + name + "' (valid: " + String.join(", ", names()) + ")");
        }
        Class<?> c;
        try {
            c = Class.forName(className, true, KernelCatalog.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("kernel " + key.toUpperCase(Locale.ROOT) + " is not available in this build ("
                    + className + " is not on the class path)");
        }
        if (!NpbKernel.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException("kernel " + key.toUpperCase(Locale.ROOT) + ": " + className
                    + " does not implement " + NpbKernel.class.getName());
        }
        try {
            return (NpbKernel) c.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("kernel " + key.toUpperCase(Locale.ROOT) + ": " + className
                    + " failed to construct: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("kernel " + key.toUpperCase(Locale.ROOT) + ": " + className
                    + " has no public no-argument constructor");
        }
    }

    /** Whether the kernel's class is in this build. */
    public static boolean available(String name) {
        String className = CLASS_NAMES.get(name.toLowerCase(Locale.ROOT));
        if (className == null) {
            return false;
        }
        try {
            Class.forName(className, false, KernelCatalog.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
