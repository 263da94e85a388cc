package dev.tessera.io.pfile;

import java.nio.file.Path;

/**
 * A parallel-file operation failed. Thrown on every rank of a collective call when any rank
 * failed (the message names each failing rank, the call and the path), or on the calling
 * rank for an independent call.
 */
public class ParallelFileException extends RuntimeException {

    private final transient Path path;

    public ParallelFileException(Path path, String message) {
        super(message);
        this.path = path;
    }

    public ParallelFileException(Path path, String message, Throwable cause) {
        super(message, cause);
        this.path = path;
    }

    /** The file the operation was about. */
    public Path path() {
        return path;
    }
}
