package dev.tessera.io.hdf5;

import dev.tessera.comm.Comm;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * An HDF5 file written by all ranks of a communicator together, as parallel HDF5 does
 * over MPI-IO: every call here is collective and every rank makes the same calls with the
 * same arguments (groups, attributes, datasets), so every rank holds the same metadata and
 * computes the same file addresses; each rank writes its own data (or hands it to an
 * aggregator, see {@link WriteStrategy}) and rank 0 alone writes the metadata at close.
 *
 * <pre>
 * try (ParallelHdf5File f = ParallelHdf5File.create(comm, Path.of("out.h5"))) {
 *     f.root().attribute("time", t);
 *     DistributedDataset rho = f.createDataset("/fields/rho", Hdf5Type.DOUBLE, nz, ny, nx);
 *     rho.write(myOffset, myCount, myBlock);
 * }
 * </pre>
 *
 * Divergent calls are detected at {@link #createDataset} (every rank compares its dataset
 * and address with rank 0's) and at close; errors name the path and the rank.
 */
public final class ParallelHdf5File implements AutoCloseable {

    private final Comm comm;
    private final Path path;
    private final Hdf5Writer writer;
    private final WriteOptions options;
    private int[] aggregators;
    private int nodeCount;
    private Boolean directWrites;
    private boolean closed;

    /** Options of the collective writes of one file. */
    public record WriteOptions(WriteStrategy strategy, int aggregatorsPerNode, int bufferBytes) {
        public WriteOptions {
            if (aggregatorsPerNode < 1 || bufferBytes < 64) {
                throw new IllegalArgumentException("aggregatorsPerNode >= 1 and bufferBytes >= 64, got "
                        + aggregatorsPerNode + " and " + bufferBytes);
            }
        }

        /** AUTO strategy, one aggregator per node, 16 MiB windows. */
        public static WriteOptions defaults() {
            return new WriteOptions(WriteStrategy.AUTO, 1, 16 << 20);
        }

        public WriteOptions withStrategy(WriteStrategy s) {
            return new WriteOptions(s, aggregatorsPerNode, bufferBytes);
        }
    }

    private ParallelHdf5File(Comm comm, Path path, Hdf5Writer writer, WriteOptions options) {
        this.comm = comm;
        this.path = path;
        this.writer = writer;
        this.options = options;
    }

    /** Creates (truncates) {@code path} on all ranks of {@code comm} (collective). */
    public static ParallelHdf5File create(Comm comm, Path path) {
        return create(comm, path, WriteOptions.defaults());
    }

    public static ParallelHdf5File create(Comm comm, Path path, WriteOptions options) {
        String who = " (rank " + comm.rank() + ")";
        Hdf5Writer w = null;
        String error = null;
        if (comm.rank() == 0) {
            try {
                w = new Hdf5Writer(path, true, true, who);
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        error = comm.bcastObject(error, 0);
        if (error != null) {
            throw new IllegalStateException("ParallelHdf5File.create: rank 0: " + error);
        }
        if (comm.rank() != 0) {
            try {
                w = new Hdf5Writer(path, false, false, who);
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        Collective.throwIfAnyFailed(comm, error, "ParallelHdf5File.create(" + path + ")", w);
        return new ParallelHdf5File(comm, path, w, options);
    }

    public Path path() {
        return path;
    }

    public Comm comm() {
        return comm;
    }

    /** The root group; calls on it and its children must be made alike on every rank. */
    public Hdf5Group root() {
        return writer.root();
    }

    WriteOptions options() {
        return options;
    }

    Hdf5Writer writer() {
        return writer;
    }

    /** Creates a contiguous dataset at absolute {@code datasetPath}, groups included (collective). */
    public DistributedDataset createDataset(String datasetPath, Hdf5Type type, long... shape) {
        return createDataset(datasetPath, type, shape, Hdf5Layout.contiguous());
    }

    /** Creates a dataset at absolute {@code datasetPath} with {@code layout} (collective). */
    public DistributedDataset createDataset(String datasetPath, Hdf5Type type, long[] shape, Hdf5Layout layout) {
        String error = null;
        Hdf5Dataset d = null;
        try {
            if (!datasetPath.startsWith("/") || datasetPath.endsWith("/")) {
                throw new IllegalArgumentException("dataset paths are absolute ('/group/name'), got '" + datasetPath + "'");
            }
            String[] parts = datasetPath.substring(1).split("/");
            Hdf5Group g = writer.root();
            for (int i = 0; i < parts.length - 1; i++) {
                g = g.group(parts[i]);
            }
            d = g.createDataset(parts[parts.length - 1], type, shape, layout);
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        String signature = datasetPath + " " + type + " " + Arrays.toString(shape) + " " + layout + " @"
                + writer.endOfAllocation();
        List<String> all = comm.allgatherObject(error == null ? signature : "!" + error);
        for (int r = 0; r < all.size(); r++) {
            String s = all.get(r);
            if (s.startsWith("!")) {
                throw new IllegalArgumentException(path + " createDataset(" + datasetPath + "): rank " + r + ": "
                        + s.substring(1));
            }
            if (!s.equals(all.get(0))) {
                throw new IllegalStateException(path + " createDataset: rank " + r + " made a different call than rank 0"
                        + " (collective calls must match): rank 0 has '" + all.get(0) + "', rank " + r + " '" + s + "'");
            }
        }
        return new DistributedDataset(this, d);
    }

    /**
     * Ranks that aggregate for {@link WriteStrategy#AGGREGATED}: the lowest
     * {@code aggregatorsPerNode} ranks of every node ({@link Comm#nodeMap}: nodes told apart
     * by TESSERA_NODE or the host name). Collective on first use.
     */
    int[] aggregators() {
        if (aggregators == null) {
            int[] nodeOf = comm.nodeMap();
            java.util.Map<Integer, Integer> taken = new java.util.HashMap<>();
            java.util.List<Integer> out = new java.util.ArrayList<>();
            for (int r = 0; r < nodeOf.length; r++) {
                if (taken.merge(nodeOf[r], 1, Integer::sum) <= options.aggregatorsPerNode()) {
                    out.add(r);
                }
            }
            aggregators = out.stream().mapToInt(Integer::intValue).toArray();
            nodeCount = taken.size();
        }
        return aggregators;
    }

    /** Number of nodes the communicator spans (collective on first use). */
    int nodeCount() {
        aggregators();
        return nodeCount;
    }

    /**
     * Whether every rank writes this file with O_DIRECT where it can (its file system takes it
     * and {@value Hdf5Writer#DIRECT_PROPERTY} is not false): agreed by all ranks, so that
     * they choose the same strategy. Collective on first use.
     */
    boolean directWrites() {
        if (directWrites == null) {
            directWrites = comm.allreduce(writer.writesDirect() ? 1L : 0L, dev.tessera.comm.Op.MIN) == 1L;
        }
        return directWrites;
    }

    /** Flushes data to the device on every rank (collective fsync). */
    public void force() {
        String error = null;
        try {
            writer.force();
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        Collective.throwIfAnyFailed(comm, error, "ParallelHdf5File.force(" + path + ")", null);
    }

    /** Writes the metadata (rank 0) and closes the file on every rank (collective). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        String error = null;
        long end = writer.endOfAllocation();
        long min = comm.allreduce(end, dev.tessera.comm.Op.MIN);
        long max = comm.allreduce(end, dev.tessera.comm.Op.MAX);
        comm.barrier(); // every rank's data is in the file before the metadata describes it
        try {
            if (min != max) {
                throw new IllegalStateException("ranks made different metadata calls (allocation ends at " + min
                        + " on some ranks and " + max + " on others)");
            }
            writer.close();
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        Collective.throwIfAnyFailed(comm, error, "ParallelHdf5File.close(" + path + ")", null);
    }
}
