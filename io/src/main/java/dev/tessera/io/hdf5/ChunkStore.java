package dev.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * The chunks of one chunked dataset being written. A part of the dataset is cut along the
 * chunk grid; each piece is copied (converted to little endian) into its chunk's buffer,
 * and a chunk whose every in-bounds element has arrived is compressed (zlib, as the HDF5
 * deflate filter stores it), appended to the file and forgotten except for its index entry.
 * Edge chunks are stored at full chunk size, zero beyond the dataset's extent, as HDF5 does.
 */
final class ChunkStore {

    private final Hdf5Writer file;
    private final String path;
    private final Hdf5Type type;
    private final long[] shape;
    private final int[] chunk;
    private final long[] chunkShape;
    private final int chunkBytes;
    private final int deflateLevel;
    private final Deflater deflater;
    private final Map<Long, Pending> pending = new HashMap<>();
    private final List<ChunkBTree.Entry> written = new ArrayList<>();
    private final long[] grid;

    private static final class Pending {
        final long[] origin;
        final byte[] bytes;
        final long expected;
        long filled;

        Pending(long[] origin, int size, long expected) {
            this.origin = origin;
            this.bytes = new byte[size];
            this.expected = expected;
        }
    }

    ChunkStore(Hdf5Writer file, String path, Hdf5Type type, long[] shape, int[] chunk, int deflateLevel) {
        this.file = file;
        this.path = path;
        this.type = type;
        this.shape = shape;
        this.chunk = chunk;
        this.chunkShape = Arrays.stream(chunk).asLongStream().toArray();
        long bytes = type.size();
        for (int c : chunk) {
            bytes = Math.multiplyExact(bytes, (long) c);
        }
        if (bytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(file.path() + ": chunks of " + path + " hold " + bytes
                    + " bytes; HDF5 chunks hold less than 4 GiB (choose smaller chunk dimensions)");
        }
        this.chunkBytes = (int) bytes;
        this.deflateLevel = deflateLevel;
        this.deflater = deflateLevel > 0 ? new Deflater(deflateLevel) : null;
        this.grid = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            grid[d] = (shape[d] + chunk[d] - 1) / chunk[d];
        }
    }

    /** Copies the part {@code box} (held row-major in {@code src}) into its chunks. */
    void write(Hyperslab box, MemorySegment src) {
        if (box.volume() == 0) {
            return;
        }
        forEachChunk(box, (origin, key) -> {
            Hyperslab piece = box.intersect(new Hyperslab(origin, chunkShape));
            Pending p = pending.get(key);
            if (p == null) {
                p = new Pending(origin, chunkBytes, inBounds(origin));
                pending.put(key, p);
            }
            Hyperslab.copy(src, type.hostLayout(), box.count(), box.offset(),
                    MemorySegment.ofArray(p.bytes), type.fileLayout(), chunkShape, origin, piece);
            p.filled += piece.volume();
            if (p.filled >= p.expected) {
                pending.remove(key);
                store(p.origin, p.bytes);
            }
        });
    }

    /** Stores every chunk still incomplete (elements never written stay zero). */
    void flush() {
        List<Pending> rest = new ArrayList<>(pending.values());
        pending.clear();
        rest.sort(Comparator.comparing(p -> p.origin, Arrays::compare));
        for (Pending p : rest) {
            store(p.origin, p.bytes);
        }
    }

    /** The chunks written, sorted in row-major order of their offsets (the B-tree's order). */
    List<ChunkBTree.Entry> entries() {
        List<ChunkBTree.Entry> sorted = new ArrayList<>(written);
        sorted.sort(Comparator.comparing(ChunkBTree.Entry::offset, Arrays::compare));
        return sorted;
    }

    /** The chunk's bytes as stored: deflated, or as they are. */
    byte[] encode(byte[] raw) {
        return deflater == null ? raw : deflate(raw, deflater);
    }

    /**
     * Like {@link #encode} but safe to call from several threads at once (a deflater of its
     * own per call); returns a copy when nothing is compressed.
     */
    byte[] encodeConcurrently(byte[] raw) {
        if (deflateLevel == 0) {
            return raw.clone();
        }
        Deflater d = new Deflater(deflateLevel);
        try {
            return deflate(raw, d);
        } finally {
            d.end();
        }
    }

    private static byte[] deflate(byte[] raw, Deflater d) {
        d.reset();
        d.setInput(raw);
        d.finish();
        byte[] out = new byte[raw.length + raw.length / 1000 + 64];
        int n = 0;
        while (!d.finished()) {
            if (n == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            n += d.deflate(out, n, out.length - n);
        }
        return Arrays.copyOf(out, n);
    }

    private void store(long[] origin, byte[] raw) {
        byte[] stored = encode(raw);
        long address = file.appendData(stored, path);
        written.add(new ChunkBTree.Entry(origin, address, stored.length));
    }

    int chunkBytes() {
        return chunkBytes;
    }

    long[] chunkShape() {
        return chunkShape;
    }

    /** Elements of the chunk at {@code origin} that lie inside the dataset. */
    long inBounds(long[] origin) {
        long v = 1;
        for (int d = 0; d < shape.length; d++) {
            v *= Math.min(chunk[d], shape[d] - origin[d]);
        }
        return v;
    }

    interface ChunkVisitor {
        void visit(long[] origin, long key);
    }

    /** Visits every chunk that {@code box} touches, with its origin and linear grid index. */
    void forEachChunk(Hyperslab box, ChunkVisitor visitor) {
        int n = shape.length;
        long[] first = new long[n];
        long[] last = new long[n];
        for (int d = 0; d < n; d++) {
            first[d] = box.offset()[d] / chunk[d];
            last[d] = (box.offset()[d] + box.count()[d] - 1) / chunk[d];
        }
        long[] c = first.clone();
        while (true) {
            long[] origin = new long[n];
            long key = 0;
            for (int d = 0; d < n; d++) {
                origin[d] = c[d] * chunk[d];
                key = key * grid[d] + c[d];
            }
            visitor.visit(origin, key);
            int d = n - 1;
            while (d >= 0) {
                if (++c[d] <= last[d]) {
                    break;
                }
                c[d] = first[d];
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }
}
