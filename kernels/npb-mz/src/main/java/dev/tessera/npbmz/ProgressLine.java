package dev.tessera.npbmz;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line on stderr for runs longer than a few seconds: nothing for the first
 * {@link #QUIET_SECONDS}, then at most one line every {@link #EVERY_SECONDS} with the step,
 * the elapsed time and an estimate of the time left, and a last line at the end. Lines are
 * whole lines (not carriage-return overwrites), since a rank's stderr usually goes through
 * the launcher's pipe rather than to a terminal.
 */
final class ProgressLine {

    static final double QUIET_SECONDS = 3.0;
    static final double EVERY_SECONDS = 5.0;

    private final PrintStream err;
    private final String label;
    private final int total;
    private final long start = System.nanoTime();
    private double lastPrinted = -1;

    /** {@code err} null: silent (ranks other than 0). */
    ProgressLine(PrintStream err, String label, int total) {
        this.err = err;
        this.label = label;
        this.total = total;
    }

    /** Called after {@code step} of {@link #total} steps is done. */
    void step(int step) {
        if (err == null) {
            return;
        }
        double elapsed = (System.nanoTime() - start) * 1e-9;
        if (elapsed < QUIET_SECONDS || (lastPrinted >= 0 && elapsed - lastPrinted < EVERY_SECONDS)) {
            return;
        }
        lastPrinted = elapsed;
        double left = step > 0 ? elapsed * (total - step) / step : 0;
        err.printf(Locale.ROOT, "%s: step %d/%d (%.0f%%), %.1f s, about %.0f s left%n", label, step, total,
                100.0 * step / total, elapsed, left);
        err.flush();
    }

    /** Ends the line sequence if any line was printed. */
    void done() {
        if (err != null && lastPrinted >= 0) {
            err.printf(Locale.ROOT, "%s: done in %.1f s%n", label, (System.nanoTime() - start) * 1e-9);
            err.flush();
        }
    }
}
