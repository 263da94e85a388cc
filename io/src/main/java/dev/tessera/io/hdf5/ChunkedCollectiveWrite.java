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
 *   <li>Owners assemble and compress their chunks, and all ranks exchange the compressed
 *       sizes. Every rank reserves the same total in the file, and a chunk's address is the
 *       reservation plus the sizes of the chunks before it in row-major chunk order.</li>
 *   <li>Owners write their chunks at those addresses; rank 0 records the whole index,
 *       written as the dataset's B-tree at close.</li>
 * </ol>
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

        // 1. pieces to owners
        long sendBytes = myBox.volume() * size;
        if (sendBytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("a chunked collective write moves at most 2 GiB per rank per call; this"
                    + " rank's block holds " + sendBytes + " bytes (write a contiguous dataset, or smaller blocks)");
        }
        byte[] send = new byte[(int) sendBytes];
        MemorySegment sendSegment = MemorySegment.ofArray(send);
        int[] sendCounts = new int[p];
        int[] sendDispls = new int[p];
        List<long[]> myChunks = new ArrayList<>(); // {key, origin...}
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
        int pos = 0;
        for (int dest = 0; dest < p; dest++) {
            sendDispls[dest] = pos;
            if (myBox.volume() > 0) {
                for (int i = 0; i < myChunks.size(); i++) {
                    if (myOwners.get(i) != dest) {
                        continue;
                    }
                    long[] origin = Arrays.copyOfRange(myChunks.get(i), 1, myChunks.get(i).length);
                    Hyperslab piece = myBox.intersect(new Hyperslab(origin, chunkShape));
                    Hyperslab.copy(data, type.hostLayout(), myBox.count(), myBox.offset(),
                            sendSegment.asSlice(pos), type.fileLayout(), piece.count(), piece.offset(), piece);
                    pos += (int) (piece.volume() * size);
                }
            }
            sendCounts[dest] = pos - sendDispls[dest];
        }
        int[] recvCounts = new int[p];
        int[] recvDispls = new int[p];
        TreeMap<Long, long[]> owned = new TreeMap<>(); // key -> origin, for chunks this rank owns
        List<List<Hyperslab>> incoming = new ArrayList<>();
        long received = 0;
        for (int s = 0; s < p; s++) {
            List<Hyperslab> pieces = new ArrayList<>();
            Hyperslab box = claims.get(s).box();
            if (box.volume() > 0) {
                store.forEachChunk(box, (origin, key) -> {
                    if (owner(claims, origin) == me) {
                        pieces.add(box.intersect(new Hyperslab(origin, chunkShape)));
                        owned.put(key, origin);
                    }
                });
            }
            recvDispls[s] = (int) received;
            long bytes = 0;
            for (Hyperslab h : pieces) {
                bytes += h.volume() * size;
            }
            recvCounts[s] = (int) bytes;
            received += bytes;
            incoming.add(pieces);
        }
        if (received > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("this rank would receive " + received + " bytes of chunks (at most 2 GiB)");
        }
        byte[] recv = new byte[(int) received];
        comm.alltoallv(Buffer.of(send), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
        send = null;

        // 2. assemble, compress, exchange sizes
        TreeMap<Long, byte[]> chunks = new TreeMap<>();
        for (var e : owned.entrySet()) {
            chunks.put(e.getKey(), new byte[store.chunkBytes()]);
        }
        MemorySegment recvSegment = MemorySegment.ofArray(recv);
        for (int s = 0; s < p; s++) {
            long at = recvDispls[s];
            for (Hyperslab piece : incoming.get(s)) {
                long[] origin = chunkOrigin(piece.offset(), chunkShape);
                byte[] chunk = chunks.get(keyOf(origin, chunkShape, dataset.shape()));
                Hyperslab.copy(recvSegment.asSlice(at), type.fileLayout(), piece.count(), piece.offset(),
                        MemorySegment.ofArray(chunk), type.fileLayout(), chunkShape, origin, piece);
                at += piece.volume() * size;
            }
        }
        recv = null;
        List<Long> keys = new ArrayList<>(chunks.keySet());
        List<byte[]> encoded = new ArrayList<>(keys.size());
        long[] mine = new long[keys.size() * 2];
        for (int i = 0; i < keys.size(); i++) {
            byte[] stored = store.encode(chunks.get(keys.get(i)));
            chunks.put(keys.get(i), null);
            encoded.add(stored);
            mine[2 * i] = keys.get(i);
            mine[2 * i + 1] = stored.length;
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
        }
        dataset.setGatheredChunks(index);
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

    private static long[] chunkOrigin(long[] point, long[] chunkShape) {
        long[] o = new long[point.length];
        for (int d = 0; d < o.length; d++) {
            o[d] = point[d] / chunkShape[d] * chunkShape[d];
        }
        return o;
    }

    private static long keyOf(long[] origin, long[] chunkShape, long[] shape) {
        long key = 0;
        for (int d = 0; d < origin.length; d++) {
            long grid = (shape[d] + chunkShape[d] - 1) / chunkShape[d];
            key = key * grid + origin[d] / chunkShape[d];
        }
        return key;
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
