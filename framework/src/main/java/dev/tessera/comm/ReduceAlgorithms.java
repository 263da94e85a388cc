package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/**
 * Reduce, scan and reduce-scatter algorithms. Each works in place on {@code data}, which
 * holds this rank's contribution on entry.
 */
final class ReduceAlgorithms {

    private ReduceAlgorithms() {
    }

    /**
     * Binomial tree. For a commutative operation the tree is rooted at the root (ranks
     * relative to it); for a non-commutative one it is rooted at rank 0 so that every
     * combine joins two contiguous, ordered rank ranges (mine, then my child's higher
     * one), and rank 0 forwards the result to the root. On return the root's data holds
     * the result; other ranks' data is scratch.
     */
    static void binomial(CollectiveChannel ch, MemorySegment data, int count, Op op, int root) {
        int p = ch.size();
        boolean ordered = !op.isCommutative();
        int treeRoot = ordered ? 0 : root;
        int vr = Math.floorMod(ch.rank() - treeRoot, p);
        MemorySegment tmp = CollectiveChannel.scratch(data.byteSize());
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((vr & mask) == 0) {
                int child = vr | mask;
                if (child < p) {
                    ch.recv(tmp, (child + treeRoot) % p);
                    AllreduceAlgorithms.combineInRankOrder(op, tmp, data, count, ch.type(), false);
                }
            } else {
                ch.send(data, (vr - mask + treeRoot) % p);
                break;
            }
        }
        if (ordered && root != 0) {
            if (ch.rank() == 0) {
                ch.send(data, root);
            } else if (ch.rank() == root) {
                ch.recv(data, 0);
            }
        }
    }

    /**
     * Inclusive scan by recursive doubling: each rank keeps the reduction of the ranks
     * below it seen so far (result) and of its whole hypercube subgroup (partial),
     * exchanging partials with partners at distance 1, 2, 4, ... Order-safe.
     * With {@code exclusive}, the result leaves out this rank's own contribution and rank
     * 0's data is left untouched; returns whether data holds a result.
     */
    static boolean scan(CollectiveChannel ch, MemorySegment data, int count, Op op, boolean exclusive) {
        int p = ch.size();
        int me = ch.rank();
        MemorySegment partial = CollectiveChannel.scratch(data.byteSize());
        MemorySegment.copy(data, 0, partial, 0, data.byteSize());
        MemorySegment tmp = CollectiveChannel.scratch(data.byteSize());
        boolean haveResult = !exclusive;
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = me ^ mask;
            if (partner >= p) {
                continue;
            }
            ch.sendrecv(partial, partner, tmp, partner);
            if (partner < me) {
                if (haveResult) {
                    op.apply(tmp, data, count, ch.type());
                } else {
                    MemorySegment.copy(tmp, 0, data, 0, data.byteSize());
                    haveResult = true;
                }
                op.apply(tmp, partial, count, ch.type());
            } else {
                AllreduceAlgorithms.combineInRankOrder(op, tmp, partial, count, ch.type(), false);
            }
        }
        return haveResult;
    }

    /**
     * Reduce-scatter of equal blocks around a ring (commutative operations): after p-1
     * steps rank r holds the reduced block r in {@code data}'s block r.
     */
    static void ringReduceScatter(CollectiveChannel ch, MemorySegment data, int blockCount, Op op) {
        int p = ch.size();
        int me = ch.rank();
        long blockBytes = (long) blockCount * ch.type().byteSize();
        MemorySegment incoming = CollectiveChannel.scratch(blockBytes);
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            int sendBlock = Math.floorMod(me - s - 1, p);
            int recvBlock = Math.floorMod(me - s - 2, p);
            ch.sendrecv(data.asSlice(sendBlock * blockBytes, blockBytes), right, incoming, left);
            op.apply(incoming, data.asSlice(recvBlock * blockBytes, blockBytes), blockCount, ch.type());
        }
    }
}
