package dev.tessera.comm;

/** Which broadcast algorithm runs, by message size and rank count (decision kept apart from the algorithms). */
final class BcastDecision {

    /** Below this many bytes broadcasts use the binomial tree. */
    static final long SHORT = 12 * 1024;

    private BcastDecision() {
    }

    /**
     * Binomial tree for short messages (latency: log p steps); scatter then ring allgather
     * for long ones on more than two ranks (bandwidth: each byte crosses each link about twice),
     * when the buffer splits into at least one element per rank.
     */
    static String choose(long bytes, int count, int ranks) {
        boolean large = bytes >= SHORT && count >= ranks && ranks > 2;
        return large ? "scatter_allgather" : "binomial";
    }
}
