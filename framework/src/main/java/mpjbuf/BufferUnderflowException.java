package mpjbuf;

/** A read went past the data in the buffer. */
public class BufferUnderflowException extends BufferException {
    private static final long serialVersionUID = 1L;

    public BufferUnderflowException() {
    }

    public BufferUnderflowException(String message) {
        super(message);
    }

    public BufferUnderflowException(String message, Throwable cause) {
        super(message, cause);
    }
}
