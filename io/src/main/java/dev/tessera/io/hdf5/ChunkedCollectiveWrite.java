package dev.tessera.io.hdf5;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Collective write of a chunked (and possibly deflated) dataset. Compressed sizes are only
 * known after compression, so chunk addresses cannot be computed up front as for a
 * contiguous dataset; instead:
 *
 * <ol>
 *   <li>Each chunk gets an owner: the rank whose block holds the chunk's first element.
 *       Every rank cuts its block along the chunk grid and sends each piece to the piece's
 *       owner in one all-to-all (ordered by owner, then chunk; receivers recompute the same
 *       order from the exchanged blocks). With chunk-aligned blocks nothing moves.</li>
 *   <li>Owners assemble their chunks one at a time (own piece straight from the caller's
 *       block, the others' from the receive buffer) and compress each at once, keeping only
 *       the stored bytes; all ranks then exchange the compressed sizes. Every rank reserves the same total in the file, and a chunk's address is the
 *       reservation plus the sizes of the chunks before it in row-major chunk order.</li>
 *   <li>Owners write their chunks at those addresses; rank 0 records the whole index,
 *       written as the dataset's B-tree at close.</li>
 * </ol>
 *
 * Memory per rank beyond the caller's block: the pieces it sends and receives (nothing for
 * chunk-aligned blocks) and the compressed bytes of the chunks it owns until they are written.
 */
final class ChunkedCollectiveWrite {

    private ChunkedCollectiveWrite() {
    }

