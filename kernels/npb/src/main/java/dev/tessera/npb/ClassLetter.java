package dev.tessera.npb;

/**
 * The NPB problem class letters a kernel accepts, and the one-line refusal of any other.
 * NPB 3.4 defines S, W, A, B, C, D, E (and F for some kernels) in {@code sys/setparams.c};
 * these kernels implement S, W, A, B and C.
 */
public final class ClassLetter {

    /** The classes every kernel of this module implements. */
    public static final String IMPLEMENTED = "SWABC";

    private ClassLetter() {
    }

    /**
     * Returns the index of {@code problemClass} in {@code allowed}; throws
     * IllegalArgumentException naming the kernel, the letter and the valid letters otherwise.
     */
    public static int require(String kernel, char problemClass, String allowed) {
        int i = allowed.indexOf(problemClass);
        if (i < 0 || problemClass == 0) {
            throw new IllegalArgumentException(kernel + ": unknown problem class '" + printable(problemClass)
                    + "' (valid: " + String.join(", ", allowed.split("")) + ")");
        }
        return i;
    }

    private static String printable(char c) {
        return Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }
}
