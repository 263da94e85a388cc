package mpjbuf;

/** More data was written than the buffer can hold. */
public class BufferOverflowException extends BufferException {
    private static final long serialVersionUID = 1L;

    public BufferOverflowException() {
    }

    public BufferOverflowException(String message) {
        super(message);
    }

    public BufferOverflowException(String message, Throwable cause) {
        super(message, cause);
    }
}
