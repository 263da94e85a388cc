package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/** Broadcast algorithms. Ranks are relative to the root: {@code vr = (rank - root) mod p}. */
final class BroadcastAlgorithms {

    private BroadcastAlgorithms() {
    }

    /**
     * Binomial tree: a rank receives from the rank that differs in its lowest set bit, then
     * forwards to ranks vr + 2^k for the lower bits. log2 p steps of the whole message:
     * the choice for small messages, where latency dominates.
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

    /**
     * Scatter then allgather (van de Geijn): the root scatters p chunks down a binomial
     * tree, then a ring allgather reassembles the message everywhere. About 2n bytes
     * move per rank instead of n log p: the choice for large messages.
     */
    static void scatterAllgather(CollectiveChannel ch, MemorySegment data, int root, int elementSize) {
        int p = ch.size();
        int vr = (ch.rank() - root + p) % p;
        long[] offsets = Partition.blocks(data.byteSize() / elementSize, p, elementSize);
        // Binomial scatter of chunks in relative-rank order: the subtree of vr holds chunks [vr, vr + span).
        int mask = 1;
        while (mask < p) {
            if ((vr & mask) != 0) {
                int span = Math.min(mask, p - vr);
                ch.recv(slice(data, offsets, vr, vr + span), (vr - mask + root) % p);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0) {
            if (vr + mask < p) {
                int child = vr + mask;
                int span = Math.min(mask, p - child);
                ch.send(slice(data, offsets, child, child + span), (child + root) % p);
            }
            mask >>= 1;
        }
        // Ring allgather of the chunks, in relative ranks.
        int right = (vr + 1) % p;
        int left = (vr - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            int sendChunk = (vr - s + p) % p;
            int recvChunk = (vr - s - 1 + p) % p;
            ch.sendrecv(slice(data, offsets, sendChunk, sendChunk + 1), (right + root) % p,
                    slice(data, offsets, recvChunk, recvChunk + 1), (left + root) % p);
        }
    }

    private static MemorySegment slice(MemorySegment data, long[] offsets, int from, int to) {
        return data.asSlice(offsets[from], offsets[to] - offsets[from]);
    }
}
