package dev.tessera.gpu.cpu;

import dev.tessera.gpu.AcceleratorException;
import dev.tessera.gpu.Backend;
import dev.tessera.gpu.Event;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** Completion of a command of a {@link CpuQueue}: a future completed by the queue's thread. */
final class CpuEvent extends Event {

    final CompletableFuture<Void> done = new CompletableFuture<>();

    @Override
    public void await() {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AcceleratorException(Backend.CPU, "interrupted while waiting for a command");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new AcceleratorException(Backend.CPU, "command failed: " + c);
        }
    }

    @Override
    public boolean isComplete() {
        return done.isDone();
    }
}
