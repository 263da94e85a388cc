package dev.tessera.device;

/**
 * A job whose ranks are threads of this JVM (the smp device): one device per rank, and one
 * failure state through which the first rank that fails wakes every other rank.
 */
public interface InProcessJob {

    /** Ranks in the job. */
    int size();

    /** The device of rank {@code rank}. */
    Device device(int rank);

    /** Reports that {@code rank} failed (-1: the job as a whole, e.g. a timeout): every rank blocked in a call wakes with the cause. */
    void reportFailure(int rank, Throwable cause);

    /** {@code rank}'s thread has finished (its main returned or threw, after any failure was reported). */
    default void rankEnded(int rank) {
    }

    /** The rank that failed first and why (rank -1: the job as a whole); null while no rank failed. */
    JobFailure.Origin failureOrigin();
}
