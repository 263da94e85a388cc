package dev.tessera.comm;

/** Which reduce, allreduce and reduce-scatter algorithms run (decision kept apart from the algorithms). */
final class ReduceDecision {

    /** Below this many bytes allreduce uses recursive doubling. */
    static final long ALLREDUCE_SHORT = 8 * 1024;
    /** From this many bytes allreduce uses the ring instead of Rabenseifner. */
    static final long ALLREDUCE_LONG = 1 << 20;

    private ReduceDecision() {
    }

    /**
     * Recursive doubling for short vectors, for operations that are not commutative (it keeps
     * rank order) and for vectors shorter than the rank count; Rabenseifner (reduce-scatter
     * plus allgather) up to {@link #ALLREDUCE_LONG}; the ring beyond.
     */
    static String allreduce(long bytes, int count, boolean commutative, int ranks) {
        if (!commutative || bytes < ALLREDUCE_SHORT || count < ranks) {
            return "recursive_doubling";
        }
        return bytes < ALLREDUCE_LONG ? "rabenseifner" : "ring";
    }

    /** Binomial tree to the root. */
    static String reduce(long bytes, int ranks) {
        return "binomial";
    }

    /** The ring for commutative operations; reduce then scatter otherwise (keeps rank order). */
    static String reduceScatterBlock(boolean commutative) {
        return commutative ? "ring" : "reduce_scatter";
    }
}
