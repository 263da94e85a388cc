package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a collective of two ranks on the shm device sends its data point to point, where the
 * device copies heap arrays once (the receiver reads the sender's array in place,
 * {@code NodeRegion#singleCopies}), instead of through the shared-memory slots, where the sender
 * copies into a slot and the receiver out of it (decision kept apart from the algorithms,
 * {@link PairCopyAlgorithms}).
 *
 * <p>Where it wins (docs/performance.md, stop 49, Intel Xeon model 167, 3 alternating rounds
 * next to Open MPI): bcast from 128 KiB (512 KiB: 42 us against 67 us through the slots, Open
 * MPI 42 us; 256 KiB 27 against 31; level at 128 KiB and 2 MiB); under 128 KiB the single copy's
 * hand-over (a cell, the sender's offer and the receiver's read call) costs more than the copy it
 * saves (bcast 16-64 KiB 1.1-1.8x slower point to point). Allgather and alltoall from 32 KiB
 * (stop 55, same kind of machine, 2 rounds, since the device offers its own message before it
 * reads the peer's, so both ranks copy at once): 64 KiB 5.3 us against 8.1-8.7 through the slots,
 * 256 KiB 16-24 against 32-34, 1 MiB 119-160 against 192-250 (Open MPI 5.2, 15-16, 123-160); level
 * at 16 KiB. Reduce from 128 KiB to below 1 MiB (stop 55, once its fold ran over arrays, which
 * the JIT vectorises: 256 KiB 15-18 us against 19-29 through the slots, Open MPI 16; 3 rounds,
 * faster in 3 of 3 at 128 and 256 KiB, 2 of 3 at 512 KiB and 1 MiB); from 1 MiB the slots, where
 * both ranks work on chunks at once while the root here reads, then folds (2 MiB 315-338 us against
 * 257-273).
 *
 * <p>{@code -Dtessera.shm.coll.singleCopy=auto|off} or {@code TESSERA_SHM_COLL_SINGLE_COPY=auto|off}
 * (the property wins; {@code 0} and {@code false} mean off; default auto: taken where the device
 * says every member copies heap arrays singly, that is with spinning ranks, a working C compiler for
 * the helper and single copy on, see {@code tessera info}); {@code tessera.shm.coll.singleCopyCalls}
 * (default {@code bcast,reduce,allgather,alltoall}), {@code tessera.shm.coll.singleCopyMin} (bytes,
 * for every call; default 128 KiB for bcast and reduce, 32 KiB for allgather and alltoall) and
 * {@code tessera.shm.coll.singleCopyReduceMax} (bytes, reduce only, exclusive; default 1 MiB). Every rank must be given the
 * same settings, as for the other shared-memory collective switches.
 */
final class PairCopyDecision {

    /** Whether the path may be taken at all ({@code tessera.shm.coll.singleCopy}). */
    static final boolean ON = on(System.getProperty("tessera.shm.coll.singleCopy",
            System.getenv().getOrDefault("TESSERA_SHM_COLL_SINGLE_COPY", "auto")));

    /**
     * Smallest message of a bcast or reduce that goes point to point ({@code tessera.shm.coll.singleCopyMin},
     * bytes, which sets {@link #EXCHANGE_MIN_BYTES} too; the device's own lower limit for heap single copies,
     * 8 KiB, applies as well).
     */
    static final long MIN_BYTES = Long.getLong("tessera.shm.coll.singleCopyMin", 128 * 1024);
    /** A reduce goes point to point only below this many bytes ({@code tessera.shm.coll.singleCopyReduceMax}). */
    static final long REDUCE_MAX_BYTES = Long.getLong("tessera.shm.coll.singleCopyReduceMax", 1L << 20);
    /** Smallest block of an allgather or alltoall that goes point to point (both ranks send at once). */
    static final long EXCHANGE_MIN_BYTES = Long.getLong("tessera.shm.coll.singleCopyMin", 32 * 1024);

    private static final Set<String> KNOWN = Set.of("bcast", "reduce", "allgather", "alltoall");

    /** The collectives that may take the path ({@code tessera.shm.coll.singleCopyCalls}). */
    static final String CALLS_SETTING = System.getProperty("tessera.shm.coll.singleCopyCalls", "bcast,reduce,allgather,alltoall");
    static final Set<String> CALLS = calls(CALLS_SETTING);

    private PairCopyDecision() {
    }

    /** The smallest message of {@code collective} that goes point to point. */
    static long minBytes(String collective) {
        return collective.equals("allgather") || collective.equals("alltoall") ? EXCHANGE_MIN_BYTES : MIN_BYTES;
    }

    private static boolean on(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        return !(s.equals("off") || s.equals("0") || s.equals("false") || s.equals("no"));
    }

    /** The names in {@code v} (comma-separated, blank: none); null if one is not a collective that has the path. */
    static Set<String> calls(String v) {
        Set<String> names = new java.util.TreeSet<>();
        for (String name : v.split(",")) {
            String n = name.strip().toLowerCase(Locale.ROOT);
            if (n.isEmpty()) {
                continue;
            }
            if (!KNOWN.contains(n)) {
                return null;
            }
            names.add(n);
        }
        return Set.copyOf(names);
    }

    /**
     * Whether a {@code collective} of {@code ranks} ranks whose messages carry {@code messageBytes} each
     * goes point to point; {@code singleCopies}: whether the device copies a heap message of that size once;
     * {@code sameAddressSpace}: the ranks are threads of one JVM (smp), where a bcast stays in the slots:
     * the root's copy of a chunk into its slot and the other rank's copy out of the previous one run on
     * both cores at once, where point to point one thread copies the whole message (Intel Xeon, 2 ranks,
     * p50: 1 MiB 58 us through the slots against 138 us point to point; 64-256 KiB level;
     * docs/performance.md, stop 56).
     */
    static boolean choose(String collective, long messageBytes, int ranks, boolean singleCopies, boolean sameAddressSpace) {
        if (sameAddressSpace && collective.equals("bcast")) {
            return false;
        }
        return choose(collective, messageBytes, ranks, singleCopies);
    }

    /** {@link #choose(String, long, int, boolean, boolean)} for ranks in separate processes. */
    static boolean choose(String collective, long messageBytes, int ranks, boolean singleCopies) {
        if (CALLS == null) {
            throw new TesseraException(ErrorClass.ARG, "tessera.shm.coll.singleCopyCalls: '" + CALLS_SETTING
                    + "' names a collective without the single-copy path (valid: bcast, reduce, allgather, alltoall)");
        }
        return ON && ranks == 2 && CALLS.contains(collective) && messageBytes >= minBytes(collective)
                && (messageBytes < REDUCE_MAX_BYTES || !collective.equals("reduce")) && singleCopies;
    }
}
