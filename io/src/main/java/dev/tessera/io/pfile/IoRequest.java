package dev.tessera.io.pfile;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A nonblocking parallel-file operation in flight (MPI_File_iwrite_at and friends): wait
 * for it with {@link #await}, poll with {@link #test}, or compose with {@link #toFuture}.
 * Its value is the number of bytes moved.
 *
 * <p>Independent operations ({@code iwriteAt}, {@code ireadAt}) run by themselves. Collective
 * ones ({@code iwriteAll}, {@code ireadAll}) are schedules of nonblocking collectives and
 * transfers that move on when this rank polls, as in MPI: {@link #test} and {@link #await}
 * (and any collective call on the same file) advance them; the file I/O of a round, once
 * started, runs on the file's I/O thread meanwhile. At {@code ThreadLevel.MULTIPLE} a
 * background thread of the file also advances them, so {@link #toFuture} completes on its own;
 * at lower levels a future completes only once this rank polls the request or the file.
 */
public final class IoRequest {

    private final CompletableFuture<Long> future;
    private final Runnable progress;

    IoRequest(CompletableFuture<Long> future) {
        this(future, null);
    }

    /** A request whose operation moves on when {@code progress} runs (it must not block). */
    IoRequest(CompletableFuture<Long> future, Runnable progress) {
        this.future = future;
        this.progress = progress;
    }

    static IoRequest completed(long bytes) {
        return new IoRequest(CompletableFuture.completedFuture(bytes));
    }

    /** Blocks until the operation completes; returns the bytes moved or throws its error. */
    public long await() {
        if (progress != null) {
            for (int idle = 0; !future.isDone(); idle++) {
                progress.run();
                if (!future.isDone()) {
                    dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
                }
            }
        }
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw e;
        }
    }

    /** Advances the operation; true once it has completed (its error, if any, is thrown by {@link #await}). */
    public boolean test() {
        if (progress != null && !future.isDone()) {
            progress.run();
        }
        return future.isDone();
    }

    /** The operation as a future of the bytes moved. */
    public CompletableFuture<Long> toFuture() {
        return future.copy();
    }
}
