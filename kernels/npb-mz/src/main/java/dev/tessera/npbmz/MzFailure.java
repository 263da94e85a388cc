package dev.tessera.npbmz;

/**
 * Ends an NPB-MZ run with a non-zero exit status and one line: failed verification or bad
 * arguments. No stack trace: the message says all there is to say.
 */
public final class MzFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public MzFailure(String message) {
        super(message, null, false, false);
    }
}
