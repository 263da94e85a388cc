package dev.tessera.comm;

import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;

/**
 * Gather and scatter algorithms, equal blocks and v-variants. Block i of the root's
 * buffer belongs to rank i.
 */
final class GatherAlgorithms {

    private GatherAlgorithms() {
    }

    /**
     * Binomial gather: ranks are relative to the root; the subtree of relative rank vr
     * holds the blocks of relative ranks [vr, vr + span), so each rank forwards one
     * contiguous piece to its parent. The root reorders from relative to absolute ranks.
     */
    static void binomialGather(CollectiveChannel ch, MemorySegment mine, MemorySegment result, int root) {
        int p = ch.size();
        int vr = Math.floorMod(ch.rank() - root, p);
        long block = mine.byteSize();
        MemorySegment tmp = CollectiveChannel.scratch(block * subtreeSize(vr, p));
        MemorySegment.copy(mine, 0, tmp, 0, block);
        for (int mask = 1; mask < p; mask <<= 1) {
            if ((vr & mask) == 0) {
                int child = vr + mask;
                if (child < p) {
                    int span = Math.min(mask, p - child);
                    ch.recv(tmp.asSlice(mask * block, span * block), (child + root) % p);
                }
            } else {
                ch.send(tmp.asSlice(0, Math.min(mask, p - vr) * block), (vr - mask + root) % p);
                return;
            }
        }
        for (int i = 0; i < p; i++) {
            MemorySegment.copy(tmp, i * block, result, ((i + root) % p) * block, block);
        }
    }

    /** Binomial scatter: the reverse of {@link #binomialGather}. */
    static void binomialScatter(CollectiveChannel ch, MemorySegment source, MemorySegment mine, int root) {
        int p = ch.size();
        int vr = Math.floorMod(ch.rank() - root, p);
        long block = mine.byteSize();
        int span = subtreeSize(vr, p);
        MemorySegment tmp = CollectiveChannel.scratch(block * span);
        int mask = 1;
        if (vr == 0) {
            for (int i = 0; i < p; i++) {
                MemorySegment.copy(source, ((i + root) % p) * block, tmp, i * block, block);
            }
            mask = Integer.highestOneBit(Math.max(1, p - 1)) << 1;
        } else {
            while ((vr & mask) == 0) {
                mask <<= 1;
            }
            ch.recv(tmp.asSlice(0, span * block), (vr - mask + root) % p);
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = vr + mask;
            if (child < p) {
                int childSpan = Math.min(mask, p - child);
                ch.send(tmp.asSlice(mask * block, childSpan * block), (child + root) % p);
            }
        }
        MemorySegment.copy(tmp, 0, mine, 0, block);
    }

    /** Number of blocks the subtree of relative rank vr holds: its lowest set bit, clipped to p. */
    private static int subtreeSize(int vr, int p) {
        int lowest = vr == 0 ? Integer.highestOneBit(Math.max(1, p - 1)) << 1 : Integer.lowestOneBit(vr);
        return Math.min(lowest, p - vr);
    }

    /** Linear gather: the root posts a receive per rank. Serves gather and gatherv. */
    static void linearGather(CollectiveChannel ch, MemorySegment mine, MemorySegment[] blocks, int root) {
        if (ch.rank() != root) {
            ch.send(mine, root);
            return;
        }
        DeviceRequest[] rs = new DeviceRequest[ch.size()];
        for (int r = 0; r < ch.size(); r++) {
            if (r == root) {
                MemorySegment.copy(mine, 0, blocks[r], 0, blocks[r].byteSize());
            } else {
                rs[r] = ch.irecv(blocks[r], r);
            }
        }
        ch.awaitAll(rs);
    }

    /** Linear scatter: the root posts a send per rank. Serves scatter and scatterv. */
    static void linearScatter(CollectiveChannel ch, MemorySegment[] blocks, MemorySegment mine, int root) {
        if (ch.rank() != root) {
            ch.recv(mine, root);
            return;
        }
        DeviceRequest[] rs = new DeviceRequest[ch.size()];
        for (int r = 0; r < ch.size(); r++) {
            if (r == root) {
                MemorySegment.copy(blocks[r], 0, mine, 0, mine.byteSize());
            } else {
                rs[r] = ch.isend(blocks[r], r);
            }
        }
        ch.awaitAll(rs);
    }
}
