package mpjbuf;

/** An argument is out of range (an array slice, an offset). */
public class IllegalArgumentException extends BufferException {
    private static final long serialVersionUID = 1L;

    public IllegalArgumentException() {
    }

    public IllegalArgumentException(String message) {
        super(message);
    }

    public IllegalArgumentException(String message, Throwable cause) {
        super(message, cause);
    }
}
