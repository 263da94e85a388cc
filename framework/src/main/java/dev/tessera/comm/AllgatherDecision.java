package dev.tessera.comm;

/** Which allgather algorithm runs, by total size (decision kept apart from the algorithms). */
final class AllgatherDecision {

    /** Below this total size allgather uses Bruck. */
    static final long SHORT = 64 * 1024;

    private AllgatherDecision() {
    }

    /** Bruck (log p rounds, latency-bound sizes) below {@link #SHORT} bytes in all, else the ring (bandwidth-optimal). */
    static String choose(long totalBytes, int ranks) {
        return totalBytes < SHORT ? "bruck" : "ring";
    }
}
