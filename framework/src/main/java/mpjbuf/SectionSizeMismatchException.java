package mpjbuf;

/** A read asked for more elements than the current section has left. */
public class SectionSizeMismatchException extends BufferException {
    private static final long serialVersionUID = 1L;

    public SectionSizeMismatchException() {
    }

    public SectionSizeMismatchException(String message) {
        super(message);
    }

    public SectionSizeMismatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
