package dev.tessera.io.hdf5;

import dev.tessera.io.direct.DirectIo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes an HDF5 file in pure Java, streamed: raw data goes to the file as the caller hands
 * it over, metadata (groups, attributes, dataset descriptions, chunk indices: all small)
 * stays in memory and is written after the data when the file closes. File layout:
 *
 * <pre>
 *  0        superblock version 2 (48 bytes, written last)
 *  48 ...   raw data: contiguous datasets at addresses reserved when they are created
 *           (4 KiB aligned from 64 KiB on), chunks appended as they complete
 *  ...      at close: chunk B-trees and object headers, children before parents; root last
 * </pre>
 *
 * <p>Allocation is a bump pointer and depends only on the sequence of create calls and
 * completed chunks, so ranks that make the same calls compute the same addresses: that is
 * what lets {@link DistributedDataset} have every rank write its own block at the right
 * place while only one rank writes the metadata.
 *
 * <p>Format versions are those libhdf5 1.8 and later read (h5py, h5dump, ParaView, yt):
 * superblock v2, object header v2, see {@link ObjectHeader}. Not thread-safe.
 */
public final class Hdf5Writer implements AutoCloseable {

    static final int SUPERBLOCK_SIZE = 48;
    private static final int STAGING_BYTES = 4 << 20;

    /** System property: {@code false} keeps every write in the page cache (no O_DIRECT). */
    public static final String DIRECT_PROPERTY = "tessera.io.hdf5.direct";
    /** Writes of at least this many page-aligned bytes bypass the page cache where the file system allows it. */
    static final int DIRECT_MIN_BYTES = 1 << 20;
    /** Alignment of direct writes (file offset, memory address, length); a multiple of the file system's block size. */
    static final int PAGE = DirectIo.PAGE;

    private final Path path;
    private final FileChannel channel;
    private FileChannel direct;        // the same file opened with O_DIRECT, on first use
    private int directState;           // 0: not tried yet, 1: open, -1: not available (or switched off)
    private final NativeHdf5.Writer nativeFile; // non-null with Hdf5Backend.NATIVE: libhdf5 writes, not this class
    private final boolean writesMetadata;
    private final String who;
    private final Hdf5Group root;
    private long eof = SUPERBLOCK_SIZE;
    private boolean closed;
    private MetadataBuffer metadata;

    /*
     * Raw data is staged in two buffers that alternate: the caller packs runs into one while
     * an I/O thread writes the other, so packing (a copy, with byte order conversion where the
     * host's differs) overlaps the write. Bounded: at most one write is in flight, and every
     * part is on its way to the file when its write call returns (Hdf5Dataset drains).
     */
    private final ByteBuffer[] stagingBuffers = new ByteBuffer[2];
    private final MemorySegment[] stagingSegments = new MemorySegment[2];
    private int stagingIndex;
    private ByteBuffer staging;
    private MemorySegment stagingSegment;
    private long stagingAddress;
    private int stagingStart;   // where the staged bytes begin in the buffer: stagingAddress mod PAGE
    private int stagingLength;
    private java.util.concurrent.ExecutorService stagingWriter;
    private java.util.concurrent.Future<?> stagingWrite;

    /** Creates (or truncates) {@code path} for writing, with the backend {@link Hdf5Backend#selected()}. */
    public static Hdf5Writer create(Path path) {
        return create(path, Hdf5Backend.selected());
    }

    /**
     * Creates (or truncates) {@code path} for writing with {@code backend}: {@link Hdf5Backend#TESSERA}
     * (this class) or {@link Hdf5Backend#NATIVE} (libhdf5; the same API, every call goes to the library).
     */
    public static Hdf5Writer create(Path path, Hdf5Backend backend) {
        return backend == Hdf5Backend.NATIVE ? new Hdf5Writer(path, new NativeHdf5.Writer(path))
                : new Hdf5Writer(path, true, true, "");
    }

    private Hdf5Writer(Path path, NativeHdf5.Writer nativeFile) {
        this.path = path;
        this.nativeFile = nativeFile;
        this.channel = null;
        this.writesMetadata = false;
        this.who = "";
        this.root = new Hdf5Group(this, "/");
    }

    /** The backend writing this file. */
    public Hdf5Backend backend() {
        return nativeFile != null ? Hdf5Backend.NATIVE : Hdf5Backend.TESSERA;
    }

