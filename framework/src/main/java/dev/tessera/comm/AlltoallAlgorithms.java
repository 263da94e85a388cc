package dev.tessera.comm;

import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;

/** All-to-all algorithms over per-rank blocks (equal or not): send block i goes to rank i. */
final class AlltoallAlgorithms {

    private AlltoallAlgorithms() {
    }

    /**
     * Pairwise exchange: in step i every rank sends to rank + i and receives from
     * rank - i, so each step is a permutation and no rank is flooded. The choice for
     * medium and large blocks.
     */
    static void pairwise(CollectiveChannel ch, MemorySegment[] send, MemorySegment[] recv) {
        int p = ch.size();
        int me = ch.rank();
        MemorySegment.copy(send[me], 0, recv[me], 0, send[me].byteSize());
        for (int i = 1; i < p; i++) {
            int dest = (me + i) % p;
            int source = Math.floorMod(me - i, p);
            ch.sendrecv(send[dest], dest, recv[source], source);
        }
    }

    /** Linear: post every receive and send at once, then wait. Fewest steps for small blocks. */
    static void linear(CollectiveChannel ch, MemorySegment[] send, MemorySegment[] recv) {
        int p = ch.size();
        int me = ch.rank();
        MemorySegment.copy(send[me], 0, recv[me], 0, send[me].byteSize());
        DeviceRequest[] rs = new DeviceRequest[2 * p];
        for (int i = 1; i < p; i++) {
            int source = Math.floorMod(me - i, p);
            rs[i] = ch.irecv(recv[source], source);
        }
        for (int i = 1; i < p; i++) {
            int dest = (me + i) % p;
            rs[p + i] = ch.isend(send[dest], dest);
        }
        ch.awaitAll(rs);
    }
}
