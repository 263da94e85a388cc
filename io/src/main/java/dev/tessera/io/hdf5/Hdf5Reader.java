package dev.tessera.io.hdf5;

import dev.tessera.io.direct.DirectIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Reads boxes of datasets from an HDF5 file without reading the rest: a contiguous
 * dataset's box is read as its runs (runs close together in the file share one read of at
 * most 4 MiB), a chunked one's as the chunks the box touches, inflated if deflated. This is
 * what a distributed read needs: every rank reads only its block.
 *
 * <p>Reads what {@link Hdf5Writer} writes and the common files of libhdf5 (h5py's defaults:
 * superblock v0, symbol-table groups): little-endian IEEE float and signed integer
 * datasets, contiguous, compact or chunked (v1 B-tree index, deflate). Anything else throws
 * {@link Hdf5FormatException} with {@code unsupported()} true (jHDF reads more of HDF5).
 * Thread-safe for concurrent reads (positional reads on one channel).
 */
public final class Hdf5Reader implements AutoCloseable {

    private static final int WINDOW_BYTES = 4 << 20;
    private static final int MAX_GAP = 64 << 10;

    private final Path path;
    private final FileChannel channel;
    private FileChannel direct;   // the same file opened with O_DIRECT, on first large read
    private int directState;      // 0: not tried yet, 1: open, -1: not available (or switched off)
    private final ObjectHeaderReader headers;
    private final Map<String, DatasetInfo> datasets = new HashMap<>();
    private final NativeHdf5.Reader nativeFile; // non-null with Hdf5Backend.NATIVE: libhdf5 reads, not this class

    private Hdf5Reader(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
        this.headers = new ObjectHeaderReader(path, channel);
        this.nativeFile = null;
    }

    private Hdf5Reader(Path path, NativeHdf5.Reader nativeFile) {
        this.path = path;
        this.channel = null;
        this.headers = null;
        this.nativeFile = nativeFile;
    }

    /** Opens {@code path} with the backend {@link Hdf5Backend#selected()}; throws {@link Hdf5FormatException} when it is not HDF5. */
    public static Hdf5Reader open(Path path) {
        return open(path, Hdf5Backend.selected());
    }

