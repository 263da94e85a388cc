package dev.tessera.io.hdf5;

import dev.tessera.comm.Comm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One HDF5 file per rank plus a master file that stitches them, for runs too large for one
 * shared file (no shared-file locking or aggregation; each rank streams to its own file).
 * Rank r writes {@code base.rNNNNN.h5}: its block of every field as a dataset, with
 * attributes {@code global_offset} and {@code global_shape}; at close rank 0 writes
 * {@code base.xmf}, an {@link XdmfMaster XDMF} file that ParaView (and VisIt) open as one
 * multi-block mesh of cell data, each block read from its rank's file.
 *
 * <pre>
 * try (PerRankFiles out = PerRankFiles.create(comm, dir, "snap0010", globalShape, offset, count)) {
 *     out.attribute("time", t);
 *     out.write("rho", rhoBlock);
 *     out.write("T", temperatureBlock);
 * }
 * </pre>
 *
 * Every rank calls {@link #write} for the same fields in the same order (collective in
 * that sense; the writes themselves need no communication, close does).
 */
public final class PerRankFiles implements AutoCloseable {

    private final Comm comm;
    private final Path dir;
    private final String base;
    private final long[] globalShape;
    private final long[] offset;
    private final long[] count;
    private final Hdf5Writer writer;
    private final Map<String, Hdf5Type> fields = new LinkedHashMap<>();
    private double[] origin;
    private double[] spacing;
    private boolean closed;

    private PerRankFiles(Comm comm, Path dir, String base, long[] globalShape, long[] offset, long[] count) {
        this.comm = comm;
        this.dir = dir;
        this.base = base;
        this.globalShape = globalShape.clone();
        this.offset = offset.clone();
        this.count = count.clone();
        if (!new Hyperslab(offset, count).fitsIn(globalShape)) {
            throw new IllegalArgumentException("PerRankFiles " + dir.resolve(base) + " (rank " + comm.rank() + "): block "
                    + new Hyperslab(offset, count) + " is outside the global shape " + Arrays.toString(globalShape));
        }
        this.writer = new Hdf5Writer(rankFile(dir, base, comm.rank()), true, true, " (rank " + comm.rank() + ")");
        writer.root().attribute("global_offset", offset.clone()).attribute("global_shape", globalShape.clone())
                .attribute("rank", comm.rank()).attribute("ranks", comm.size());
        this.origin = new double[globalShape.length];
        this.spacing = new double[globalShape.length];
        Arrays.fill(spacing, 1.0);
    }

    /** Opens this rank's file for its block at {@code offset} of {@code count} in {@code globalShape}. */
    public static PerRankFiles create(Comm comm, Path dir, String base, long[] globalShape, long[] offset, long[] count) {
        return new PerRankFiles(comm, dir, base, globalShape, offset, count);
    }

    /** The file of rank {@code rank}. */
    public static Path rankFile(Path dir, String base, int rank) {
        return dir.resolve(String.format("%s.r%05d.h5", base, rank));
    }

    /** The XDMF master file. */
    public static Path masterFile(Path dir, String base) {
        return dir.resolve(base + ".xmf");
    }

    /**
     * Sets the mesh geometry of the master file: the position of the global array's first
     * cell corner and the cell size, per dimension in the array's order (slowest first).
     */
    public PerRankFiles geometry(double[] origin, double[] spacing) {
        this.origin = origin.clone();
        this.spacing = spacing.clone();
        return this;
    }

    /** Sets an attribute of this rank's file's root group. */
    public PerRankFiles attribute(String name, Object value) {
        writer.root().attribute(name, value);
        return this;
    }

    /** Writes field {@code name}: this rank's block, row-major. */
    public PerRankFiles write(String name, Object block) {
        Hdf5Type type = Hdf5Type.ofArray(block);
        writer.root().createDataset(name, type, count).write(block);
        fields.put(name, type);
        return this;
    }

    /** Closes this rank's file; rank 0 writes the master file (collective). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        String error = null;
        try {
            writer.close();
        } catch (RuntimeException e) {
            error = e.getMessage();
        }
        List<long[][]> blocks = comm.gatherObject(new long[][] {offset, count}, 0);
        if (comm.rank() == 0 && error == null) {
            try {
                List<Path> files = new ArrayList<>();
                for (int r = 0; r < comm.size(); r++) {
                    files.add(rankFile(dir, base, r));
                }
                XdmfMaster.write(masterFile(dir, base), files, blocks, fields, origin, spacing);
            } catch (RuntimeException e) {
                error = e.getMessage();
            }
        }
        Collective.throwIfAnyFailed(comm, error, "PerRankFiles.close(" + dir.resolve(base) + ")", null);
    }
}
