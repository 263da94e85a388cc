package mpjbuf;

/** An error of an {@link Buffer} operation (checked, as in MPJ Express); the subclasses say which. */
public class BufferException extends Exception {
    private static final long serialVersionUID = 1L;

    public BufferException() {
    }

    public BufferException(String message) {
        super(message);
    }

    public BufferException(String message, Throwable cause) {
        super(message, cause);
    }
}
