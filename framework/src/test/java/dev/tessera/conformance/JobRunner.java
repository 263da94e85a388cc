package dev.tessera.conformance;

/**
 * Runs a {@link RankCase} on every rank of a fresh job of some device, and fails (with
 * the first rank's failure) if any rank fails or the job does not end within its
 * timeout. The conformance suite is parameterized by runner, so each device plugs in.
 */
public interface JobRunner {

    /** Device name, shown in test names. */
    String device();

    void run(int ranks, RankCase body);

    /** Runs {@code body} with every rank initialised at thread level {@code level}. */
    void run(int ranks, dev.tessera.comm.ThreadLevel level, RankCase body);

    /**
     * This runner with its job time limit {@code times} as long (for a job that does the work
     * of that many jobs, e.g. one per forced algorithm); itself by default. Its name is the same.
     */
    default JobRunner withTimeLimitTimes(int times) {
        return this;
    }

    /** Whether the suite runs jobs of this many ranks on this runner (all by default). */
    default boolean runs(int ranks) {
        return true;
    }

    /** Whether the suite runs its cases with this collective algorithm forced ("auto": none forced). */
    default boolean runsAlgorithm(String algorithm) {
        return true;
    }
}
