package dev.tessera.io.checkpoint;

/** A checkpoint could not be written or read; the message names the rank, the call and the path. */
public class CheckpointException extends RuntimeException {

    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
