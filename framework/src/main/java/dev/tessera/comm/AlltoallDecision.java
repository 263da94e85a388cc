package dev.tessera.comm;

/** Which alltoall algorithm runs, by block size (decision kept apart from the algorithms). */
final class AlltoallDecision {

    /** Below this block size alltoall posts everything at once. */
    static final long SHORT = 256;

    /**
     * Up to this many bytes per rank ({@code p} blocks), an alltoall that does not fit one slot of
     * the shared-memory collectives goes through the slots in chunks ({@link NodeCollectives#alltoallChunks});
     * above, the point-to-point pairwise exchange. {@code -Dtessera.alltoall.slotChunksMax=BYTES} sets it
     * (0: never); by default it is {@link #OVERSUBSCRIBED_CHUNKS_MAX} where the ranks' waits sleep
     * (more ranks than cores, or TESSERA_WAIT=block: the launcher gives every rank of a node the same
     * setting, so the ranks agree on the path) and {@link #SPINNING_CHUNKS_MAX} where they spin. With
     * spinning ranks and 16 KiB slots the pairwise exchange was as fast or faster: 2 ranks on the Intel
     * Xeon (2026-11-29, 3 alternating rounds, p50 us) 256 KiB 41-64 pairwise against 69-71 in chunks,
     * 1 MiB 239-462 against 332-344; on the AMD EPYC the same at 32 KiB and larger sizes slower after it
     * (docs/performance.md, 2026-11-25).
     */
    static final long SLOT_CHUNKS_MAX = Long.getLong("tessera.alltoall.slotChunksMax", -1);

    /**
     * The default of {@link #SLOT_CHUNKS_MAX} for ranks whose waits sleep: with 4 ranks on 2 cores
     * (Intel Xeon, 2026-11-29, 3 alternating rounds, p50 us) the pairwise exchange's p - 1 steps each
     * wait for a partner that may have to be woken and scheduled first: 32 KiB 184-250 against 37-38
     * in chunks (Open MPI: 33), 256 KiB 564-702 against 379-590, 1 MiB 2108-2571 against 1536-1679.
     */
    static final long OVERSUBSCRIBED_CHUNKS_MAX = 4L << 20;

    /**
     * The default of {@link #SLOT_CHUNKS_MAX} for spinning ranks (two, by {@link #SLOT_CHUNKS_RANKS}):
     * with the 64 KiB slots (the default since 2026-11-29) the chunks were faster than the pairwise
     * exchange on 2 ranks of the Intel Xeon up to 256 KiB blocks (3 alternating rounds, p50 us: 128 KiB
     * 27-31 against 37-50, 256 KiB 56-64 against 57-86) and steadier at 1 MiB, where the pairwise
     * exchange is bimodal (chunks 297-318; pairwise 277-300 in some runs, 483-941 in others).
     */
    static final long SPINNING_CHUNKS_MAX = 4L << 20;

    /**
     * The most bytes per rank that go through the slots in chunks where the device copies a
     * point-to-point message once between any two ranks whatever their waits (the smp device): there
     * the pairwise exchange copies each block once, the chunks twice. 4 smp ranks on 2 cores (Intel
     * Xeon, 2026-12-04, 2 alternating rounds, p50 us, chunks against pairwise): blocks of 32 KiB 24
     * against 76-85, 64 KiB 51 against 78-86, 128 KiB 133-136 against 129-130, 256 KiB 280-286 against
     * 225-249, 1 MiB 1167-1201 against 950 (docs/performance.md, stop 56).
     */
    static final long ONE_COPY_CHUNKS_MAX = 256L << 10;

    /**
     * The chunks are taken with at most this many ranks ({@code -Dtessera.alltoall.slotChunksRanks=N});
     * by default any number where the waits sleep, 2 where they spin.
     */
    static final int SLOT_CHUNKS_RANKS = Integer.getInteger("tessera.alltoall.slotChunksRanks", -1);

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

    /**
     * Whether an alltoall of {@code ranks} blocks of {@code blockBytes}, too large for one slot, goes
     * through the slots in chunks; {@code waitsBlock}: whether the ranks' waits sleep.
     */
    static boolean inSlotChunks(long blockBytes, int ranks, boolean waitsBlock) {
        return inSlotChunks(blockBytes, ranks, waitsBlock, false);
    }

    /**
     * As above; {@code copiesOnce}: the ranks share an address space (smp), so a point-to-point message
     * is copied once whatever the waits (then at most {@link #ONE_COPY_CHUNKS_MAX} bytes per rank by default).
     */
    static boolean inSlotChunks(long blockBytes, int ranks, boolean waitsBlock, boolean copiesOnce) {
        long max = SLOT_CHUNKS_MAX >= 0 ? SLOT_CHUNKS_MAX
                : copiesOnce ? ONE_COPY_CHUNKS_MAX : waitsBlock ? OVERSUBSCRIBED_CHUNKS_MAX : SPINNING_CHUNKS_MAX;
        int most = SLOT_CHUNKS_RANKS > 0 ? SLOT_CHUNKS_RANKS : waitsBlock ? Integer.MAX_VALUE : 2;
        return ranks <= most && blockBytes * ranks <= max;   // false when off (0)
    }

    /** Whether an alltoallv of two ranks whose longer direction moves {@code bytes} goes through the slots. */
    static boolean pairInSlots(long bytes) {
        return PAIR_SLOTS_MAX > 0 && bytes <= PAIR_SLOTS_MAX;
    }
}
