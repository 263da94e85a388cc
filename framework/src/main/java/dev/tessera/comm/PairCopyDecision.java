package dev.tessera.comm;

import java.util.Locale;

/**
 * Whether a collective of two ranks on the shm device sends its data point to point, where the
 * device copies heap arrays once (the receiver reads the sender's array in place,
 * {@code NodeRegion#singleCopies}), instead of through the shared-memory slots, where the sender
 * copies into a slot and the receiver out of it (decision kept apart from the algorithms,
 * {@link PairCopyAlgorithms}).
 *
 * <p>Where it wins: with the single copy the receiver's core reads the sender's buffer itself; a
 * buffer the sender has not written since is then read out of the receiver's own cache, as Open
 * MPI's vader reads it by CMA, where the slots bring every line across the cores on every call
 * (docs/performance.md, stops 44 and 48). Below {@link #MIN_BYTES} a message (one block of an
 * allgather or alltoall, the vector of a bcast or reduce) stays in the slots: the single copy's
 * hand-over (a cell, the sender's offer, the receiver's read call) costs more than the copies it saves.
 *
 * <p>{@code -Dtessera.shm.coll.singleCopy=auto|off} or {@code TESSERA_SHM_COLL_SINGLE_COPY=auto|off}
 * (the property wins; {@code 0} and {@code false} mean off; default auto: taken where the device
 * says every member copies heap arrays singly, that is with spinning ranks, a working C compiler for
 * the helper and single copy on, see {@code tessera info}). Every rank must be given the same
 * setting, as for the other shared-memory collective switches.
 */
final class PairCopyDecision {

    /** Whether the path may be taken at all ({@code tessera.shm.coll.singleCopy}). */
    static final boolean ON = on(System.getProperty("tessera.shm.coll.singleCopy",
            System.getenv().getOrDefault("TESSERA_SHM_COLL_SINGLE_COPY", "auto")));

    /**
     * Smallest message that goes point to point ({@code tessera.shm.coll.singleCopyMin}, bytes; the
     * device's own lower limit for heap single copies, 16 KiB, applies too).
     */
    static final long MIN_BYTES = Long.getLong("tessera.shm.coll.singleCopyMin", 16 * 1024);

    private PairCopyDecision() {
    }

    private static boolean on(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return !(s.equals("off") || s.equals("0") || s.equals("false") || s.equals("no"));
    }

    /**
     * Whether a call of {@code ranks} ranks whose messages carry {@code messageBytes} each goes point to
     * point; {@code singleCopies}: whether the device copies a heap message of that size once.
     */
    static boolean choose(long messageBytes, int ranks, boolean singleCopies) {
        return ON && ranks == 2 && messageBytes >= MIN_BYTES && singleCopies;
    }
}
