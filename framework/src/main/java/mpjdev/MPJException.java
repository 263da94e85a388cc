package mpjdev;

/** An error of MPJ Express's device layer (present so that programs that name it compile). */
public class MPJException extends Exception {
    private static final long serialVersionUID = 1L;

    public MPJException(String message) {
        super(message);
    }
}
