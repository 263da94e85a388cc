package dev.tessera.npb.mg;

import dev.tessera.npb.VectorSwitch;

/**
 * The choice between MG's scalar resid and psinv ({@link MgOperators}) and their Vector API
 * forms ({@link MgVectorKernels}), by the kernels' shared {@link VectorSwitch} (system property
 * {@value #PROPERTY}, else environment variable {@value #VARIABLE}); unset: on where it can be. The vector forms run only where the JVM
 * has the incubator module {@code jdk.incubator.vector} (java {@code --add-modules
 * jdk.incubator.vector}, which {@code bin/tessera npb} adds) and its preferred species has at
 * least two lanes; otherwise, or when switched off, the scalar code runs. Both give the same
 * bits. This class does not refer to the module's classes, so it loads without it.
 */
final class MgVector {

    static final String PROPERTY = VectorSwitch.PROPERTY;
    static final String VARIABLE = VectorSwitch.VARIABLE;
    static final String MODULE = VectorSwitch.MODULE;

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

    private static final class Holder {
        static final int LANES = VectorSwitch.moduleLoaded() ? MgVectorKernels.lanes() : 0;
    }

    /** Whether MG uses the vector forms: as the switch asks (on when unset), and only where {@link #available()}. */
    static boolean enabled() {
        return VectorSwitch.allowed() && available();
    }

    /** One line for the report: which form ran, and why. */
    static String describe(boolean vector) {
        if (vector) {
            return "resid and psinv: Vector API, " + lanes() + " lanes of double (" + PROPERTY + "=false: scalar)";
        }
        if (!VectorSwitch.moduleLoaded()) {
            return "resid and psinv: scalar (no module " + MODULE + " in this JVM; java --add-modules " + MODULE + ")";
        }
        if (!available()) {
            return "resid and psinv: scalar (vectors of " + lanes() + " double on this CPU)";
        }
        return "resid and psinv: scalar (" + PROPERTY + " or " + VARIABLE + " false)";
    }
}
