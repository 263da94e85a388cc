package dev.tessera.comm;

import java.lang.foreign.MemorySegment;

/** Allgather algorithms on equal blocks; block i of {@code data} belongs to rank i. */
final class AllgatherAlgorithms {

    private AllgatherAlgorithms() {
    }

    /**
     * Ring: in step s every rank passes the block it received in step s-1 to its right
     * neighbour. p-1 steps, each moving one block per link: bandwidth-optimal for large blocks.
     */
    static void ring(CollectiveChannel ch, MemorySegment data, long blockBytes) {
        int p = ch.size();
        int me = ch.rank();
        int right = (me + 1) % p;
        int left = (me - 1 + p) % p;
        for (int s = 0; s < p - 1; s++) {
            int sendBlock = (me - s + p) % p;
            int recvBlock = (me - s - 1 + p) % p;
            ch.sendrecv(data.asSlice(sendBlock * blockBytes, blockBytes), right,
                    data.asSlice(recvBlock * blockBytes, blockBytes), left);
        }
    }
}
