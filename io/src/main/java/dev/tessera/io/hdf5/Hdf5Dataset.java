package dev.tessera.io.hdf5;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * A dataset of a file being written. Its elements arrive in parts ({@link #write(long[],
 * long[], Object)}: a box of the n-d array and a flat row-major array holding it) and go to
 * the file as they arrive: a contiguous dataset has its whole extent reserved at creation
 * and each part is written in place; a chunked dataset keeps only the chunks a part touched
 * but did not complete, compresses each chunk once its last element arrived, and appends it.
 * Memory therefore stays bounded by the parts in flight, never the dataset.
 *
 * <p>Every element is to be written exactly once; elements never written read as zero.
 */
public final class Hdf5Dataset extends Hdf5Object {

    private final Hdf5Type type;
    private final long[] shape;
    private final Hdf5Layout layout;
    private final long address;
    private final long byteSize;
    private final ChunkStore chunks;
    private List<ChunkBTree.Entry> gatheredChunks; // chunk index assembled by a distributed write
    private final long nativeId; // libhdf5's dataset identifier with Hdf5Backend.NATIVE, else -1

    Hdf5Dataset(Hdf5Writer file, String path, Hdf5Type type, long[] shape, Hdf5Layout layout) {
        super(file, path);
        this.type = type;
        this.shape = shape.clone();
        this.layout = layout;
        long elements = 1;
        for (long s : shape) {
            if (s < 0) {
                throw new IllegalArgumentException(file.path() + ": dataset " + path + " has a negative dimension "
                        + Arrays.toString(shape));
            }
            elements = Math.multiplyExact(elements, s);
        }
        this.byteSize = Math.multiplyExact(elements, (long) type.size());
        if (layout.isChunked()) {
            if (layout.chunk().length != shape.length || shape.length == 0) {
                throw new IllegalArgumentException(file.path() + ": dataset " + path + " of shape "
                        + Arrays.toString(shape) + " cannot have chunks " + Arrays.toString(layout.chunk()));
            }
        }
        if (file.nativeFile() != null) {
            this.address = MetadataBuffer.UNDEFINED_ADDRESS;
            this.chunks = null;
            this.nativeId = file.nativeFile().createDataset(path, type, this.shape, layout);
            return;
        }
        this.nativeId = -1;
        if (layout.isChunked()) {
            this.address = MetadataBuffer.UNDEFINED_ADDRESS;
            this.chunks = new ChunkStore(file, path, type, this.shape, layout.chunk(), layout.deflateLevel());
        } else {
            this.address = file.allocate(byteSize, byteSize >= (64 << 10) ? 4096 : 8);
            this.chunks = null;
        }
    }

    @Override
    public Hdf5Dataset attribute(String name, Object value) {
        super.attribute(name, value);
        return this;
    }

    public Hdf5Type type() {
        return type;
    }

    public long[] shape() {
        return shape.clone();
    }

    public Hdf5Layout layout() {
        return layout;
    }

    /** Bytes of the dataset's elements (uncompressed). */
    long byteSize() {
        return byteSize;
    }

    /** File address of a contiguous dataset's first element. */
    long address() {
        return address;
    }

    ChunkStore chunkStore() {
        return chunks;
    }

    void setGatheredChunks(List<ChunkBTree.Entry> entries) {
        this.gatheredChunks = entries;
    }

    /** Writes all elements: {@code data} holds the whole array, row-major. */
    public void write(Object data) {
        write(new long[shape.length], shape, data);
    }

    /**
     * Writes the box at {@code offset} of {@code count} elements per dimension, held
     * row-major in {@code data} (a primitive array of the dataset's type and exactly the
     * box's volume).
     */
    public void write(long[] offset, long[] count, Object data) {
        file.checkOpen();
        Hyperslab box = checkPart("write", offset, count, data);
        if (nativeId >= 0) {
            file.nativeFile().write(nativeId, path(), type, shape, box, data);
            return;
        }
        write(box, Hdf5Type.segmentOf(data), true, true);
    }

    /**
     * Writes a checked box. {@code mayMap}: the file is written by this node only, so a box
     * of short runs may go through a mapping of the file; {@code mayGrow}: this writer may
     * grow the file for it (a serial writer; in a distributed write rank 0 grows it first).
     */
    void write(Hyperslab box, MemorySegment src, boolean mayMap, boolean mayGrow) {
        if (chunks != null) {
            chunks.write(box, src);
        } else if (mayMap && Hdf5Writer.shortRuns(box, shape, type.size())
                && file.writeMapped(address, box, shape, src, type, mayGrow, path())) {
            return;
        } else {
            box.forEachRun(shape, (arrayIndex, boxIndex, length) ->
                    file.writeElements(address + arrayIndex * type.size(), src, type, boxIndex * type.size(), length, path()));
            file.flushAndDrain(path());   // the part is in the file (or its error thrown) when write returns
        }
    }

    Hyperslab checkPart(String call, long[] offset, long[] count, Object data) {
        String where = file.path() + " " + call + "(" + path() + ")" + file.who();
        if (offset == null || count == null || offset.length != shape.length || count.length != shape.length) {
            throw new IllegalArgumentException(where + ": offset " + Arrays.toString(offset) + " and count "
                    + Arrays.toString(count) + " must both have the dataset's " + shape.length + " dimensions");
        }
        Hyperslab box = new Hyperslab(offset, count);
        if (!box.fitsIn(shape)) {
            throw new IllegalArgumentException(where + ": box " + box + " is outside the dataset's shape "
                    + Arrays.toString(shape));
        }
        if (data == null || data.getClass() != type.arrayClass()) {
            throw new IllegalArgumentException(where + ": data is " + (data == null ? "null" : data.getClass().getSimpleName())
                    + " but the dataset holds " + type + " (" + type.arrayClass().getSimpleName() + ")");
        }
        if (Hdf5Type.arrayLength(data) != box.volume()) {
            throw new IllegalArgumentException(where + ": data holds " + Hdf5Type.arrayLength(data)
                    + " elements but the box " + box + " has " + box.volume());
        }
        return box;
    }

    @Override
    void flushData() {
        if (chunks != null) {
            chunks.flush();
        }
    }

    @Override
    long writeHeader() {
        ObjectHeader h = new ObjectHeader();
        h.message(ObjectHeader.MSG_DATASPACE, ObjectHeader.dataspace(shape), false);
        h.message(ObjectHeader.MSG_DATATYPE, ObjectHeader.datatype(type), true);
        h.message(ObjectHeader.MSG_FILL_VALUE, ObjectHeader.fillValue(chunks != null), true);
        if (chunks != null) {
            List<ChunkBTree.Entry> entries = gatheredChunks != null ? gatheredChunks : chunks.entries();
            long btree = ChunkBTree.write(entries, layout.chunk(), file.btreeNodeWriter());
            h.message(ObjectHeader.MSG_LAYOUT, ObjectHeader.chunkedLayout(btree, layout.chunk(), type.size()), false);
            if (layout.deflateLevel() > 0) {
                h.message(ObjectHeader.MSG_FILTER_PIPELINE, ObjectHeader.deflatePipeline(layout.deflateLevel()), true);
            }
        } else {
            h.message(ObjectHeader.MSG_LAYOUT, ObjectHeader.contiguousLayout(address, byteSize), false);
        }
        addAttributeMessages(h);
        return file.writeMetadata(h.encode());
    }
}
