package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;

/**
 * The first failure of a job, shared by everything that must stop because of it. Only the
 * first report is kept: later ones are consequences.
 *
 * <p>The first report names the <em>origin</em>: the rank that failed first hand and why.
 * A rank that stops because of another rank's failure relays that origin, never itself:
 * every device's failure notice carries {@link #origin()} (rank and reason), so a rank that
 * hears of the failure through an intermediate rank still names the rank that failed.
 */
public final class JobFailure {

    /** The rank that failed first hand and what it failed with (no "job aborted" prefix). */
    public record Origin(int rank, String reason) {
    }

    /**
     * A failure heard from another rank (a device's notice, the job's failure file): its
     * message is the origin's reason, word for word.
     */
    public static final class Notice extends TesseraException {
        public Notice(String reason) {
            super(ErrorClass.PROC_FAILED, reason);
        }
    }

    /** A job that has not failed. */
    public JobFailure() {
    }

    private volatile TesseraException failure;
    private volatile Origin origin;

    /** Records that {@code rank} failed with {@code cause}; keeps the first report only. */
    public void report(int rank, Throwable cause) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            String what = describe(cause);
            origin = new Origin(rank, what);
            failure = new TesseraException(ErrorClass.PROC_FAILED,
                    "job aborted: rank " + rank + " failed: " + what, cause);
        }
    }

    /** How a failure's cause reads in the job's failure message (a notice's reason word for word). */
    public static String describe(Throwable cause) {
        if (cause == null) {
            return "aborted";
        }
        String msg = cause.getMessage();
        if (cause instanceof Notice) {
            return msg;
        }
        return msg == null ? cause.getClass().getName() : cause.getClass().getSimpleName() + ": " + msg;
    }

    public boolean hasFailed() {
        return failure != null;
    }

    /** The rank that failed first and its reason; null while the job is healthy. */
    public Origin origin() {
        return origin;
    }

    /** Throws a fresh exception describing the failure, if any (fresh so each rank gets its own stack). */
    public void check() {
        TesseraException f = failure;
        if (f != null) {
            throw new TesseraException(ErrorClass.PROC_FAILED, f.getMessage(), f.getCause());
        }
    }

    public TesseraException failure() {
        return failure;
    }
}
