package dev.tessera.comm;

/** Which alltoall algorithm runs, by block size (decision kept apart from the algorithms). */
final class AlltoallDecision {

    /** Below this block size alltoall posts everything at once. */
    static final long SHORT = 256;

    /**
     * Up to this many bytes per rank ({@code p} blocks), an alltoall that does not fit one slot of
     * the shared-memory collectives goes through the slots in chunks ({@link NodeCollectives#alltoallChunks});
     * above, the point-to-point pairwise exchange. {@code -Dtessera.alltoall.slotChunksMax=BYTES}
     * (0: never in chunks).
     */
    static final long SLOT_CHUNKS_MAX = Long.getLong("tessera.alltoall.slotChunksMax", 256L << 10);

    /**
     * The chunks are taken with at most this many ranks ({@code -Dtessera.alltoall.slotChunksRanks=N}).
     * Two by default: with two ranks they were faster than the pairwise exchange at 32-128 KiB
     * per pair in every alternating run; with four ranks on two cores (oversubscribed) they were
     * faster at load 10 and slower at load 35 (docs/performance.md, 2026-11-25), so not made default.
     */
    static final int SLOT_CHUNKS_RANKS = Integer.getInteger("tessera.alltoall.slotChunksRanks", 2);

    /**
     * Up to this many bytes in the longer direction, an alltoallv of two ranks on the shm device
     * goes through the shared-memory slots ({@link NodeCollectives#exchangePair});
     * {@code -Dtessera.alltoallv.pairSlotsMax=BYTES} (0: never, only empty exchanges).
     */
    static final long PAIR_SLOTS_MAX = Long.getLong("tessera.alltoallv.pairSlotsMax", 256L << 10);

    private AlltoallDecision() {
    }

    /** Linear (every send and receive posted at once) for tiny blocks, pairwise exchange (p-1 steps, one peer each) otherwise. */
    static String choose(long blockBytes, int ranks) {
        return blockBytes < SHORT ? "linear" : "pairwise";
    }

    /** Whether an alltoall of {@code ranks} blocks of {@code blockBytes}, too large for one slot, goes through the slots in chunks. */
    static boolean inSlotChunks(long blockBytes, int ranks) {
        return ranks <= SLOT_CHUNKS_RANKS && blockBytes * ranks <= SLOT_CHUNKS_MAX;
    }

    /** Whether an alltoallv of two ranks whose longer direction moves {@code bytes} goes through the slots. */
    static boolean pairInSlots(long bytes) {
        return bytes <= PAIR_SLOTS_MAX;
    }
}