    /** libhdf5's writer when this file uses {@link Hdf5Backend#NATIVE}, else null. */
    NativeHdf5.Writer nativeFile() {
        return nativeFile;
    }

    /**
     * Opens {@code path} for one rank of a distributed write: {@code create} truncates it
     * (one rank does that before the others open it), {@code writesMetadata} makes this
     * rank the one that writes superblock and object headers at close.
     */
    Hdf5Writer(Path path, boolean create, boolean writesMetadata, String who) {
        this.path = path;
        this.writesMetadata = writesMetadata;
        this.who = who;
        this.nativeFile = null;
        directEnabled(); // a bad value of the property is named before anything is written
        try {
            this.channel = create
                    ? FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE, StandardOpenOption.READ)
                    : FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": cannot open for writing: " + e, e);
        }
        this.root = new Hdf5Group(this, "/");
    }

    public Path path() {
        return path;
    }

    /** The root group. */
    public Hdf5Group root() {
        return root;
    }

    /** " (rank r)" in a distributed write, "" otherwise: for error messages. */
    String who() {
        return who;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException(path + who + ": the file is closed");
        }
    }

    /** Reserves {@code size} bytes at an address aligned to {@code alignment}. */
    long allocate(long size, long alignment) {
        long address = (eof + alignment - 1) / alignment * alignment;
        eof = address + size;
        return address;
    }

    /** Appends raw bytes (a finished chunk) and returns their address. */
    long appendData(byte[] bytes, String dataset) {
        long address = allocate(bytes.length, 8);
        writeAt(address, ByteBuffer.wrap(bytes), dataset);
        return address;
    }

    /**
     * Writes {@code buffer}'s remaining bytes at {@code address}. A large write from a direct
     * buffer whose memory address and file address agree modulo {@link #PAGE} bypasses the
     * page cache (O_DIRECT) for its page-aligned middle, the partial pages at either end go
     * through the page cache. Why: a buffered write needs a fresh page-cache page for every
     * 4 KiB; on a virtual machine that hands freed guest memory back to the host (free page
     * reporting, as on this project's VMs), each such page is a host page fault, and the same
     * 1 GiB write then costs 0.3 or 2 CPU seconds depending on what the memory did before.
     * A direct write copies nothing into the page cache and allocates nothing.
     */
    void writeAt(long address, ByteBuffer buffer, String dataset) {
        int n = buffer.remaining();
        if (n >= DIRECT_MIN_BYTES && buffer.isDirect() && directAvailable()
                && Math.floorMod(MemorySegment.ofBuffer(buffer).address() - address, PAGE) == 0) {
            long start = (address + PAGE - 1) / PAGE * PAGE;
            long end = (address + n) / PAGE * PAGE;
            if (end - start >= DIRECT_MIN_BYTES) {
                int p = buffer.position();
                int head = (int) (start - address);
                int middle = (int) (end - start);
                writeFully(channel, address, buffer.slice(p, head), dataset);
                writeFully(direct, start, buffer.slice(p + head, middle), dataset);
                writeFully(channel, end, buffer.slice(p + head + middle, n - head - middle), dataset);
                buffer.position(buffer.limit());
                return;
            }
        }
        writeFully(channel, address, buffer, dataset);
    }

    private void writeFully(FileChannel ch, long address, ByteBuffer buffer, String dataset) {
        try {
            long at = address;
            while (buffer.hasRemaining()) {
                at += ch.write(buffer, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": writing " + dataset + " at byte " + address + " failed: " + e, e);
        }
    }

    /**
     * Whether this file can be written with O_DIRECT: {@value #DIRECT_PROPERTY} is not
     * {@code false} and the file system accepts it with a block size dividing {@link #PAGE}
     * (tmpfs, for one, refuses it: those files are written through the page cache).
     */
    private synchronized boolean directAvailable() {
        if (directState == 0) {
            direct = DirectIo.open(path, DIRECT_PROPERTY, StandardOpenOption.WRITE);
            directState = direct != null ? 1 : -1;
        }
        return directState > 0;
    }

    /** {@value #DIRECT_PROPERTY}: true (default) or false; any other value is named in the error. */
    static boolean directEnabled() {
        return DirectIo.enabled(DIRECT_PROPERTY);
    }

    /** Whether the writes of this file bypass the page cache where they can (for tests). */
    boolean writesDirect() {
        return directAvailable();
    }

    /** A direct buffer of {@code bytes} whose address is a multiple of {@link #PAGE}. */
    static ByteBuffer pageAlignedBuffer(int bytes) {
        return DirectIo.pageAlignedBuffer(bytes);
    }

    /**
     * Queues {@code count} elements of {@code src} (host order, from byte {@code srcOffset})
     * for file address {@code address}; runs adjacent in the file share one write.
     */
    void writeElements(long address, MemorySegment src, Hdf5Type type, long srcOffset, long count, String dataset) {
        if (staging == null) {
            for (int i = 0; i < 2; i++) {
                // staged bytes start at their file address mod PAGE and a full buffer ends at a page
                // boundary, so that whole pages can go direct and the next fill starts on one
                stagingBuffers[i] = pageAlignedBuffer(STAGING_BYTES);
                stagingSegments[i] = MemorySegment.ofBuffer(stagingBuffers[i]);
            }
            staging = stagingBuffers[0];
            stagingSegment = stagingSegments[0];
        }
        int size = type.size();
        long bytes = count * size;
        if (stagingLength > 0 && address != stagingAddress + stagingLength) {
            flushStaging(dataset);
        }
        while (bytes > 0) {
            if (stagingLength == 0) {
                stagingAddress = address;
                stagingStart = (int) (address % PAGE);
            }
            long take = Math.min(bytes, (STAGING_BYTES - stagingStart - stagingLength) / size * size);
            MemorySegment.copy(src, type.hostLayout(), srcOffset, stagingSegment, type.fileLayout(),
                    stagingStart + stagingLength, take / size);
            stagingLength += (int) take;
            address += take;
            srcOffset += take;
            bytes -= take;
            if (STAGING_BYTES - stagingStart - stagingLength < size) {
                flushStaging(dataset);
            }
        }
    }

    void flushStaging(String dataset) {
        if (stagingLength == 0) {
            return;
        }
        ByteBuffer full = staging.clear().position(stagingStart).limit(stagingStart + stagingLength);
        long at = stagingAddress;
        stagingLength = 0;
        drainStaging();   // the other buffer's write: that buffer is packed next
        if (stagingWriter == null) {
            stagingWriter = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "hdf5-writer " + path.getFileName());
                t.setDaemon(true);
                return t;
            });
        }
        stagingWrite = stagingWriter.submit(() -> writeAt(at, full, dataset));
        stagingIndex ^= 1;
        staging = stagingBuffers[stagingIndex];
        stagingSegment = stagingSegments[stagingIndex];
    }

    /** Waits for the staged write in flight, if any; its failure is thrown here (naming file and dataset). */
    void drainStaging() {
        java.util.concurrent.Future<?> w = stagingWrite;
        if (w == null) {
            return;
        }
        stagingWrite = null;
        try {
            w.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(path + who + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(path + who + ": interrupted while writing", e);
        }
    }

    /** Writes what is staged and waits until it is written. */
    void flushAndDrain(String dataset) {
        flushStaging(dataset);
        drainStaging();
    }

    /** Below this many bytes per run on average, a box is written through a mapping of the file. */
    static final long MAPPED_RUN_BYTES = 64 << 10;

    /**
     * True when {@code box} of an array of {@code shape} has runs shorter than
     * {@link #MAPPED_RUN_BYTES} on average: one write call per run would cost more than
     * copying the runs into a mapping of the file (a 2 KiB-run pencil of a 1 GiB array is
     * 2^18 writes of 2 KiB per rank).
     */
    static boolean shortRuns(Hyperslab box, long[] shape, int typeSize) {
        long runs = DistributedDataset.runCount(box, shape);
        return runs > 1 && box.volume() * typeSize / runs < MAPPED_RUN_BYTES;
    }

    /**
     * Grows the file to at least {@code end} bytes (one zero byte written at {@code end - 1}
     * if it is shorter), so that mappings up to there need not grow it. Only where no other
     * writer can have written that byte yet.
     */
    void extendTo(long end) {
        try {
            if (channel.size() < end) {
                writeAt(end - 1, ByteBuffer.wrap(new byte[1]), "the end of a dataset");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": " + e, e);
        }
    }

    /**
     * Writes the runs of {@code box} (a box of a dataset of {@code shape} at file address
     * {@code base}) by copying each into a mapping of the file span they cover: no system
     * call per run, the kernel writes the dirty pages back (and {@link #force} syncs them).
     * Only for files that no rank on another node writes (a shared file system may write back
     * whole pages over another node's bytes). Returns false, writing nothing, when the file
     * is still shorter than the span (a distributed writer that must not grow it itself).
     */
    boolean writeMapped(long base, Hyperslab box, long[] shape, MemorySegment src, Hdf5Type type, boolean mayGrow,
                        String dataset) {
        int size = type.size();
        long first = base + Hyperslab.linearIndex(shape, box.offset()) * size;
        long[] lastPoint = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            lastPoint[d] = box.offset()[d] + box.count()[d] - 1;
        }
        long end = base + (Hyperslab.linearIndex(shape, lastPoint) + 1) * size;
        flushAndDrain(dataset);
        try {
            if (channel.size() < end) {
                if (!mayGrow) {
                    return false;
                }
                extendTo(end);
            }
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                MemorySegment map = channel.map(FileChannel.MapMode.READ_WRITE, first, end - first, arena);
                long shift = base - first;
                box.forEachRun(shape, (arrayIndex, boxIndex, length) -> MemorySegment.copy(src, type.hostLayout(),
                        boxIndex * size, map, type.fileLayout(), shift + arrayIndex * size, length));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": writing " + dataset + " at bytes " + first + "-" + end
                    + " failed: " + e, e);
        } catch (InternalError e) {
            // SIGBUS in the copy: the file system could not back a page (a full disk)
            throw new UncheckedIOException(path + who + ": writing " + dataset + " at bytes " + first + "-" + end
                    + " failed: the file system could not store a page (no space left on the device?): " + e,
                    new IOException(e));
        }
        return true;
    }

    /** Queues a metadata structure and returns its address. */
    long writeMetadata(byte[] bytes) {
        long address = eof;
        eof += bytes.length;
        metadata.bytes(bytes);
        return address;
    }

    ChunkBTree.NodeWriter btreeNodeWriter() {
        return new ChunkBTree.NodeWriter() {
            private final java.util.Map<Long, Integer> offsets = new java.util.HashMap<>();

            @Override
            public long allocate(int size) {
                long address = eof;
                eof += size;
                offsets.put(address, metadata.size());
                metadata.zeros(size);
                return address;
            }

            @Override
            public void write(long address, byte[] node) {
                int at = offsets.get(address);
                System.arraycopy(node, 0, metadata.array(), at, node.length);
            }
        };
    }

    /** Forces written data to the storage device (fsync). */
    public void force() {
        checkOpen();
        if (nativeFile != null) {
            nativeFile.force();
            return;
        }
        flushAndDrain("pending data");
        try {
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": fsync failed: " + e, e);
        }
    }

    /** Completes pending chunks, writes the metadata (on the metadata rank) and closes. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (nativeFile != null) {
            closed = true;
            nativeFile.close();
            return;
        }
        try {
            flushAndDrain("pending data");
            root.flushData();
            if (writesMetadata) {
                writeAllMetadata();
            }
        } finally {
            closed = true;
            if (stagingWriter != null) {
                stagingWriter.shutdownNow();
            }
            try {
                if (direct != null) {
                    direct.close();
                }
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException(path + who + ": close failed: " + e, e);
            }
        }
    }

    private void writeAllMetadata() {
        long metadataStart = allocate(0, 8);
        metadata = new MetadataBuffer(4096);
        long rootAddress = root.writeHeader();
        writeAt(metadataStart, ByteBuffer.wrap(metadata.array(), 0, metadata.size()), "metadata");
        MetadataBuffer sb = new MetadataBuffer(SUPERBLOCK_SIZE);
        sb.bytes(new byte[] {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'});
        sb.u8(2).u8(8).u8(8).u8(0); // version 2, 8-byte offsets and lengths, flags
        sb.u64(0).u64(MetadataBuffer.UNDEFINED_ADDRESS).u64(eof).u64(rootAddress);
        sb.checksumFrom(0);
        writeAt(0, ByteBuffer.wrap(sb.toByteArray()), "superblock");
        try {
            if (channel.size() < eof) { // a reserved but never written tail: readers expect the file that long
                writeAt(eof - 1, ByteBuffer.wrap(new byte[1]), "end of file");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(path + who + ": " + e, e);
        }
    }

    /** The end of the address space allocated so far (for consistency checks across ranks). */
    long endOfAllocation() {
        return eof;
    }
}
