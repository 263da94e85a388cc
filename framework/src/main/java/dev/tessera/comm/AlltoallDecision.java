package dev.tessera.comm;

/** Which alltoall algorithm runs, by block size (decision kept apart from the algorithms). */
final class AlltoallDecision {

    /** Below this block size alltoall posts everything at once. */
    static final long SHORT = 256;

    private AlltoallDecision() {
    }

    /** Linear (every send and receive posted at once) for tiny blocks, pairwise exchange (p-1 steps, one peer each) otherwise. */
    static String choose(long blockBytes, int ranks) {
        return blockBytes < SHORT ? "linear" : "pairwise";
    }
}
