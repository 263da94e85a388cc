package dev.tessera.npb;

import java.util.Locale;

/**
 * The one switch for the kernels' Vector API forms (MG's resid and psinv, IS's two-rank
 * partition): system property {@value #PROPERTY}, else environment variable {@value #VARIABLE},
 * {@code true} or {@code false} (also {@code on}/{@code off}, {@code 1}/{@code 0}); unset: on
 * where the JVM can run them. The forms need the incubator module {@value #MODULE} in the JVM
 * ({@code java --add-modules jdk.incubator.vector}, which {@code bin/tessera npb} adds); each
 * kernel adds its own condition on the CPU's vector width. A value that is neither true nor
 * false is refused by the kernel's check, before any work. This class does not refer to the
 * module's classes, so it loads without it.
 */
public final class VectorSwitch {

    public static final String PROPERTY = "tessera.npb.vector";
    public static final String VARIABLE = "TESSERA_NPB_VECTOR";
    public static final String MODULE = "jdk.incubator.vector";

    private VectorSwitch() {
    }

    /** Whether the module is in this JVM's boot layer. */
    public static boolean moduleLoaded() {
        return ModuleLayer.boot().findModule(MODULE).isPresent();
    }

    /**
     * What the property or the variable asks for: TRUE, FALSE, or null when neither is set.
     *
     * @throws IllegalArgumentException for any other value, naming where it was read
     */
    public static Boolean requested() {
        String where = PROPERTY;
        String value = System.getProperty(PROPERTY);
        if (value == null) {
            where = VARIABLE;
            value = System.getenv(VARIABLE);
        }
        return parse(value, where);
    }

    /** Whether the switch leaves the vector forms on (unset counts as on); throws as {@link #requested()}. */
    public static boolean allowed() {
        return !Boolean.FALSE.equals(requested());
    }

    /** "true"/"on"/"1" -> TRUE, "false"/"off"/"0" -> FALSE, null or blank -> null. */
    public static Boolean parse(String value, String where) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "on", "1" -> Boolean.TRUE;
            case "false", "off", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(where + " must be true or false, got '" + value + "'");
        };
    }
}
