package dev.tessera.io.checkpoint;

import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.io.pfile.OpenMode;
import dev.tessera.io.pfile.ParallelFile;
import dev.tessera.io.pfile.ParallelFileException;
import dev.tessera.io.pfile.Subarray;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A verified checkpoint to restart from, found by {@link Checkpointer#restoreLatest()}.
 *
 * <p>Local arrays and per-rank metadata belong to the ranks that saved them:
 * {@link #doubles(String)} and friends give this rank its own when the job has as many
 * ranks as the one that saved; on another number of ranks, {@link #rankArray} reads any
 * saved rank's. Distributed arrays are read on any number of ranks with
 * {@link #readDistributed}, each rank passing the block it wants.
 */
public final class Restart {

    private final Comm comm;
    private final Path directory;
    private final Manifest manifest;
    private final List<String> skipped;
    private final Map<Integer, RankFile.Contents> rankFiles = new HashMap<>();

    Restart(Comm comm, Path directory, Manifest manifest, List<String> skipped) {
        this.comm = comm;
        this.directory = directory;
        this.manifest = manifest;
        this.skipped = skipped;
    }

    public long step() {
        return manifest.step();
    }

    public Path directory() {
        return directory;
    }

    /** Ranks of the job that saved the checkpoint. */
    public int savedRanks() {
        return manifest.ranks();
    }

    /** Warnings about newer checkpoints that were torn or corrupt and skipped. */
    public List<String> skipped() {
        return skipped;
    }

    /** Rank 0's metadata (the job-wide values by convention). */
    public Map<String, String> metadata() {
        return manifest.metadata();
    }

    /** The metadata saved by rank {@code savedRank}. */
    public Map<String, String> rankMetadata(int savedRank) {
        return contents(savedRank).metadata();
    }

    /** Names of the local arrays saved by rank {@code savedRank}. */
    public List<String> arrayNames(int savedRank) {
        return new ArrayList<>(contents(savedRank).arrays().keySet());
    }

    public double[] doubles(String name) { return own(name, double[].class); }
    public long[] longs(String name) { return own(name, long[].class); }
    public int[] ints(String name) { return own(name, int[].class); }
    public byte[] bytes(String name) { return own(name, byte[].class); }

    /** The local array {@code name} saved by rank {@code savedRank}, of type {@code type} (e.g. {@code double[].class}). */
    public <T> T rankArray(int savedRank, String name, Class<T> type) {
        Object a = contents(savedRank).arrays().get(name);
        if (a == null) {
            throw new CheckpointException(where("Restart.rankArray") + ": rank " + savedRank + " saved no array '" + name
                    + "' in " + directory + " (it saved " + arrayNames(savedRank) + ")");
        }
        if (!type.isInstance(a)) {
            throw new CheckpointException(where("Restart.rankArray") + ": array '" + name + "' of rank " + savedRank
                    + " in " + directory + " is a " + a.getClass().getSimpleName() + ", not " + type.getSimpleName());
        }
        return type.cast(a);
    }

    private <T> T own(String name, Class<T> type) {
        if (manifest.ranks() != comm.size()) {
            throw new CheckpointException(where("Restart." + type.getComponentType() + "s") + ": checkpoint " + directory
                    + " was saved by " + manifest.ranks() + " ranks, this job has " + comm.size()
                    + ": local arrays have no owner here; use rankArray(savedRank, ...) or a distributed array");
        }
        return rankArray(comm.rank(), name, type);
    }

    private RankFile.Contents contents(int savedRank) {
        if (savedRank < 0 || savedRank >= manifest.ranks()) {
            throw new CheckpointException(where("Restart") + ": saved rank " + savedRank + " out of range [0, "
                    + manifest.ranks() + ") for " + directory);
        }
        return rankFiles.computeIfAbsent(savedRank, r -> {
            Path p = directory.resolve(RankFile.name(r));
            try {
                return RankFile.read(p);
            } catch (IOException e) {
                throw new CheckpointException(where("Restart") + ": cannot read " + p + ": " + e.getMessage(), e);
            }
        });
    }

    /** Names of the distributed arrays. */
    public List<String> distributedNames() {
        return manifest.dists().stream().map(Manifest.DistEntry::name).toList();
    }

    /** Global shape of the distributed array {@code name}. */
    public int[] globalSizes(String name) {
        return dist(name).sizes().clone();
    }

    /** The block (starts, subsizes) that saved rank {@code savedRank} wrote of {@code name}. */
    public Subarray savedBlock(String name, int savedRank) {
        Manifest.DistEntry d = dist(name);
        int[][] b = d.blocks().get(savedRank);
        return Subarray.of(d.type(), d.sizes(), b[1], b[0]);
    }

    /** Reads this rank's {@code block} of the distributed array {@code name} (collective). */
    public double[] readDistributed(String name, Subarray block) {
        double[] out = new double[Math.toIntExact(block.elementCount())];
        readDistributed(name, block, MemorySegment.ofArray(out));
        return out;
    }

    /** Reads this rank's {@code block} of {@code name} into {@code into} (collective). */
    public void readDistributed(String name, Subarray block, MemorySegment into) {
        Manifest.DistEntry d = dist(name);
        String error = null;
        if (block.type() != d.type() || !java.util.Arrays.equals(block.sizes(), d.sizes())) {
            error = "block " + block + " does not match the saved array '" + name + "' (" + d.type() + ", sizes "
                    + java.util.Arrays.toString(d.sizes()) + ")";
        } else if (into.byteSize() != block.dataBytes()) {
            error = "buffer of " + into.byteSize() + " bytes for a block of " + block.dataBytes();
        }
        Path file = directory.resolve(d.file());
        try {
            dev.tessera.io.pfile.CollectiveCheck.agree(comm, "Restart.readDistributed(" + name + ")", file, error);
            try (ParallelFile f = ParallelFile.open(comm, file, OpenMode.READ)) {
                f.setView(0, block);
                f.readAll(into, d.type() == Datatype.BYTE ? Datatype.BYTE : d.type());
            }
        } catch (ParallelFileException e) {
            throw new CheckpointException(e.getMessage(), e);
        }
    }

    private Manifest.DistEntry dist(String name) {
        Manifest.DistEntry d = manifest.dist(name);
        if (d == null) {
            throw new CheckpointException(where("Restart") + ": checkpoint " + directory + " has no distributed array '"
                    + name + "' (it has " + distributedNames() + ")");
        }
        return d;
    }

    private String where(String call) {
        return "rank " + comm.rank() + ": " + call;
    }

    @Override
    public String toString() {
        return "Restart[" + directory + ", step " + step() + ", saved by " + savedRanks() + " ranks]";
    }
}
