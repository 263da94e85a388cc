package mpjbuf;

/** The buffer is in the wrong state for the call (writing to a committed buffer, reading from one being written, any use after free). */
public class WrongStateException extends BufferException {
    private static final long serialVersionUID = 1L;

    public WrongStateException() {
    }

    public WrongStateException(String message) {
        super(message);
    }

    public WrongStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
