package dev.tessera.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A daemon thread that allocates and calls {@code System.gc()} in a loop until closed, so that
 * the collector of a rank process runs all the while and moves heap arrays between (and, were
 * they not held, during) the device's calls: for the tests of the paths that read a peer's heap
 * array in place. {@code try (MovingCollector c = MovingCollector.start(on)) { ... }}.
 */
public final class MovingCollector implements AutoCloseable {

    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    private MovingCollector(boolean on) {
        thread = on ? new Thread(this::churn, "test-collector") : null;
        if (thread != null) {
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Starts the thread; with {@code on} false, nothing (for runs of the same calls on a path that copies). */
    public static MovingCollector start(boolean on) {
        return new MovingCollector(on);
    }

    private void churn() {
        List<byte[]> keep = new ArrayList<>();
        for (int i = 0; !stop.get(); i++) {
            keep.add(new byte[1000 + i % 5000]);
            if (keep.size() > 500) {
                keep.clear();
                System.gc();
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        if (thread != null) {
            thread.join();
        }
    }
}
