package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/** Allgather algorithms; block i of {@code data} belongs to rank i, this rank's block is already in place. */
final class AllgatherAlgorithms {

    private AllgatherAlgorithms() {
    }

    /**
     * Ring: in step s every rank passes the block it received in step s-1 to its right
     * neighbour. p-1 steps, one block per link each: bandwidth-optimal for large blocks.
     */
    static void ring(CollectiveChannel ch, MemorySegment data, long blockBytes) {
        int p = ch.size();
        long[] offsets = new long[p + 1];
        for (int i = 0; i <= p; i++) {
            offsets[i] = i * blockBytes;
        }
        ringV(ch, data, offsets);
    }

    /**
     * Ring over blocks of different sizes: block i is {@code [offsets[i], offsets[i+1])}
     * when displacements are contiguous; for arbitrary displacements use
     * {@link #ringV(CollectiveChannel, MemorySegment[])}.
     */
    static void ringV(CollectiveChannel ch, MemorySegment data, long[] offsets) {
        int p = ch.size();
        MemorySegment[] blocks = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            blocks[i] = data.asSlice(offsets[i], offsets[i + 1] - offsets[i]);
        }
        ringV(ch, blocks);
    }

    /** Ring over arbitrary blocks (allgatherv). */
    static void ringV(CollectiveChannel ch, MemorySegment[] blocks) {
        int p = ch.size();
        int me = ch.rank();
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            int sendBlock = Math.floorMod(me - s, p);
            int recvBlock = Math.floorMod(me - s - 1, p);
            ch.sendrecv(blocks[sendBlock], right, blocks[recvBlock], left);
        }
    }

    /**
     * Bruck: in round k every rank sends the 2^k blocks it has (its own and those of the
     * next ranks) to rank - 2^k and receives as many from rank + 2^k; ceil(log2 p) rounds
     * for any p, then a local rotation. The choice for small blocks.
     */
    static void bruck(CollectiveChannel ch, MemorySegment data, long blockBytes) {
        int p = ch.size();
        int me = ch.rank();
        MemorySegment tmp = CollectiveChannel.scratch(blockBytes * p);
        MemorySegment.copy(data, me * blockBytes, tmp, 0, blockBytes);
        for (int have = 1; have < p; have <<= 1) {
            int n = Math.min(have, p - have);
            ch.sendrecv(tmp.asSlice(0, n * blockBytes), Math.floorMod(me - have, p),
                    tmp.asSlice(have * blockBytes, n * blockBytes), (me + have) % p);
        }
        for (int i = 0; i < p; i++) {
            MemorySegment.copy(tmp, i * blockBytes, data, ((me + i) % p) * blockBytes, blockBytes);
        }
    }
}
