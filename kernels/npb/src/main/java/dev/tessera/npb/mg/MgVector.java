package dev.tessera.npb.mg;

import java.util.Locale;

/**
 * The switch between MG's scalar resid and psinv ({@link MgOperators}) and their Vector API
 * forms ({@link MgVectorKernels}): system property {@value #PROPERTY}, else environment
 * variable {@value #VARIABLE}, {@code true} or {@code false} (also {@code on}/{@code off},
 * {@code 1}/{@code 0}); unset: on where it can be. The vector forms run only where the JVM
 * has the incubator module {@code jdk.incubator.vector} (java {@code --add-modules
 * jdk.incubator.vector}, which {@code bin/tessera npb} adds) and its preferred species has at
 * least two lanes; otherwise, or when switched off, the scalar code runs. Both give the same
 * bits. This class does not refer to the module's classes, so it loads without it.
 */
final class MgVector {

    static final String PROPERTY = "tessera.npb.vector";
    static final String VARIABLE = "TESSERA_NPB_VECTOR";
    static final String MODULE = "jdk.incubator.vector";

    private MgVector() {
    }

    /** Whether the JVM can run the vector forms: the module is in the boot layer and a vector holds two or more doubles. */
    static boolean available() {
        return Holder.LANES >= 2;
    }

    /** Lanes of the vector forms' species; 0 without the module. */
    static int lanes() {
        return Holder.LANES;
    }

    /** Whether the module is in this JVM's boot layer. */
    static boolean moduleLoaded() {
        return ModuleLayer.boot().findModule(MODULE).isPresent();
    }

    private static final class Holder {
        static final int LANES = moduleLoaded() ? MgVectorKernels.lanes() : 0;
    }

    /**
     * What the property or the variable asks for: TRUE, FALSE, or null when neither is set.
     *
     * @throws IllegalArgumentException for any other value (the kernel's check turns it into one line before any work)
     */
    static Boolean requested() {
        String where = PROPERTY;
        String value = System.getProperty(PROPERTY);
        if (value == null) {
            where = VARIABLE;
            value = System.getenv(VARIABLE);
        }
        return parse(value, where);
    }

    /** "true"/"on"/"1" -> TRUE, "false"/"off"/"0" -> FALSE, null or blank -> null. */
    static Boolean parse(String value, String where) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "on", "1" -> Boolean.TRUE;
            case "false", "off", "0" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(where + " must be true or false, got '" + value + "'");
        };
    }

    /** Whether MG uses the vector forms: as requested (on when unset), and only where {@link #available()}. */
    static boolean enabled() {
        return !Boolean.FALSE.equals(requested()) && available();
    }

    /** One line for the report: which form ran, and why. */
    static String describe(boolean vector) {
        if (vector) {
            return "resid and psinv: Vector API, " + lanes() + " lanes of double (" + PROPERTY + "=false: scalar)";
        }
        if (!moduleLoaded()) {
            return "resid and psinv: scalar (no module " + MODULE + " in this JVM; java --add-modules " + MODULE + ")";
        }
        if (!available()) {
            return "resid and psinv: scalar (vectors of " + lanes() + " double on this CPU)";
        }
        return "resid and psinv: scalar (" + PROPERTY + " or " + VARIABLE + " false)";
    }
}
