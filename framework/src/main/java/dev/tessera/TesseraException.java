package dev.tessera;

/**
 * Every error a Tessera call reports: an unchecked exception carrying the MPI error class.
 * Messages name the rank, the call and the offending argument, e.g.
 * {@code "rank 2: Comm.send: invalid destination rank 7 (communicator size 4)"}.
 */
public class TesseraException extends RuntimeException {

    private final ErrorClass errorClass;

    public TesseraException(ErrorClass errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public TesseraException(ErrorClass errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    public ErrorClass errorClass() {
        return errorClass;
    }
}
