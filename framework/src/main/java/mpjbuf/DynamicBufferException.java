package mpjbuf;

/** Serializing or deserializing the dynamic part (objects) failed. */
public class DynamicBufferException extends BufferException {
    private static final long serialVersionUID = 1L;

    public DynamicBufferException() {
    }

    public DynamicBufferException(String message) {
        super(message);
    }

    public DynamicBufferException(String message, Throwable cause) {
        super(message, cause);
    }
}
