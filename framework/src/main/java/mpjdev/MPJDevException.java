package mpjdev;

/** An error of MPJ Express's device layer (present so that programs that catch it compile). */
public class MPJDevException extends Exception {
    private static final long serialVersionUID = 1L;

    public MPJDevException() {
    }

    public MPJDevException(String message) {
        super(message);
    }

    public MPJDevException(Throwable cause) {
        super(cause);
    }
}
