package dev.tessera.io.pfile;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A nonblocking parallel-file operation in flight (MPI_File_iwrite_at and friends): wait
 * for it with {@link #await}, poll with {@link #test}, or compose with {@link #toFuture}.
 * Its value is the number of bytes moved.
 */
public final class IoRequest {

    private final CompletableFuture<Long> future;

    IoRequest(CompletableFuture<Long> future) {
        this.future = future;
    }

    static IoRequest completed(long bytes) {
        return new IoRequest(CompletableFuture.completedFuture(bytes));
    }

    /** Blocks until the operation completes; returns the bytes moved or throws its error. */
    public long await() {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    /** True once the operation has completed (its error, if any, is thrown by {@link #await}). */
    public boolean test() {
        return future.isDone();
    }

    /** The operation as a future of the bytes moved. */
    public CompletableFuture<Long> toFuture() {
        return future.copy();
    }
}
