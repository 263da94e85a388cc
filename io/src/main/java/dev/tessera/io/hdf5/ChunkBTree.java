package dev.tessera.io.hdf5;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the index of a chunked dataset: a version-1 B-tree of node type 1 (raw data
 * chunks), built bottom-up from the complete, sorted list of chunks (HDF5 file format
 * specification III.A.1). Layout of a node:
 *
 * <pre>
 *  "TREE" | type 1 | level | entries used (2) | left sibling (8) | right sibling (8)
 *  key 0 | child 0 | key 1 | child 1 | ... | key n       then zeros up to the full node size
 *  key = chunk size in bytes (4) | filter mask (4) | offset of the chunk in each dimension
 *        and a trailing 0 for the element "dimension" (8 each)
 * </pre>
 *
 * Invariants: chunks are in lexicographic (row-major) order of their offsets; key i of a node
 * is the first chunk offset under child i; key n is the first offset of the next node at the
 * same level, or for the last node the last chunk's offset plus the chunk size. A node holds
 * at most 2K = 64 children and is written at its full size: libhdf5 reads every node as
 * 2K entries of the file's K, which is 32 for a version-2 superblock without extension.
 */
final class ChunkBTree {

    static final int TWO_K = 64;

    /** One stored chunk: its offset in elements, where it is and how many bytes it holds. */
    record Entry(long[] offset, long address, int size) {
    }

    /** Where nodes go: space is allocated first (siblings point at each other), then written. */
    interface NodeWriter {
        long allocate(int size);

        void write(long address, byte[] node);
    }

    private ChunkBTree() {
    }

    /** Writes the tree and returns the root's address (undefined when there is no chunk). */
    static long write(List<Entry> chunks, int[] chunkDims, NodeWriter out) {
        if (chunks.isEmpty()) {
            return MetadataBuffer.UNDEFINED_ADDRESS;
        }
        int rank = chunkDims.length;
        long[] end = chunks.getLast().offset().clone();
        for (int d = 0; d < rank; d++) {
            end[d] += chunkDims[d];
        }
        List<Entry> level = chunks; // the children of the level of nodes being built
        for (int height = 0; ; height++) {
            int nodes = (level.size() + TWO_K - 1) / TWO_K;
            long[] addresses = new long[nodes];
            for (int i = 0; i < nodes; i++) {
                addresses[i] = out.allocate(nodeSize(rank));
            }
            List<Entry> parents = new ArrayList<>(nodes);
            for (int i = 0; i < nodes; i++) {
                int from = i * TWO_K;
                int to = Math.min(level.size(), from + TWO_K);
                long[] rightKey = to < level.size() ? level.get(to).offset() : end;
                long left = i > 0 ? addresses[i - 1] : MetadataBuffer.UNDEFINED_ADDRESS;
                long right = i + 1 < nodes ? addresses[i + 1] : MetadataBuffer.UNDEFINED_ADDRESS;
                out.write(addresses[i], encode(height, level.subList(from, to), rightKey, rank, left, right));
                parents.add(new Entry(level.get(from).offset(), addresses[i], level.get(from).size()));
            }
            if (nodes == 1) {
                return addresses[0];
            }
            level = parents;
        }
    }

    static int nodeSize(int rank) {
        return 24 + TWO_K * 8 + (TWO_K + 1) * keySize(rank);
    }

    private static int keySize(int rank) {
        return 8 + 8 * (rank + 1);
    }

    private static byte[] encode(int height, List<Entry> children, long[] rightKey, int rank, long left, long right) {
        MetadataBuffer b = new MetadataBuffer(nodeSize(rank));
        b.ascii("TREE").u8(1).u8(height).u16(children.size()).u64(left).u64(right);
        for (Entry e : children) {
            key(b, e.size(), e.offset());
            b.u64(e.address());
        }
        key(b, 0, rightKey);
        b.zeros(nodeSize(rank) - b.size());
        return b.toByteArray();
    }

    private static void key(MetadataBuffer b, int size, long[] offset) {
        b.u32(size).u32(0);
        for (long o : offset) {
            b.u64(o);
        }
        b.u64(0);
    }
}
