package dev.tessera.io.hdf5;

import dev.tessera.comm.Comm;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * One dataset of a {@link ParallelHdf5File}, written by all ranks in one collective call:
 * each rank passes its block (offset and count in the global n-d array, elements row-major
 * in a flat array) and the blocks together must tile the array exactly. The blocks are
 * exchanged first and checked on every rank (inside the shape, no overlap, nothing
 * missing), so bad arguments on any rank make every rank throw the same error naming it.
 *
 * <p>Contiguous datasets go to the file by {@link WriteStrategy}. Chunked ones are
 * redistributed by chunk: each chunk belongs to the rank whose block holds its first
 * element, pieces travel there in one all-to-all, the owner compresses whole chunks, and
 * the chunks' addresses follow from the compressed sizes every rank learns (so each owner
 * writes its chunks at computed offsets and rank 0 indexes them all).
 *
 * <p>{@link #read} is the matching distributed read: any number of ranks, each reading
 * any box, each reading only the bytes (or chunks) its box needs. It works on files written
 * on another number of ranks, by {@link Hdf5Writer}, or by libhdf5; files this reader does
 * not handle are read through jHDF's slicing.
 */
public final class DistributedDataset {

    /** {@link WriteStrategy#AUTO} aggregates when blocks' average run is shorter than this. */
    public static final int AUTO_RUN_BYTES = 64 << 10;

    private final ParallelHdf5File file;
    private final Hdf5Dataset dataset;
    private boolean written;

    DistributedDataset(ParallelHdf5File file, Hdf5Dataset dataset) {
        this.file = file;
        this.dataset = dataset;
    }

    public String path() {
        return dataset.path();
    }

    public long[] shape() {
        return dataset.shape();
    }

    public Hdf5Type type() {
        return dataset.type();
    }

    /** Sets an attribute of the dataset (collective in the sense that all ranks make the call). */
    public DistributedDataset attribute(String name, Object value) {
        dataset.attribute(name, value);
        return this;
    }

    /**
     * Writes this rank's block: {@code count} elements per dimension at {@code offset},
     * held row-major in {@code block} (collective; the blocks of all ranks tile the array).
     */
    public void write(long[] offset, long[] count, Object block) {
        Comm comm = file.comm();
        String where = file.path() + " DistributedDataset.write(" + path() + ")";
        String error = null;
        if (written) {
            error = "the dataset was already written (one collective write per dataset)";
        } else {
            try {
                dataset.checkPart("write", offset, count, block);
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        if (comm.rank() == 0 && error == null && !dataset.layout().isChunked()) {
            // the file reaches the dataset's end before any rank writes (after the allgather below),
            // so that ranks writing through mappings never have to grow it concurrently
            try {
                file.writer().extendTo(dataset.address() + dataset.byteSize());
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        boolean shapeOk = offset != null && count != null && offset.length == count.length;
        BlockClaim mine = new BlockClaim(comm.rank(), shapeOk ? offset : new long[0], shapeOk ? count : new long[0], error);
        List<BlockClaim> claims = comm.allgatherObject(mine);
        BlockClaim.checkTiling(claims, dataset.shape(), where);
        written = true;
        Hyperslab box = mine.box();
        MemorySegment data = Hdf5Type.segmentOf(block);
        boolean singleNode = file.nodeCount() == 1;   // collective on first use: every rank gets here
        boolean direct = file.directWrites();          // the same
        String failure = null;
        try {
            if (dataset.layout().isChunked()) {
                ChunkedCollectiveWrite.write(file, dataset, claims, box, data);
            } else if (strategy(claims, direct) == WriteStrategy.AGGREGATED) {
                AggregatedWrite.write(file, dataset, claims, box, data);
            } else {
                dataset.write(box, data, singleNode, false);
            }
        } catch (RuntimeException e) {
            failure = e.getMessage();
        }
        Collective.throwIfAnyFailed(comm, failure, where, null);
    }

    /** The strategy a write with these blocks takes (AUTO resolved; collective). */
    WriteStrategy strategy(List<BlockClaim> claims, boolean direct) {
        WriteStrategy s = file.options().strategy();
        return s != WriteStrategy.AUTO ? s
                : choose(claims, dataset.shape(), dataset.type().size(), file.nodeCount(), direct);
    }

    /**
     * AUTO's rule. Blocks whose average run is shorter than {@value #AUTO_RUN_BYTES} bytes
     * are aggregated across nodes (ROMIO's reasoning: many small writes from many clients are
     * what parallel file systems handle worst) and, on one node, where every rank can write
     * with O_DIRECT ({@code direct}): aggregators then write whole 16 MiB windows past the
     * page cache, while every rank writing its short runs itself goes through a mapping of
     * the file, one fresh page-cache page per 4 KiB (measured: 0.35-0.39 CPU s per GiB
     * aggregated, 1.1-1.4 s mapped, on a VM that returns freed memory to its host; docs/io.md).
     * Everything else (long runs, or one node without direct I/O) is written by every rank.
     */
    static WriteStrategy choose(List<BlockClaim> claims, long[] shape, int typeSize, int nodes, boolean direct) {
        if (nodes <= 1 && !direct) {
            return WriteStrategy.INDEPENDENT;
        }
        return shortRuns(claims, shape, typeSize) ? WriteStrategy.AGGREGATED : WriteStrategy.INDEPENDENT;
    }

    static long runCount(Hyperslab box, long[] shape) {
        if (box.volume() == 0) {
            return 0;
        }
        int k = shape.length - 1;
        while (k > 0 && box.count()[k] == shape[k]) {
            k--;
        }
        long runs = 1;
        for (int d = 0; d < k; d++) {
            runs *= box.count()[d];
        }
        return runs;
    }

    /**
     * Reads the box at {@code offset} of {@code count} elements of {@code datasetPath} in
     * {@code file}, as a flat row-major array of the dataset's type. Independent: any rank,
     * any box, any number of ranks; the error names the file, the dataset and the rank.
     */
    public static Object read(Comm comm, Path file, String datasetPath, long[] offset, long[] count) {
        String who = comm == null ? "" : " (rank " + comm.rank() + ")";
        try (Hdf5Reader reader = Hdf5Reader.open(file)) {
            return reader.read(datasetPath, offset, count);
        } catch (Hdf5FormatException e) {
            if (e.unsupported()) {
                return JhdfSliceReader.read(file, datasetPath, offset, count, who);
            }
            throw new Hdf5FormatException(e.getMessage() + who);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + who, e);
        }
    }

    /**
     * Collective read: every rank of {@code comm} calls it with its own box (boxes may
     * overlap, leave parts out, or be empty) and gets the box as a flat row-major array of
     * the dataset's type, as {@link #read} would give it. {@link ReadStrategy#AUTO} picks a
     * two-phase read where it helps (short runs, such as pencils, from a contiguous dataset
     * read past the page cache; see {@link ReadStrategy}), otherwise every rank reads its own
     * box. A bad argument or an unreadable file on any rank makes every rank throw the same
     * error, naming the file, the dataset and the rank.
     */
    public static Object readAll(Comm comm, Path file, String datasetPath, long[] offset, long[] count) {
        return readAll(comm, file, datasetPath, offset, count, ReadStrategy.AUTO);
    }

    /**
     * {@link #readAll(Comm, Path, String, long[], long[])} with a chosen strategy.
     * {@link ReadStrategy#AGGREGATED} applies to contiguous datasets that this library reads
     * itself; chunked, compact and libhdf5-read datasets are read by every rank on its own.
     */
    public static Object readAll(Comm comm, Path file, String datasetPath, long[] offset, long[] count,
            ReadStrategy strategy) {
        return readAll(comm, file, datasetPath, offset, count, strategy, AggregatedRead.WINDOW_BYTES, 1);
    }

    /** With the aggregated read's window size and number of aggregators per node (for tests). */
    static Object readAll(Comm comm, Path file, String datasetPath, long[] offset, long[] count,
            ReadStrategy strategy, int windowBytes, int aggregatorsPerNode) {
        String where = file + " DistributedDataset.readAll(" + datasetPath + ")";
        if (strategy == null) {
            throw new IllegalArgumentException(where + ": strategy is null (rank " + comm.rank() + ")");
        }
        Hdf5Reader reader = null;
        DatasetInfo info = null;
        String error = null;
        boolean contiguous = false;
        boolean direct = false;
        try {
            if (offset == null || count == null) {
                throw new IllegalArgumentException("offset and count must not be null");
            }
            Hyperslab box = new Hyperslab(offset, count);
            try {
                reader = Hdf5Reader.open(file);
                info = reader.dataset(datasetPath);
            } catch (Hdf5FormatException e) {
                if (!e.unsupported()) {
                    throw e;
                }
                // not this reader's kind of file: every rank reads through read (jHDF), checked there
            }
            if (info != null) {
                if (!box.fitsIn(info.shape())) {
                    throw new IllegalArgumentException("box " + box + " is outside the dataset's shape "
                            + Arrays.toString(info.shape()));
                }
                if (box.volume() > Integer.MAX_VALUE - 16) {
                    throw new IllegalArgumentException("box " + box + " holds " + box.volume()
                            + " elements, more than one Java array holds; read it in parts");
                }
                contiguous = reader.contiguousInFile(info);
                direct = contiguous && reader.directAvailable();
            }
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        try {
            boolean shapeOk = error == null;
            BlockClaim mine = new BlockClaim(comm.rank(), shapeOk ? offset : new long[0], shapeOk ? count : new long[0], error);
            List<BlockClaim> claims = comm.allgatherObject(mine);
            for (BlockClaim c : claims) {
                if (c.error() != null) {
                    throw new IllegalArgumentException(where + ": rank " + c.rank() + ": " + c.error());
                }
            }
            long flags = comm.allreduce(contiguous ? 1L : 0L, dev.tessera.comm.Op.MIN)
                    | comm.allreduce(direct ? 2L : 0L, dev.tessera.comm.Op.MIN);
            int[] nodeOf = comm.nodeMap();
            int nodes = (int) Arrays.stream(nodeOf).distinct().count();
            ReadStrategy s = (flags & 1) == 0 ? ReadStrategy.INDEPENDENT
                    : strategy != ReadStrategy.AUTO ? strategy
                    : chooseRead(claims, info.shape(), info.type().size(), nodes, (flags & 2) != 0);
            Object out = null;
            String failure = null;
            if (s == ReadStrategy.AGGREGATED) {
                out = info.type().newArray((int) new Hyperslab(offset, count).volume());
                failure = AggregatedRead.read(comm, reader, info, claims, new Hyperslab(offset, count),
                        Hdf5Type.segmentOf(out), AggregatedRead.aggregators(nodeOf, aggregatorsPerNode), windowBytes);
            } else {
                try {
                    out = reader != null && info != null ? reader.read(datasetPath, offset, count)
                            : read(comm, file, datasetPath, offset, count);
                } catch (RuntimeException e) {
                    failure = e.getMessage();
                }
            }
            Collective.throwIfAnyFailed(comm, failure, where, null);
            return out;
        } finally {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /**
     * AUTO's rule for reads ({@link ReadStrategy}): aggregate where the boxes' average run
     * is shorter than {@value #AUTO_RUN_BYTES} bytes and they ask for at least half of the
     * elements between the first and the last one any box holds (an aggregator reads that
     * whole span), on several nodes, or on one where every rank reads with O_DIRECT.
     */
    static ReadStrategy chooseRead(List<BlockClaim> claims, long[] shape, int typeSize, int nodes, boolean direct) {
        if (nodes <= 1 && !direct) {
            return ReadStrategy.INDEPENDENT;
        }
        long elements = 0;
        for (BlockClaim c : claims) {
            elements += c.box().volume();
        }
        long[] span = AggregatedRead.span(claims, shape);
        return shortRuns(claims, shape, typeSize) && 2 * elements >= span[1] - span[0]
                ? ReadStrategy.AGGREGATED : ReadStrategy.INDEPENDENT;
    }

    /** Whether the boxes' average run (elements over runs, in bytes) is shorter than {@value #AUTO_RUN_BYTES}. */
    static boolean shortRuns(List<BlockClaim> claims, long[] shape, int typeSize) {
        long runs = 0;
        long elements = 0;
        for (BlockClaim c : claims) {
            runs += runCount(c.box(), shape);
            elements += c.box().volume();
        }
        return runs > 0 && elements * typeSize / runs < AUTO_RUN_BYTES;
    }

    /** The shape of {@code datasetPath} in {@code file} (to compute blocks before a read). */
    public static long[] shapeOf(Path file, String datasetPath) {
        try (Hdf5Reader reader = Hdf5Reader.open(file)) {
            return reader.dataset(datasetPath).shape();
        } catch (Hdf5FormatException e) {
            if (e.unsupported()) {
                return JhdfSliceReader.shape(file, datasetPath);
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "DistributedDataset " + path() + " " + Arrays.toString(shape());
    }
}
