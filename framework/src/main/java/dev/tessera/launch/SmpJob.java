package dev.tessera.launch;

import dev.tessera.device.DeviceProviders;
import dev.tessera.device.InProcessJob;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Runs the ranks of an smp job as threads of this JVM and collects their outcome. The
 * first rank that throws aborts the fabric, so every rank blocked in a call wakes with an
 * error naming the failed rank; the job then reports the original failure.
 */
public final class SmpJob {

    /** The body of one rank of {@link #run}: gets the rank's session, may throw. */
    @FunctionalInterface
    public interface RankMain {
        void run(Session session) throws Exception;
    }

    /**
     * Runs {@code body} on {@code ranks} ranks of the smp device (threads of this JVM), each
     * inside its own {@code Tessera.init(args)} session, and returns when all have finished.
     * Made for tests and for programs that want a whole job in one JVM.
     *
     * @throws IllegalStateException naming the rank when a rank failed (the rank's exception is
     *     the cause), or when the job did not finish within {@code timeout} (a hang)
     */
    public static void run(int ranks, String[] args, Duration timeout, RankMain body) {
        if (ranks < 1) {
            throw new IllegalArgumentException("SmpJob.run: ranks must be at least 1, got " + ranks);
        }
        SmpJob job = new SmpJob(ranks);
        job.start(rank -> () -> {
            try (Session session = Tessera.init(args)) {
                body.run(session);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("rank " + rank + ": " + e, e);
            }
        }, null, 16 << 20);
        boolean finished;
        try {
            finished = job.join(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the smp job", e);
        }
        RankOutcome failure = job.rootFailure();
        if (!finished) {
            IllegalStateException e = new IllegalStateException(
                    "smp job of " + ranks + " ranks did not finish within " + timeout.toSeconds() + " s (a hang)");
            if (failure != null) {
                e.addSuppressed(failure.failure());
            }
            throw e;
        }
        if (failure != null) {
            throw new IllegalStateException("rank " + failure.rank() + " failed: " + failure.failure(), failure.failure());
        }
    }

    /** Outcome of one rank. */
    public record RankOutcome(int rank, Throwable failure) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final InProcessJob fabric;
    private final List<Thread> threads = new ArrayList<>();
    private final RankOutcome[] outcomes;

    /** A job of {@code ranks} ranks on the smp device (found through its provider). */
    public SmpJob(int ranks) {
        this.fabric = DeviceProviders.require("smp").createInProcess(ranks);
        this.outcomes = new RankOutcome[fabric.size()];
    }

    /** Tells every rank that the job failed ({@code rank} -1: the job as a whole). */
    public void reportFailure(int rank, Throwable cause) {
        fabric.reportFailure(rank, cause);
    }

    /**
     * Starts one thread per rank; {@code rankMain.apply(rank)} gives the body of each. The
     * body runs with its rank's device bound through {@link dev.tessera.runtime.internal.RankBootstrap}.
     */
    public void start(IntFunction<Runnable> rankMain, IntFunction<ClassLoader> contextLoader, long stackBytes) {
        for (int r = 0; r < fabric.size(); r++) {
            int rank = r;
            Runnable body = rankMain.apply(rank);
            Thread t = new Thread(null, () -> runRank(rank, body), "rank-" + rank, stackBytes);
            if (contextLoader != null) {
                t.setContextClassLoader(contextLoader.apply(rank));
            }
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void runRank(int rank, Runnable body) {
        new dev.tessera.runtime.internal.RankBootstrap(fabric.device(rank), rank, fabric.size(), 0, "smp").bindToCurrentThread();
        Throwable failure = null;
        try {
            body.run();
        } catch (Throwable t) {
            failure = t;
            fabric.reportFailure(rank, t);
        } finally {
            fabric.rankEnded(rank);
        }
        outcomes[rank] = new RankOutcome(rank, failure);
    }

    /** Waits up to {@code timeout} for every rank; returns false on timeout (the job is then aborted). */
    public boolean join(long timeout, TimeUnit unit) throws InterruptedException {
        return join(timeout, unit, true);
    }

    /** {@link #join(long, TimeUnit)}; with {@code abortOnTimeout} false a timeout only returns false (for polling). */
    boolean join(long timeout, TimeUnit unit, boolean abortOnTimeout) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                if (abortOnTimeout) {
                    fabric.reportFailure(-1, new java.util.concurrent.TimeoutException(
                            "smp job did not finish within " + unit.toSeconds(timeout) + " s"));
                }
                return false;
            }
        }
        return true;
    }

    /** The ranks whose threads are still running. */
    public List<Integer> runningRanks() {
        List<Integer> running = new ArrayList<>();
        for (int r = 0; r < threads.size(); r++) {
            if (threads.get(r).isAlive()) {
                running.add(r);
            }
        }
        return running;
    }

    /**
     * The ranks whose threads are still running and are not themselves inside {@code System.exit}
     * (a thread that calls it while another's call ends the JVM waits there until the JVM halts).
     */
    public List<Integer> runningRanksNotExiting() {
        List<Integer> running = new ArrayList<>();
        for (int r = 0; r < threads.size(); r++) {
            Thread t = threads.get(r);
            if (t.isAlive() && !inExit(t.getStackTrace())) {
                running.add(r);
            }
        }
        return running;
    }

    /** True if {@code stack} is that of a thread inside {@code Runtime.exit} (System.exit). */
    static boolean inExit(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            if ((e.getClassName().equals("java.lang.Shutdown") || e.getClassName().equals("java.lang.Runtime"))
                    && e.getMethodName().equals("exit")) {
                return true;
            }
        }
        return false;
    }

    /** Outcomes by rank (null for a rank that has not finished). */
    public RankOutcome[] outcomes() {
        return outcomes.clone();
    }

    /**
     * The failure to report for the job: the rank that failed first (the job's first failure
     * report), else the first rank failure that is not merely a consequence of another
     * rank's failure, else null.
     */
    public RankOutcome rootFailure() {
        // the rank that reported first failed first hand: the others stopped because of it
        dev.tessera.device.JobFailure.Origin origin = fabric.failureOrigin();
        if (origin != null && origin.rank() >= 0 && origin.rank() < outcomes.length
                && outcomes[origin.rank()] != null && outcomes[origin.rank()].failed()) {
            return outcomes[origin.rank()];
        }
        RankOutcome consequence = null;
        for (RankOutcome o : outcomes) {
            if (o != null && o.failed()) {
                boolean secondary = o.failure() instanceof dev.tessera.TesseraException te
                        && te.errorClass() == dev.tessera.ErrorClass.PROC_FAILED;
                if (!secondary) {
                    return o;
                }
                if (consequence == null) {
                    consequence = o;
                }
            }
        }
        return consequence;
    }
}
