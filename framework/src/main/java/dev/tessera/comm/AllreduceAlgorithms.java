package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/**
 * Allreduce algorithms; each reduces {@code data} (count elements) in place across the
 * communicator. Non-commutative operations are combined in rank order.
 */
final class AllreduceAlgorithms {

    private AllreduceAlgorithms() {
    }

    /**
     * Recursive doubling with the MPICH treatment of non-powers of two: the first 2*rem
     * ranks pair up (odd ranks absorb their even neighbour's data), the remaining pof2
     * ranks exchange and combine with partners at distance 1, 2, 4, ..., and the odd ranks
     * finally hand the result back to their even neighbours. log2 p steps of the full
     * vector: the choice for short vectors.
     */
    static void recursiveDoubling(CollectiveChannel ch, MemorySegment data, int count, Op op) {
        int p = ch.size();
        int me = ch.rank();
        Datatype type = ch.type();
        MemorySegment tmp = CollectiveChannel.scratch(data.byteSize());
        int pof2 = Integer.highestOneBit(p);
        int rem = p - pof2;
        int newRank;
        if (me < 2 * rem) {
            if (me % 2 == 0) {
                ch.send(data, me + 1);
                newRank = -1;
            } else {
                ch.recv(tmp, me - 1);
                op.apply(tmp, data, count, type);
                newRank = me / 2;
            }
        } else {
            newRank = me - rem;
        }
        if (newRank >= 0) {
            for (int mask = 1; mask < pof2; mask <<= 1) {
                int newPartner = newRank ^ mask;
                int partner = newPartner < rem ? newPartner * 2 + 1 : newPartner + rem;
                ch.sendrecv(data, partner, tmp, partner);
                combineInRankOrder(op, tmp, data, count, type, partner < me);
            }
        }
        if (me < 2 * rem) {
            if (me % 2 != 0) {
                ch.send(data, me - 1);
            } else {
                ch.recv(data, me + 1);
            }
        }
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
