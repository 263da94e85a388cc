package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.RankFailedException;
import dev.tessera.TesseraException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;

/**
 * The first failure of a job, shared by everything that must stop because of it. Only the
 * first report is kept: later ones are consequences.
 *
 * <p>The first report names the <em>origin</em>: the rank that failed first hand and why.
 * A rank that stops because of another rank's failure relays that origin, never itself:
 * every device's failure notice carries {@link #origin()} (rank and reason), so a rank that
 * hears of the failure through an intermediate rank still names the rank that failed.
 *
 * <p>The death of a peer's process ({@link #rankDied}) is decided here too: by default it
 * is the job's failure like any other ({@link RankFailureMode#ABORT}); in a job that opted
 * in ({@link RankFailureMode#CONTINUE}) the rank is only marked dead, the listeners fail
 * what is pending with it, and calls involving it throw {@link RankFailedException}.
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

    /** What the death of a peer rank's process does to the job. */
    public enum RankFailureMode {
        /** The job fails (the default): every rank's calls throw, naming the dead rank. */
        ABORT,
        /** Operations with the dead rank fail with {@link RankFailedException}; the others go on. */
        CONTINUE;

        /** The variable that selects the mode for rank processes: abort (default) or continue. */
        public static final String VARIABLE = "TESSERA_ON_RANK_FAILURE";

        /** The mode TESSERA_ON_RANK_FAILURE names (ABORT when unset); a bad value is named. */
        public static RankFailureMode fromEnvironment(Map<String, String> env) {
            String v = env.get(VARIABLE);
            if (v == null || v.isBlank() || v.strip().equalsIgnoreCase("abort")) {
                return ABORT;
            }
            if (v.strip().equalsIgnoreCase("continue")) {
                return CONTINUE;
            }
            throw new TesseraException(ErrorClass.ARG, VARIABLE + "=" + v + ": must be abort or continue");
        }
    }

    /** A job that has not failed, in which a dead rank fails the job. */
    public JobFailure() {
        this(RankFailureMode.ABORT);
    }

    /** A job that has not failed, with the given reaction to a dead rank. */
    public JobFailure(RankFailureMode mode) {
        this.mode = mode;
    }

    private final RankFailureMode mode;
    private final Set<Integer> dead = ConcurrentHashMap.newKeySet();
    /** True once any rank died: devices ask {@link #isDead} on every poll, and this keeps that one volatile read. */
    private volatile boolean anyDead;
    private final CopyOnWriteArrayList<IntConsumer> deathListeners = new CopyOnWriteArrayList<>();

    public RankFailureMode mode() {
        return mode;
    }

    /**
     * The process of world rank {@code rank} died (or its connection broke for good). In
     * ABORT mode this is {@link #report}; in CONTINUE mode the rank is marked dead (once) and
     * the listeners are told, which fail the operations pending with it.
     */
    public void rankDied(int rank, Throwable cause) {
        if (mode == RankFailureMode.ABORT) {
            report(rank, cause);
            return;
        }
        if (dead.add(rank)) {
            anyDead = true;
            System.getLogger(JobFailure.class.getName()).log(System.Logger.Level.WARNING,
                    "rank " + rank + " is gone (" + (cause == null ? "died" : cause.getMessage())
                            + "); the job goes on without it (" + RankFailureMode.VARIABLE + "=continue)");
            for (IntConsumer l : deathListeners) {
                l.accept(rank);
            }
        }
    }

    /** True once world rank {@code rank} is known dead (CONTINUE mode only; in ABORT mode the job fails instead). */
    public boolean isDead(int rank) {
        return anyDead && dead.contains(rank);
    }

    /** Runs {@code listener} with the world rank of every rank that dies from now on. */
    public void onRankDeath(IntConsumer listener) {
        deathListeners.add(listener);
        for (int r : dead) {
            listener.accept(r);
        }
    }

    /** Throws {@link RankFailedException} if world rank {@code peer} is dead; {@code what} names the operation. */
    public void checkPeer(int self, int peer, String what) {
        if (isDead(peer)) {
            throw rankFailed(self, peer, what);
        }
    }

    /** The exception for an operation {@code what} of world rank {@code self} with the dead world rank {@code peer}. */
    public static RankFailedException rankFailed(int self, int peer, String what) {
        return new RankFailedException(peer, "rank " + self + ": " + what + " rank " + peer
                + " failed: rank " + peer + " is gone (its process died or was killed)", null);
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
