package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/**
 * Allreduce algorithms; each reduces {@code data} (count elements) in place across the
 * communicator. {@link #recursiveDoubling} combines in rank order and so serves
 * non-commutative operations; {@link #ring} and {@link #rabenseifner} reassociate and
 * are used for commutative operations only (the dispatcher enforces it).
 */
final class AllreduceAlgorithms {

    private AllreduceAlgorithms() {
    }

    /** Rank of a participant of the power-of-two core, after the pairing step of the first 2*rem ranks. */
    private static int coreToRank(int coreRank, int rem) {
        return coreRank < rem ? coreRank * 2 + 1 : coreRank + rem;
    }

    /**
     * Folds the first 2*rem ranks pairwise (odd ranks absorb their even neighbour) so that
     * a power-of-two core of ranks remains; returns this rank's core rank or -1.
     */
    private static int foldToPowerOfTwo(CollectiveChannel ch, MemorySegment data, MemorySegment tmp, int count, Op op) {
        int me = ch.rank();
        int rem = ch.size() - Integer.highestOneBit(ch.size());
        if (me >= 2 * rem) {
            return me - rem;
        }
        if (me % 2 == 0) {
            ch.send(data, me + 1);
            return -1;
        }
        ch.recv(tmp, me - 1);
        op.apply(tmp, data, count, ch.type());
        return me / 2;
    }

    /** Hands the result back to the ranks folded out by {@link #foldToPowerOfTwo}. */
    private static void unfold(CollectiveChannel ch, MemorySegment data) {
        int me = ch.rank();
        int rem = ch.size() - Integer.highestOneBit(ch.size());
        if (me < 2 * rem) {
            if (me % 2 != 0) {
                ch.send(data, me - 1);
            } else {
                ch.recv(data, me + 1);
            }
        }
    }

    /**
     * Recursive doubling with the MPICH treatment of non-powers of two: fold the first
     * 2*rem ranks pairwise, exchange the full vector with partners at distance 1, 2, 4, ...
     * in the power-of-two core, unfold. log2 p steps of the whole vector: the choice for
     * short vectors and for non-commutative operations.
     */
    static void recursiveDoubling(CollectiveChannel ch, MemorySegment data, int count, Op op) {
        MemorySegment tmp = CollectiveChannel.reusedScratch(data.byteSize());
        int core = foldToPowerOfTwo(ch, data, tmp, count, op);
        if (core >= 0) {
            int rem = ch.size() - Integer.highestOneBit(ch.size());
            for (int mask = 1; mask < Integer.highestOneBit(ch.size()); mask <<= 1) {
                int partner = coreToRank(core ^ mask, rem);
                ch.sendrecv(data, partner, tmp, partner);
                combineInRankOrder(op, tmp, data, count, ch.type(), partner < ch.rank());
            }
        }
        unfold(ch, data);
    }

    /**
     * Rabenseifner: a reduce-scatter by recursive halving (each step exchanges half of the
     * current window with the partner and keeps the reduced half) followed by an allgather
     * by recursive doubling, on the power-of-two core. About 2n bytes per rank instead of
     * n log p: the choice for long vectors of moderate size. Commutative operations only.
     */
    static void rabenseifner(CollectiveChannel ch, MemorySegment data, int count, Op op) {
        int esize = ch.type().byteSize();
        MemorySegment tmp = CollectiveChannel.reusedScratch(data.byteSize());
        int core = foldToPowerOfTwo(ch, data, tmp, count, op);
        int pof2 = Integer.highestOneBit(ch.size());
        int rem = ch.size() - pof2;
        if (core >= 0 && pof2 > 1) {
            int[] start = Partition.counts(count, pof2);
            int lo = 0;
            int hi = pof2;
            for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
                int partner = coreToRank(core ^ mask, rem);
                int mid = lo + mask;
                boolean keepLow = (core & mask) == 0;
                int keepFrom = keepLow ? lo : mid;
                int keepTo = keepLow ? mid : hi;
                int sendFrom = keepLow ? mid : lo;
                int sendTo = keepLow ? hi : mid;
                MemorySegment keep = span(data, start, keepFrom, keepTo, esize);
                MemorySegment incoming = tmp.asSlice(0, keep.byteSize());
                ch.sendrecv(span(data, start, sendFrom, sendTo, esize), partner, incoming, partner);
                op.apply(incoming, keep, start[keepTo] - start[keepFrom], ch.type());
                lo = keepFrom;
                hi = keepTo;
            }
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int partner = coreToRank(core ^ mask, rem);
                int base = core & ~(mask - 1);
                int partnerBase = (core ^ mask) & ~(mask - 1);
                ch.sendrecv(span(data, start, base, base + mask, esize), partner,
                        span(data, start, partnerBase, partnerBase + mask, esize), partner);
            }
        }
        unfold(ch, data);
    }

    /**
     * Ring: a reduce-scatter around the ring (p-1 steps, each passing one block to the
     * right neighbour, which adds its own) then a ring allgather of the reduced blocks.
     * Bandwidth-optimal for very long vectors; commutative operations only.
     */
    static void ring(CollectiveChannel ch, MemorySegment data, int count, Op op) {
        int p = ch.size();
        int me = ch.rank();
        int esize = ch.type().byteSize();
        int[] start = Partition.counts(count, p);
        MemorySegment tmp = CollectiveChannel.reusedScratch((long) (start[1] - start[0] + 1) * esize);
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            int sendBlock = Math.floorMod(me - s, p);
            int recvBlock = Math.floorMod(me - s - 1, p);
            MemorySegment target = span(data, start, recvBlock, recvBlock + 1, esize);
            MemorySegment incoming = tmp.asSlice(0, target.byteSize());
            ch.sendrecv(span(data, start, sendBlock, sendBlock + 1, esize), right, incoming, left);
            op.apply(incoming, target, start[recvBlock + 1] - start[recvBlock], ch.type());
        }
        for (int s = 0; s < p - 1; s++) {
            int sendBlock = Math.floorMod(me + 1 - s, p);
            int recvBlock = Math.floorMod(me - s, p);
            ch.sendrecv(span(data, start, sendBlock, sendBlock + 1, esize), right,
                    span(data, start, recvBlock, recvBlock + 1, esize), left);
        }
    }

    /** Blocks [from, to) of a vector partitioned at element offsets {@code start}. */
    static MemorySegment span(MemorySegment data, int[] start, int from, int to, int esize) {
        return data.asSlice((long) start[from] * esize, (long) (start[to] - start[from]) * esize);
    }

    /**
     * {@code data = other op data} if the other contribution comes from lower ranks, else
     * {@code data = data op other} (using {@code other} as scratch).
     */
    static void combineInRankOrder(Op op, MemorySegment other, MemorySegment data, int count, Datatype type,
                                   boolean otherIsLower) {
        if (otherIsLower || op.isCommutative()) {
            op.apply(other, data, count, type);
        } else {
            op.apply(data, other, count, type);
            MemorySegment.copy(other, 0, data, 0, data.byteSize());
        }
    }
}
