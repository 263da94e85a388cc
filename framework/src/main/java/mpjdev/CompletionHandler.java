package mpjdev;

/** A callback on completion of a device-level request, as in MPJ Express (present so that programs that name it compile). */
public interface CompletionHandler {

    void handleCompletion(Status status);
}
