package dev.tessera.comm;

/** Which gather and scatter algorithms run (decision kept apart from the algorithms). */
final class GatherDecision {

    private GatherDecision() {
    }

    /** Binomial tree for gather: log p steps, the root receives p-1 blocks in log p messages. */
    static String gather(long blockBytes, int ranks) {
        return "binomial";
    }

    /** Binomial tree for scatter, the mirror of gather. */
    static String scatter(long blockBytes, int ranks) {
        return "binomial";
    }
}
