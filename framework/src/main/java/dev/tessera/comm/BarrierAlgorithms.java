package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/** Barrier algorithms. */
final class BarrierAlgorithms {

    private BarrierAlgorithms() {
    }

    /**
     * Dissemination barrier (Hensgen, Finkel, Manber 1988): in round k every rank signals
     * rank + 2^k and waits for rank - 2^k; after ceil(log2 p) rounds everyone has heard,
     * directly or transitively, from everyone. Works for any p.
     */
    static void dissemination(CollectiveChannel ch) {
        int p = ch.size();
        int me = ch.rank();
        MemorySegment empty = MemorySegment.ofArray(new byte[0]);
        for (int k = 1; k < p; k <<= 1) {
            ch.sendrecv(empty, (me + k) % p, empty, (me - k + p) % p);
        }
    }
}
