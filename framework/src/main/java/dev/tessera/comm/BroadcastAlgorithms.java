package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/** Broadcast algorithms. Ranks are relative to the root: {@code vr = (rank - root) mod p}. */
final class BroadcastAlgorithms {

    private BroadcastAlgorithms() {
    }

    /**
     * Binomial tree: a rank receives from the rank that differs in its lowest set bit, then
     * forwards to ranks vr + 2^k for the lower bits. log2 p steps; the choice for small
     * messages, where latency dominates.
     */
    static void binomial(CollectiveChannel ch, MemorySegment data, int root) {
        int p = ch.size();
        int vr = (ch.rank() - root + p) % p;
        int mask = 1;
        while (mask < p) {
            if ((vr & mask) != 0) {
                ch.recv(data, (vr - mask + root) % p);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < p) {
                ch.send(data, (vr + mask + root) % p);
            }
            mask >>= 1;
        }
    }
}