    /**
     * Opens {@code path} with {@code backend}: {@link Hdf5Backend#TESSERA} (this class) or
     * {@link Hdf5Backend#NATIVE} (libhdf5: the same API, and every HDF5 feature the library reads).
     */
    public static Hdf5Reader open(Path path, Hdf5Backend backend) {
        if (backend == Hdf5Backend.NATIVE) {
            return new Hdf5Reader(path, new NativeHdf5.Reader(path));
        }
        Hdf5Writer.directEnabled(); // a bad value of the property is named before anything is read
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot open for reading: " + e, e);
        }
        try {
            return new Hdf5Reader(path, ch);
        } catch (RuntimeException e) {
            try {
                ch.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** The names of the children of group {@code groupPath}. */
    public List<String> list(String groupPath) {
        if (nativeFile != null) {
            return nativeFile.list(groupPath);
        }
        long address = resolve(groupPath);
        return new ArrayList<>(headers.children(groupPath, headers.messages(address)).keySet());
    }

    /**
     * The attributes of the group or dataset at {@code objectPath}: numbers as boxed scalars
     * or primitive arrays (1-d), fixed-length strings as Strings. Attributes of other types
     * (variable-length strings, as h5py writes Python str by default; compounds; dense
     * attribute storage) are left out: read those with jHDF or h5py.
     */
    public Map<String, Object> attributes(String objectPath) {
        if (nativeFile != null) {
            return nativeFile.attributes(objectPath);
        }
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        for (ObjectHeaderReader.Message m : headers.messages(resolve(objectPath))) {
            if (m.type() == ObjectHeader.MSG_ATTRIBUTE) {
                AttributeDecoder.decode(m.body(), out);
            }
        }
        return out;
    }

    /** Describes dataset {@code datasetPath}; throws naming the file and path when it is absent. */
    public synchronized DatasetInfo dataset(String datasetPath) {
        if (nativeFile != null) {
            return nativeFile.dataset(datasetPath);
        }
        DatasetInfo info = datasets.get(datasetPath);
        if (info == null) {
            info = describe(datasetPath, headers.messages(resolve(datasetPath)));
            datasets.put(datasetPath, info);
        }
        return info;
    }

    /** All of dataset {@code datasetPath} as a flat row-major array of its type. */
    public Object read(String datasetPath) {
        DatasetInfo info = dataset(datasetPath);
        return read(datasetPath, new long[info.shape().length], info.shape());
    }

    /** The box at {@code offset} of {@code count} elements as a flat row-major array. */
    public Object read(String datasetPath, long[] offset, long[] count) {
        DatasetInfo info = dataset(datasetPath);
        Hyperslab box = new Hyperslab(offset, count);
        if (!box.fitsIn(info.shape())) {
            throw new IllegalArgumentException(path + " read(" + datasetPath + "): box " + box
                    + " is outside the dataset's shape " + Arrays.toString(info.shape()));
        }
        long volume = box.volume();
        if (volume > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(path + " read(" + datasetPath + "): box " + box + " holds " + volume
                    + " elements, more than one Java array holds; read it in parts");
        }
        Object out = info.type().newArray((int) volume);
        MemorySegment dst = Hdf5Type.segmentOf(out);
        if (nativeFile != null) {
            nativeFile.read(info, box, dst);
        } else if (info.compactData() != null) {
            Hyperslab.copy(MemorySegment.ofArray(info.compactData()), info.type().fileLayout(), info.shape(),
                    new long[info.shape().length], dst, info.type().hostLayout(), count, offset, box);
        } else if (info.chunked()) {
            readChunked(info, box, dst);
        } else if (info.address() != MetadataBuffer.UNDEFINED_ADDRESS) {
            readContiguous(info, box, dst);
        }
        return out;
    }

    private long resolve(String objectPath) {
        if (objectPath == null || !objectPath.startsWith("/")) {
            throw new IllegalArgumentException(path + ": object paths are absolute ('/a/b'), got '" + objectPath + "'");
        }
        long address = headers.rootAddress();
        String current = "";
        for (String part : objectPath.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            Map<String, Long> children = headers.children(current.isEmpty() ? "/" : current, headers.messages(address));
            Long child = children.get(part);
            String next = current + "/" + part;
            if (child == null) {
                throw new Hdf5FormatException(path + ": no object " + next + (next.equals(objectPath) ? "" : " (in " + objectPath + ")")
                        + "; " + (current.isEmpty() ? "/" : current) + " holds " + children.keySet());
            }
            if (child < 0) {
                throw new Hdf5FormatException(path + ": " + next + " is a soft or external link", true);
            }
            address = child;
            current = next;
        }
        return address;
    }

    private DatasetInfo describe(String datasetPath, List<ObjectHeaderReader.Message> messages) {
        Hdf5Type type = null;
        long[] shape = null;
        long address = MetadataBuffer.UNDEFINED_ADDRESS;
        long btree = MetadataBuffer.UNDEFINED_ADDRESS;
        int[] chunk = null;
        boolean deflated = false;
        byte[] compact = null;
        boolean layoutSeen = false;
        for (ObjectHeaderReader.Message m : messages) {
            ByteBuffer b = m.body();
            switch (m.type()) {
                case ObjectHeader.MSG_DATASPACE -> shape = dataspace(b);
                case ObjectHeader.MSG_DATATYPE -> {
                    int classVersion = b.get(0) & 0xff;
                    type = Hdf5Type.decode(classVersion & 0x0f, b.get(1) & 0xff, b.getInt(4));
                    if (type == null) {
                        throw new Hdf5FormatException(path + ": dataset " + datasetPath + " has datatype class "
                                + (classVersion & 0x0f) + " of " + b.getInt(4) + " bytes (flags " + (b.get(1) & 0xff)
                                + "), not a little-endian float or signed integer this reader supports", true);
                    }
                }
                case ObjectHeader.MSG_LAYOUT -> {
                    layoutSeen = true;
                    int version = b.get(0);
                    if (version != 3) {
                        throw new Hdf5FormatException(path + ": dataset " + datasetPath + " has layout message version "
                                + version, true);
                    }
                    int cls = b.get(1);
                    if (cls == 0) {
                        int size = b.getShort(2) & 0xffff;
                        compact = new byte[size];
                        b.get(4, compact);
                    } else if (cls == 1) {
                        address = b.getLong(2);
                    } else if (cls == 2) {
                        int dims = b.get(2);
                        btree = b.getLong(3);
                        chunk = new int[dims - 1];
                        for (int d = 0; d < dims - 1; d++) {
                            chunk[d] = b.getInt(11 + 4 * d);
                        }
                    } else {
                        throw new Hdf5FormatException(path + ": dataset " + datasetPath + " has layout class " + cls
                                + " (virtual?)", true);
                    }
                }
                case ObjectHeader.MSG_FILTER_PIPELINE -> deflated = filters(datasetPath, b);
                default -> { }
            }
        }
        if (shape == null || type == null || !layoutSeen) {
            throw new Hdf5FormatException(path + ": " + datasetPath + " is not a dataset (a group?)");
        }
        return new DatasetInfo(datasetPath, type, shape, address, chunk, deflated, btree, compact);
    }

    private static long[] dataspace(ByteBuffer b) {
        int version = b.get(0);
        int rank = b.get(1);
        int at = version == 1 ? 8 : 4;
        long[] shape = new long[rank];
        for (int d = 0; d < rank; d++) {
            shape[d] = b.getLong(at + 8 * d);
        }
        return shape;
    }

    private boolean filters(String datasetPath, ByteBuffer b) {
        int version = b.get(0);
        int n = b.get(1);
        int at = version == 1 ? 8 : 2;
        boolean deflate = false;
        for (int i = 0; i < n; i++) {
            int id = b.getShort(at) & 0xffff;
            int nameLength = version == 1 || id >= 256 ? b.getShort(at + 2) & 0xffff : 0;
            int next = version == 1 || id >= 256 ? at + 4 : at + 2;
            int values = b.getShort(next + 2) & 0xffff;
            at = next + 4;
            at += version == 1 ? (nameLength + 7) / 8 * 8 : nameLength;
            at += 4 * values;
            if (version == 1 && values % 2 == 1) {
                at += 4;
            }
            if (id == 1) {
                deflate = true;
            } else {
                throw new Hdf5FormatException(path + ": dataset " + datasetPath + " uses filter " + id
                        + "; this reader knows deflate only", true);
            }
        }
        return deflate;
    }

    // ---- contiguous ----

    private void readContiguous(DatasetInfo info, Hyperslab box, MemorySegment dst) {
        int size = info.type().size();
        // two pages more: a direct read covers whole pages around the window
        ByteBuffer window = Hdf5Writer.pageAlignedBuffer(WINDOW_BYTES + 2 * Hdf5Writer.PAGE).order(ByteOrder.LITTLE_ENDIAN);
        MemorySegment windowSegment = MemorySegment.ofBuffer(window);
        List<long[]> pending = new ArrayList<>(); // {fileByte, boxByte, bytes}
        long[] span = new long[2]; // window start and end (file bytes)
        Runnable flush = () -> {
            if (pending.isEmpty()) {
                return;
            }
            long wanted = 0;
            for (long[] r : pending) {
                wanted += r[2];
            }
            // file byte at window[0]
            long base = readWindow(window, span[0], (int) (span[1] - span[0]), wanted, info.path());
            for (long[] r : pending) {
                MemorySegment.copy(windowSegment, info.type().fileLayout(), r[0] - base, dst,
                        info.type().hostLayout(), r[1], r[2] / size);
            }
            pending.clear();
        };
        box.forEachRun(info.shape(), (arrayIndex, boxIndex, length) -> {
            long file = info.address() + arrayIndex * size;
            long bytes = length * size;
            long at = boxIndex * size;
            if (!pending.isEmpty() && (file + bytes - span[0] > WINDOW_BYTES || file - span[1] > MAX_GAP)) {
                flush.run();
            }
            while (bytes > WINDOW_BYTES) { // a long run: in window-sized pieces
                long piece = WINDOW_BYTES / size * size;
                pending.add(new long[] {file, at, piece});
                span[0] = file;
                span[1] = file + piece;
                flush.run();
                file += piece;
                at += piece;
                bytes -= piece;
            }
            if (pending.isEmpty()) {
                span[0] = file;
            }
            pending.add(new long[] {file, at, bytes});
            span[1] = file + bytes;
        });
        flush.run();
    }

    /**
     * Reads {@code length} bytes at {@code address} into {@code window} (page aligned, two
     * pages longer than any length asked for) and returns the file address of the window's
     * first byte. Reads of at least {@link Hdf5Writer#DIRECT_MIN_BYTES} of which this box
     * wants at least three quarters (not a window sieved across other ranks' runs: those
     * ranks read the same pages, which the page cache then reads from the device once) bypass the page cache
     * (O_DIRECT, whole pages) where the file system allows it and {@value
     * Hdf5Writer#DIRECT_PROPERTY} is not false: no page-cache page is allocated (on a VM that
     * returns free memory to its host, each fresh page is a host page fault; see {@link
     * Hdf5Writer#writeAt}), and the bytes are copied once, from the device to the window.
     */
    private long readWindow(ByteBuffer window, long address, int length, long wanted, String dataset) {
        if (length < Hdf5Writer.DIRECT_MIN_BYTES || wanted * 4 < length * 3L || !directAvailable()) {
            readFully(window, address, length, dataset);
            return address;
        }
        int page = Hdf5Writer.PAGE;
        long start = address / page * page;
        long end = (address + length + page - 1) / page * page;
        long need = address + length;
        window.clear().limit((int) (end - start));
        try {
            long at = start;
            while (at < need) {
                int n = at % page == 0 ? direct.read(window, at) : -1; // an unaligned position: the file ended
                if (n < 0) {
                    throw new Hdf5FormatException(path + ": truncated file: " + dataset + " needs bytes up to "
                            + need + ", the file ends at " + channel.size());
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": reading " + dataset + " failed: " + e, e);
        }
        return start;
    }

    /**
     * Reads {@code length} bytes at {@code address} into {@code window} (page aligned, two
     * pages longer than {@code length}), all of which the caller wants: past the page cache
     * where it can (as {@link #readWindow}). Returns the file address of the window's first
     * byte. For the aggregators of {@link AggregatedRead}; thread-safe.
     */
    long readWhole(ByteBuffer window, long address, int length, String dataset) {
        return readWindow(window, address, length, length, dataset);
    }

    /** Whether {@code info}'s data is one contiguous range of this file that this class reads (not libhdf5, chunked or compact). */
    boolean contiguousInFile(DatasetInfo info) {
        return nativeFile == null && !info.chunked() && info.compactData() == null
                && info.address() != MetadataBuffer.UNDEFINED_ADDRESS;
    }

    /** Whether reads of this file can bypass the page cache (O_DIRECT taken, not switched off). */
    synchronized boolean directAvailable() {
        if (directState == 0) {
            direct = DirectIo.open(path, Hdf5Writer.DIRECT_PROPERTY, StandardOpenOption.READ);
            directState = direct != null ? 1 : -1;
        }
        return directState > 0;
    }

    private void readFully(ByteBuffer into, long address, int length, String dataset) {
        into.clear().limit(length);
        try {
            long at = address;
            while (into.hasRemaining()) {
                int n = channel.read(into, at);
                if (n < 0) {
                    throw new Hdf5FormatException(path + ": truncated file: " + dataset + " needs bytes up to "
                            + (address + length) + ", the file ends at " + channel.size());
                }
                at += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": reading " + dataset + " failed: " + e, e);
        }
    }

    // ---- chunked ----

    private void readChunked(DatasetInfo info, Hyperslab box, MemorySegment dst) {
        if (box.volume() == 0 || info.btreeAddress() == MetadataBuffer.UNDEFINED_ADDRESS) {
            return;
        }
        int n = info.shape().length;
        long[] chunkShape = Arrays.stream(info.chunk()).asLongStream().toArray();
        long chunkBytes = info.type().size();
        for (int c : info.chunk()) {
            chunkBytes *= c;
        }
        Inflater inflater = new Inflater();
        byte[] raw = new byte[(int) chunkBytes];
        try {
            for (long[] entry : chunkIndex(info, box)) {
                long[] origin = Arrays.copyOf(entry, n);
                Hyperslab piece = box.intersect(new Hyperslab(origin, chunkShape));
                if (piece == null) {
                    continue;
                }
                long address = entry[n];
                int size = (int) entry[n + 1];
                boolean skipDeflate = (entry[n + 2] & 1) != 0;
                ByteBuffer stored = headers.read(address, size);
                if (info.deflated() && !skipDeflate) {
                    inflater.reset();
                    inflater.setInput(stored.array(), 0, size);
                    int got = 0;
                    try {
                        while (got < raw.length && !inflater.finished()) {
                            int k = inflater.inflate(raw, got, raw.length - got);
                            if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                                break;
                            }
                            got += k;
                        }
                    } catch (DataFormatException e) {
                        throw new Hdf5FormatException(path + ": chunk at " + address + " of " + info.path()
                                + " does not inflate: " + e.getMessage());
                    }
                    if (got != raw.length) {
                        throw new Hdf5FormatException(path + ": chunk at " + address + " of " + info.path()
                                + " inflates to " + got + " bytes, expected " + raw.length);
                    }
                } else {
                    stored.get(0, raw, 0, Math.min(size, raw.length));
                }
                Hyperslab.copy(MemorySegment.ofArray(raw), info.type().fileLayout(), chunkShape, origin, dst,
                        info.type().hostLayout(), box.count(), box.offset(), piece);
            }
        } finally {
            inflater.end();
        }
    }

    /** Leaf entries {offset..., address, size, filter mask} of chunks that may meet {@code box}. */
    private List<long[]> chunkIndex(DatasetInfo info, Hyperslab box) {
        List<long[]> out = new ArrayList<>();
        walkChunkTree(info, info.btreeAddress(), box, out);
        return out;
    }

    private void walkChunkTree(DatasetInfo info, long node, Hyperslab box, List<long[]> out) {
        int n = info.shape().length;
        int keySize = 8 + 8 * (n + 1);
        ByteBuffer hdr = headers.read(node, 24);
        if (hdr.get(0) != 'T' || hdr.get(1) != 'R' || hdr.get(2) != 'E' || hdr.get(3) != 'E' || hdr.get(4) != 1) {
            throw new Hdf5FormatException(path + ": bad chunk B-tree node at " + node + " of " + info.path());
        }
        int level = hdr.get(5);
        int entries = hdr.getShort(6) & 0xffff;
        ByteBuffer b = headers.read(node + 24, entries * (keySize + 8) + keySize);
        long[] chunkShape = Arrays.stream(info.chunk()).asLongStream().toArray();
        for (int i = 0; i < entries; i++) {
            int k = i * (keySize + 8);
            long[] offset = new long[n];
            for (int d = 0; d < n; d++) {
                offset[d] = b.getLong(k + 8 + 8 * d);
            }
            long child = b.getLong(k + keySize);
            if (level > 0) {
                walkChunkTree(info, child, box, out); // subtrees are not pruned: the index is small
            } else if (box.intersect(new Hyperslab(offset, chunkShape)) != null) {
                long[] e = Arrays.copyOf(offset, n + 3);
                e[n] = child;
                e[n + 1] = b.getInt(k) & 0xffffffffL;
                e[n + 2] = b.getInt(k + 4);
                out.add(e);
            }
        }
    }

    @Override
    public void close() {
        if (nativeFile != null) {
            nativeFile.close();
            return;
        }
        try {
            if (direct != null) {
                direct.close();
            }
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": close failed: " + e, e);
        }
    }
}