    static void write(ParallelHdf5File file, Hdf5Dataset dataset, List<BlockClaim> claims, Hyperslab myBox,
            MemorySegment data) {
        Comm comm = file.comm();
        int p = comm.size();
        int me = comm.rank();
        ChunkStore store = dataset.chunkStore();
        Hdf5Type type = dataset.type();
        int size = type.size();
        long[] chunkShape = store.chunkShape();

        // 1. pieces of chunks other ranks own go to them; pieces this rank owns stay
        List<long[]> myChunks = new ArrayList<>(); // {key, origin...} of chunks my block touches
        List<Integer> myOwners = new ArrayList<>();
        if (myBox.volume() > 0) {
            store.forEachChunk(myBox, (origin, key) -> {
                long[] e = new long[origin.length + 1];
                e[0] = key;
                System.arraycopy(origin, 0, e, 1, origin.length);
                myChunks.add(e);
                myOwners.add(owner(claims, origin));
            });
        }
        long sendBytes = 0;
        for (int i = 0; i < myChunks.size(); i++) {
            if (myOwners.get(i) != me) {
                sendBytes += myBox.intersect(new Hyperslab(originOf(myChunks.get(i)), chunkShape)).volume() * size;
            }
        }
        if (sendBytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("a chunked collective write sends at most 2 GiB per rank per call; this"
                    + " rank would send " + sendBytes + " bytes (align blocks to chunks, or write a contiguous dataset)");
        }
        byte[] send = new byte[(int) sendBytes];
        MemorySegment sendSegment = MemorySegment.ofArray(send);
        int[] sendCounts = new int[p];
        int[] sendDispls = new int[p];
        int pos = 0;
        for (int dest = 0; dest < p; dest++) {
            sendDispls[dest] = pos;
            for (int i = 0; i < myChunks.size() && dest != me; i++) {
                if (myOwners.get(i) != dest) {
                    continue;
                }
                Hyperslab piece = myBox.intersect(new Hyperslab(originOf(myChunks.get(i)), chunkShape));
                Hyperslab.copy(data, type.hostLayout(), myBox.count(), myBox.offset(),
                        sendSegment.asSlice(pos), type.fileLayout(), piece.count(), piece.offset(), piece);
                pos += (int) (piece.volume() * size);
            }
            sendCounts[dest] = pos - sendDispls[dest];
        }
        int[] recvCounts = new int[p];
        int[] recvDispls = new int[p];
        TreeMap<Long, List<long[]>> incoming = new TreeMap<>(); // my chunk key -> {source, recv offset}
        List<Hyperslab> incomingPieces = new ArrayList<>();
        long received = 0;
        for (int s = 0; s < p; s++) {
            recvDispls[s] = (int) received;
            Hyperslab box = claims.get(s).box();
            if (s != me && box.volume() > 0) {
                long[] at = {received};
                store.forEachChunk(box, (origin, key) -> {
                    if (owner(claims, origin) == me) {
                        Hyperslab piece = box.intersect(new Hyperslab(origin, chunkShape));
                        incoming.computeIfAbsent(key, k -> new ArrayList<>())
                                .add(new long[] {incomingPieces.size(), at[0]});
                        incomingPieces.add(piece);
                        at[0] += piece.volume() * size;
                    }
                });
                if (at[0] > Integer.MAX_VALUE - 64) {
                    throw new IllegalArgumentException("this rank would receive more than 2 GiB of chunk pieces");
                }
                recvCounts[s] = (int) (at[0] - received);
                received = at[0];
            }
        }
        byte[] recv = new byte[(int) received];
        comm.alltoallv(Buffer.of(send), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
        send = null;
        sendSegment = null;

        // 2. assemble each chunk this rank owns and compress it at once, keeping only the
        // stored bytes; chunks are independent, so they are done in parallel on this JVM's
        // common pool (deflate is the costly part: one rank per node uses the node's cores)
        MemorySegment recvSegment = MemorySegment.ofArray(recv);
        List<Integer> ownedIndex = new ArrayList<>();
        for (int i = 0; i < myChunks.size(); i++) {
            if (myOwners.get(i) == me) {
                ownedIndex.add(i);
            }
        }
        List<Long> keys = new ArrayList<>();
        for (int i : ownedIndex) {
            keys.add(myChunks.get(i)[0]);
        }
        byte[][] stored = new byte[ownedIndex.size()][];
        java.util.stream.IntStream.range(0, ownedIndex.size()).parallel().forEach(j -> {
            long[] entry = myChunks.get(ownedIndex.get(j));
            long[] origin = originOf(entry);
            byte[] raw = new byte[store.chunkBytes()]; // zero beyond the dataset's extent
            MemorySegment rawSegment = MemorySegment.ofArray(raw);
            Hyperslab own = myBox.intersect(new Hyperslab(origin, chunkShape));
            Hyperslab.copy(data, type.hostLayout(), myBox.count(), myBox.offset(), rawSegment, type.fileLayout(),
                    chunkShape, origin, own);
            for (long[] in : incoming.getOrDefault(entry[0], List.of())) {
                Hyperslab piece = incomingPieces.get((int) in[0]);
                Hyperslab.copy(recvSegment.asSlice(in[1]), type.fileLayout(), piece.count(), piece.offset(),
                        rawSegment, type.fileLayout(), chunkShape, origin, piece);
            }
            stored[j] = store.encodeConcurrently(raw);
        });
        List<byte[]> encoded = new ArrayList<>(java.util.Arrays.asList(stored));
        recv = null;
        long[] mine = new long[keys.size() * 2];
        for (int i = 0; i < keys.size(); i++) {
            mine[2 * i] = keys.get(i);
            mine[2 * i + 1] = encoded.get(i).length;
        }
        List<long[]> all = comm.allgatherObject(mine);
        TreeMap<Long, long[]> global = new TreeMap<>(); // key -> {size, owner}
        long total = 0;
        for (int r = 0; r < all.size(); r++) {
            long[] sizes = all.get(r);
            for (int i = 0; i < sizes.length; i += 2) {
                global.put(sizes[i], new long[] {sizes[i + 1], r});
                total += sizes[i + 1];
            }
        }

        // 3. addresses, writes, index
        long base = file.writer().allocate(total, 8);
        long address = base;
        List<ChunkBTree.Entry> index = new ArrayList<>(global.size());
        TreeMap<Long, Long> addressOf = new TreeMap<>();
        for (var e : global.entrySet()) {
            addressOf.put(e.getKey(), address);
            index.add(new ChunkBTree.Entry(originOf(e.getKey(), chunkShape, dataset.shape()), address,
                    (int) e.getValue()[0]));
            address += e.getValue()[0];
        }
        for (int i = 0; i < keys.size(); i++) {
            file.writer().writeAt(addressOf.get(keys.get(i)), ByteBuffer.wrap(encoded.get(i)), dataset.path());
            encoded.set(i, null);
        }
        dataset.setGatheredChunks(index);
    }

    private static long[] originOf(long[] keyAndOrigin) {
        return Arrays.copyOfRange(keyAndOrigin, 1, keyAndOrigin.length);
    }

    /** The rank whose block holds {@code point}. */
    private static int owner(List<BlockClaim> claims, long[] point) {
        long[] one = new long[point.length];
        Arrays.fill(one, 1);
        Hyperslab p = new Hyperslab(point, one);
        for (BlockClaim c : claims) {
            if (c.box().volume() > 0 && c.box().intersect(p) != null) {
                return c.rank();
            }
        }
        throw new IllegalStateException("no rank's block holds " + Arrays.toString(point));
    }

    private static long[] originOf(long key, long[] chunkShape, long[] shape) {
        long[] o = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            long grid = (shape[d] + chunkShape[d] - 1) / chunkShape[d];
            o[d] = key % grid * chunkShape[d];
            key /= grid;
        }
        return o;
    }
}
