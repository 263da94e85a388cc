package dev.tessera.comm;

/** Which alltoall algorithm runs, by block size (decision kept apart from the algorithms). */
final class AlltoallDecision {

    /** Below this block size alltoall posts everything at once. */
    static final long SHORT = 256;

    /**
     * Up to this many bytes per rank ({@code p} blocks), an alltoall that does not fit one slot of
     * the shared-memory collectives goes through the slots in chunks ({@link NodeCollectives#alltoallChunks});
     * above, the point-to-point pairwise exchange. Off (0) unless {@code -Dtessera.alltoall.slotChunksMax=BYTES}:
     * with two ranks the chunks were as fast as the pairwise exchange at 32 KiB in the near vCPU
     * placement, faster under load, and the next, larger sizes of the same benchmark job then ran
     * slower in four of four runs (unexplained; docs/performance.md, 2026-11-25), so the default
     * stays the pairwise exchange until a quiet measurement decides.
     */
    static final long SLOT_CHUNKS_MAX = Long.getLong("tessera.alltoall.slotChunksMax", 0);

    /**
     * The chunks are taken with at most this many ranks ({@code -Dtessera.alltoall.slotChunksRanks=N},
     * default 2): with four ranks on two cores (oversubscribed) they were faster than the pairwise
     * exchange at load 10 and slower at load 35.
     */
    static final int SLOT_CHUNKS_RANKS = Integer.getInteger("tessera.alltoall.slotChunksRanks", 2);

    /**
     * Up to this many bytes in the longer direction, an alltoallv of two ranks on the shm device
     * goes through the shared-memory slots ({@link NodeCollectives#exchangePair}). Off (0) unless
     * {@code -Dtessera.alltoallv.pairSlotsMax=BYTES}: IS's 8 MiB exchange through the 16 KiB slots
     * had a similar best time to the ring's and a far worse median under load.
     */
    static final long PAIR_SLOTS_MAX = Long.getLong("tessera.alltoallv.pairSlotsMax", 0);

    private AlltoallDecision() {
    }

    /** Linear (every send and receive posted at once) for tiny blocks, pairwise exchange (p-1 steps, one peer each) otherwise. */
    static String choose(long blockBytes, int ranks) {
        return blockBytes < SHORT ? "linear" : "pairwise";
    }

    /** Whether an alltoall of {@code ranks} blocks of {@code blockBytes}, too large for one slot, goes through the slots in chunks. */
    static boolean inSlotChunks(long blockBytes, int ranks) {
        return ranks <= SLOT_CHUNKS_RANKS && blockBytes * ranks <= SLOT_CHUNKS_MAX;   // false when off (0)
    }

    /** Whether an alltoallv of two ranks whose longer direction moves {@code bytes} goes through the slots. */
    static boolean pairInSlots(long bytes) {
        return PAIR_SLOTS_MAX > 0 && bytes <= PAIR_SLOTS_MAX;
    }
}
