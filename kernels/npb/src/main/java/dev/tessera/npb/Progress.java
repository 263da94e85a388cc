package dev.tessera.npb;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The progress line a long benchmark run prints on stderr: "CG.B: iteration 30 of 75,
 * 12.0 s elapsed, about 18.0 s left". Kernels call {@link #iteration} once per timed
 * iteration (or batch) from the rank's own thread; the call does nothing unless the runner
 * installed a reporter on that thread, which {@link NpbMain} does on rank 0 only, so the
 * ranks of an smp job (threads of one JVM) do not print over each other.
 *
 * <p>A run shorter than {@link #QUIET_SECONDS} prints nothing; after that, one line at most
 * every {@link #EVERY_SECONDS}. The estimate assumes the remaining iterations cost what the
 * finished ones did. The per-iteration cost on a thread without the reporter is one volatile
 * read and a comparison of threads. (Not a ThreadLocal: the JDK's ThreadLocal.get sees several
 * map kinds in its type profile, and its compiled code was deoptimised at every other timed
 * iteration of CG at 2 x 1, docs/npb.md, stop 58.) One reporter per JVM: a second install
 * replaces the first.
 */
public final class Progress {

    /** Runs shorter than this print no progress. */
    static final double QUIET_SECONDS = 3.0;
    /** At most one line per this many seconds. */
    static final double EVERY_SECONDS = 2.0;

    private static volatile Progress current;

    private final PrintStream out;
    private final String label;
    private final Thread owner;
    private long start;
    private long lastPrint;

    private Progress(PrintStream out, String label, Thread owner) {
        this.out = out;
        this.label = label;
        this.owner = owner;
    }

    /** The reporter if the calling thread installed it, else null. */
    private static Progress mine() {
        Progress p = current;
        return p != null && p.owner == Thread.currentThread() ? p : null;
    }

    /**
     * Installs a reporter on the calling thread; the run's clock starts at the first
     * {@link #start()} or, failing that, at the first iteration. {@link #uninstall} removes it.
     */
    public static void install(PrintStream out, String label) {
        current = new Progress(out, label, Thread.currentThread());
    }

    /** Removes the calling thread's reporter, if any. */
    public static void uninstall() {
        if (mine() != null) {
            current = null;
        }
    }

    /** Marks the start of the timed part (kernels call it where their timer starts). */
    public static void start() {
        Progress p = mine();
        if (p != null) {
            p.start = System.nanoTime();
            p.lastPrint = p.start;
        }
    }

    /** Reports that {@code done} of {@code total} iterations have finished. */
    public static void iteration(int done, int total) {
        Progress p = mine();
        if (p != null) {
            p.report(done, total, System.nanoTime());
        }
    }

    void report(int done, int total, long now) {
        if (start == 0) {
            start = now;
            lastPrint = now;
            return;
        }
        double elapsed = (now - start) * 1e-9;
        if (elapsed < QUIET_SECONDS || (now - lastPrint) * 1e-9 < EVERY_SECONDS || done <= 0) {
            return;
        }
        lastPrint = now;
        out.println(line(label, done, total, elapsed));
    }

    /** The text of one progress line. */
    static String line(String label, int done, int total, double elapsed) {
        double left = done >= total ? 0 : elapsed / done * (total - done);
        return String.format(Locale.ROOT, "%s: iteration %d of %d, %.1f s elapsed, about %.1f s left",
                label, done, total, elapsed, left);
    }
}
