package mpjbuf;

/** A read or write used an element type other than the current section's. */
public class TypeMismatchException extends BufferException {
    private static final long serialVersionUID = 1L;

    public TypeMismatchException() {
    }

    public TypeMismatchException(String message) {
        super(message);
    }

    public TypeMismatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
