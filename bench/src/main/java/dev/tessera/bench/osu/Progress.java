package dev.tessera.bench.osu;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Progress of long runs on stderr: suite, implementation and device, current size, elapsed
 * time. On a terminal one status line is redrawn in place (carriage return and erase-line)
 * every half second; otherwise (CI logs, files) a plain line is printed per size, without
 * terminal control codes.
 */
public final class Progress implements AutoCloseable {

    private final PrintStream err;
    private final boolean tty;
    private final boolean enabled;
    private final long started = System.nanoTime();
    private final ScheduledExecutorService ticker;
    private volatile String status;
    private boolean closed;

    public Progress(PrintStream err, boolean tty, boolean enabled) {
        this.err = err;
        this.tty = tty;
        this.enabled = enabled;
        if (enabled && tty) {
            ticker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "bench-progress");
                t.setDaemon(true);
                return t;
            });
            ticker.scheduleAtFixedRate(this::redraw, 500, 500, TimeUnit.MILLISECONDS);
        } else {
            ticker = null;
        }
    }

    /** Reports that {@code what} (e.g. "latency tessera/smp") starts size number {@code index} of {@code count}. */
    public void size(String what, int size, int index, int count) {
        status = String.format(Locale.ROOT, "%s: size %s (%d/%d)", what, Sizes.format(size), index, count);
        if (!enabled) {
            return;
        }
        if (tty) {
            redraw();
        } else {
            synchronized (err) {
                err.println("[bench] " + status + ", " + elapsed() + " elapsed");
            }
        }
    }

    /** A message on its own line (clears the status line first on a terminal). */
    public void note(String message) {
        synchronized (err) {
            if (enabled && tty) {
                err.print("\r\033[K");
            }
            err.println(message);
        }
    }

    private String elapsed() {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9);
    }

    private void redraw() {
        String s = status;
        if (s != null) {
            synchronized (err) {
                err.print("\r\033[K[bench] " + s + ", " + elapsed());
                err.flush();
            }
        }
    }

    @Override
    public synchronized void close() {
        if (ticker != null && !closed) {
            closed = true;
            ticker.shutdownNow();
            synchronized (err) {
                err.print("\r\033[K");
                err.flush();
            }
        }
    }
}
