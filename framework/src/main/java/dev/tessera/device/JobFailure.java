package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;

/**
 * The first failure of a job, shared by everything that must stop because of it. Only the
 * first report is kept: later ones are consequences.
 */
public final class JobFailure {

    /** A job that has not failed. */
    public JobFailure() {
    }

    private volatile TesseraException failure;

    /** Records that {@code rank} failed with {@code cause}; keeps the first report only. */
    public void report(int rank, Throwable cause) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            String what = cause == null ? "aborted" : describe(cause);
            failure = new TesseraException(ErrorClass.PROC_FAILED,
                    "job aborted: rank " + rank + " failed: " + what, cause);
        }
    }

    private static String describe(Throwable cause) {
        String msg = cause.getMessage();
        return msg == null ? cause.getClass().getName() : cause.getClass().getSimpleName() + ": " + msg;
    }

    public boolean hasFailed() {
        return failure != null;
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
