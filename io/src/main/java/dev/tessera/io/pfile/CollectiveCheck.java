package dev.tessera.io.pfile;

import dev.tessera.comm.Comm;
import java.nio.file.Path;
import java.util.List;

/**
 * Agreement on the outcome of a collective step: every rank contributes its own error (or
 * null), the errors are all-gathered, and if any rank failed every rank throws the same
 * {@link ParallelFileException} naming each failing rank. Used wherever one rank's failure
 * must not leave the others waiting in a later call (open, close, writeAll, checkpoints).
 */
public final class CollectiveCheck {

    private CollectiveCheck() {
    }

    /**
     * Throws on every rank if any rank passed a non-null {@code error}.
     *
     * @param call the operation, for the message ("ParallelFile.open")
     */
    public static void agree(Comm comm, String call, Path path, String error) {
        String message = message(call, path, comm.allgatherObject(error));
        if (message != null) {
            throw new ParallelFileException(path, message);
        }
    }

    /** The agreed message for every rank's error (null entries: succeeded), or null when none failed. */
    static String message(String call, Path path, List<String> errors) {
        StringBuilder message = null;
        int failed = 0;
        for (int r = 0; r < errors.size(); r++) {
            if (errors.get(r) != null) {
                if (message == null) {
                    message = new StringBuilder(call).append("(").append(path).append(") failed: ");
                } else {
                    message.append("; ");
                }
                message.append("rank ").append(r).append(": ").append(errors.get(r));
                failed++;
            }
        }
        if (message == null) {
            return null;
        }
        if (failed > 1) {
            message.append(" (").append(failed).append(" of ").append(errors.size()).append(" ranks failed)");
        }
        return message.toString();
    }

    /** A one-line description of an exception for an error message. */
    public static String describe(Throwable e) {
        String m = e.getMessage();
        String kind = switch (e) {
            case java.nio.file.NoSuchFileException x -> "no such file";
            case java.nio.file.FileAlreadyExistsException x -> "file already exists";
            case java.nio.file.AccessDeniedException x -> "access denied";
            default -> e.getClass().getSimpleName();
        };
        return m == null || e instanceof java.nio.file.FileSystemException ? kind + (m == null ? "" : " (" + m + ")")
                : kind + ": " + m;
    }
}
