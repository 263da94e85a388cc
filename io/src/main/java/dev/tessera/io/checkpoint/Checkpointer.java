package dev.tessera.io.checkpoint;

import dev.tessera.comm.Comm;
import dev.tessera.io.pfile.CollectiveCheck;
import dev.tessera.io.pfile.OpenMode;
import dev.tessera.io.pfile.ParallelFile;
import dev.tessera.io.pfile.ParallelFileException;
import java.io.IOException;
import java.io.Serializable;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Crash-safe, checksummed, versioned checkpoints of a whole job, and restart from the
 * newest complete one, also on a different number of ranks.
 *
 * <p><b>Save</b> ({@link #save}, collective) builds checkpoint {@code ckpt-<step>} in a
 * hidden directory {@code .ckpt-<step>.partial}: every rank writes its {@link RankFile}
 * (metadata and local arrays, CRC32C trailer) and forces it to the device; each
 * distributed array goes into one global file through a {@link ParallelFile} with the
 * rank's block as its view, synced, and checksummed in 4 MiB chunks by all ranks in
 * parallel; then rank 0 writes and forces the {@link Manifest}, forces the directory,
 * renames it to its final name (an atomic rename in one file system) and forces the parent
 * directory. Whatever instant a rank or the node dies, the final name either does not
 * exist or names a complete checkpoint; the previous checkpoints are untouched, and only
 * the oldest ones beyond {@code keep} are removed, after the new one is committed.
 *
 * <p><b>Restart</b> ({@link #restoreLatest}, collective) tries the checkpoints newest first.
 * One is taken only if its manifest parses with a matching checksum and every file it
 * lists has the recorded size and CRC32C (the ranks verify the files in parallel and agree
 * on the outcome). A torn one (a leftover {@code .partial} directory, a missing or short
 * file) or a corrupt one (a checksum mismatch) is skipped with a warning that names it.
 * Errors are agreed on all ranks and name the rank and the path.
 */
public final class Checkpointer {

    private static final System.Logger LOG = System.getLogger(Checkpointer.class.getName());
    private static final Pattern COMPLETE = Pattern.compile("ckpt-(\\d{12})");
    private static final Pattern PARTIAL = Pattern.compile("\\.ckpt-(\\d{12})\\.partial");

    /** Phases of a save, reported to a {@link Listener} on every rank. */
    public enum Phase {
        /** This rank's file is written and forced. */
        RANK_FILE_WRITTEN,
        /** Every distributed array is written, synced and checksummed. */
        DISTRIBUTED_WRITTEN,
        /** The checkpoint has its final name (committed). */
        COMMITTED
    }

    /** Observes the progress of saves (logging, progress bars, fault injection in tests). */
    @FunctionalInterface
    public interface Listener {
        void phase(Phase phase, long step, Path directory);
    }

    private final Comm comm;
    private final Path root;
    private final int keep;
    private Listener listener = (phase, step, dir) -> { };

    /** Checkpoints of {@code comm}'s job in {@code directory}, keeping the newest 2. */
    public Checkpointer(Comm comm, Path directory) {
        this(comm, directory, 2);
    }

    /** Checkpoints in {@code directory}, keeping the newest {@code keep} (>= 1) complete ones. */
    public Checkpointer(Comm comm, Path directory, int keep) {
        if (keep < 1) {
            throw new IllegalArgumentException("Checkpointer: keep must be >= 1, got " + keep);
        }
        this.comm = comm;
        this.root = directory.toAbsolutePath();
        this.keep = keep;
    }

    public Checkpointer listener(Listener l) {
        this.listener = l;
        return this;
    }

    public Path directory() {
        return root;
    }

    static String name(long step) {
        return String.format("ckpt-%012d", step);
    }

    /** What each rank reports to rank 0 after writing. */
    private record RankReport(RankFile.Written file, Map<String, int[][]> blocks, Map<String, Map<Integer, Integer>> chunkCrcs)
            implements Serializable {
    }

    // ------------------------------------------------------------------------------- save

    /**
     * Saves checkpoint {@code step} of every rank's {@code data} (collective). Returns its
     * directory. On failure every rank throws a {@link CheckpointException} naming the
     * failing ranks and paths, the partial checkpoint is left hidden, and every earlier
     * checkpoint is untouched.
     */
    public Path save(long step, CheckpointData data) {
        String call = "Checkpointer.save(step " + step + ")";
        Path dir = root.resolve(name(step));
        Path partial = root.resolve("." + name(step) + ".partial");
        try {
            String error = step < 0 ? "step must be >= 0, got " + step : null;
            if (error == null && comm.rank() == 0) {
                error = prepare(dir, partial);
            }
            agree(call, partial, error);
            agree(call, partial, checkDistributedAgree(data));

            RankFile.Written written = null;
            Path rankFile = partial.resolve(RankFile.name(comm.rank()));
            try {
                written = RankFile.write(rankFile, comm.rank(), comm.size(), step, data);
            } catch (IOException | RuntimeException e) {
                error = "cannot write " + rankFile + ": " + CollectiveCheck.describe(e);
            }
            agree(call, rankFile, error);
            listener.phase(Phase.RANK_FILE_WRITTEN, step, partial);

            Map<String, int[][]> blocks = new HashMap<>();
            Map<String, Map<Integer, Integer>> crcs = new HashMap<>();
            for (CheckpointData.Distributed d : data.distributed()) {
                Path file = partial.resolve("dist-" + d.name() + ".raw");
                try (ParallelFile f = ParallelFile.open(comm, file, OpenMode.CREATE, OpenMode.WRITE, OpenMode.READ)) {
                    f.setView(0, d.block());
                    f.writeAll(d.data(), d.block().type());
                    f.sync();
                }
                blocks.put(d.name(), new int[][] {d.block().starts(), d.block().subsizes()});
                crcs.put(d.name(), myChunkCrcs(call, file, d.block().extentBytes()));
            }
            listener.phase(Phase.DISTRIBUTED_WRITTEN, step, partial);

            List<RankReport> reports = comm.gatherObject(new RankReport(written, blocks, crcs), 0);
            error = null;
            if (comm.rank() == 0) {
                try {
                    commit(step, data, reports, partial, dir);
                } catch (IOException | RuntimeException e) {
                    error = "cannot commit " + dir + ": " + CollectiveCheck.describe(e);
                }
            }
            agree(call, dir, error);
            listener.phase(Phase.COMMITTED, step, dir);
            if (comm.rank() == 0) {
                prune(step);
            }
            comm.barrier();
            return dir;
        } catch (ParallelFileException e) {
            throw new CheckpointException("rank " + comm.rank() + ": " + call + " in " + root + ": " + e.getMessage()
                    + " (earlier checkpoints are untouched)", e);
        }
    }

    private String prepare(Path dir, Path partial) {
        try {
            Files.createDirectories(root);
            if (Files.exists(dir)) {
                return "checkpoint " + dir + " exists already";
            }
            deleteTree(partial);
            Files.createDirectory(partial);
            return null;
        } catch (IOException e) {
            return "cannot create " + partial + ": " + CollectiveCheck.describe(e);
        }
    }

    /** Every rank must save the same distributed arrays (names, types, global shapes) in the same order. */
    private String checkDistributedAgree(CheckpointData data) {
        StringBuilder s = new StringBuilder();
        long[] elements = new long[data.distributed().size()];
        int i = 0;
        for (CheckpointData.Distributed d : data.distributed()) {
            s.append(d.name()).append(':').append(d.block().type()).append(java.util.Arrays.toString(d.block().sizes())).append(' ');
            elements[i++] = d.block().elementCount();
        }
        List<String> all = comm.allgatherObject(s.toString());
        if (!all.stream().allMatch(all.getFirst()::equals)) {
            return "ranks save different distributed arrays: " + all;
        }
        List<long[]> counts = comm.allgatherObject(elements);
        i = 0;
        for (CheckpointData.Distributed d : data.distributed()) {
            long sum = 0;
            for (long[] c : counts) {
                sum += c[i];
            }
            long global = d.block().extentBytes() / d.block().type().byteSize();
            if (sum != global) {
                return "blocks of distributed array '" + d.name() + "' hold " + sum + " elements in all, the global array "
                        + java.util.Arrays.toString(d.block().sizes()) + " has " + global + " (missing or overlapping blocks)";
            }
            i++;
        }
        return null;
    }

    /** CRC32C of the chunks {@code i} of the file with {@code i % size == rank}. */
    private Map<Integer, Integer> myChunkCrcs(String call, Path file, long bytes) {
        Map<Integer, Integer> mine = new HashMap<>();
        String error = null;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (int c = comm.rank(); c < Crc.chunks(bytes); c += comm.size()) {
                long from = (long) c * Crc.CHUNK;
                mine.put(c, Crc.range(ch, from, Math.min(Crc.CHUNK, bytes - from)));
            }
        } catch (IOException e) {
            error = "cannot checksum " + file + ": " + CollectiveCheck.describe(e);
        }
        agree(call, file, error);
        return mine;
    }

    private void commit(long step, CheckpointData data, List<RankReport> reports, Path partial, Path dir) throws IOException {
        List<Manifest.FileEntry> files = new ArrayList<>();
        for (int r = 0; r < reports.size(); r++) {
            files.add(new Manifest.FileEntry(RankFile.name(r), reports.get(r).file().bytes(), reports.get(r).file().crc()));
        }
        List<Manifest.DistEntry> dists = new ArrayList<>();
        for (CheckpointData.Distributed d : data.distributed()) {
            long bytes = d.block().extentBytes();
            int[] chunkCrcs = new int[Crc.chunks(bytes)];
            List<int[][]> blocks = new ArrayList<>();
            for (RankReport rep : reports) {
                rep.chunkCrcs().get(d.name()).forEach((c, v) -> chunkCrcs[c] = v);
                blocks.add(rep.blocks().get(d.name()));
            }
            dists.add(new Manifest.DistEntry(d.name(), d.block().type(), d.block().sizes(), bytes, chunkCrcs, blocks));
        }
        Manifest m = new Manifest(Manifest.VERSION, step, comm.size(), Instant.now().toString(), data.metadata(), files, dists);
        Path manifest = partial.resolve(Manifest.NAME);
        m.write(manifest);
        force(manifest);
        force(partial);
        Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
        force(root);
    }

    private static void force(Path path) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** Removes complete checkpoints older than the newest {@code keep}, and partial ones older than {@code step}. */
    private void prune(long step) {
        try (Stream<Path> s = Files.list(root)) {
            List<Path> entries = s.toList();
            List<Path> complete = entries.stream().filter(p -> COMPLETE.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed()).toList();
            for (int i = keep; i < complete.size(); i++) {
                deleteTree(complete.get(i));
            }
            for (Path p : entries) {
                Matcher m = PARTIAL.matcher(p.getFileName().toString());
                if (m.matches() && Long.parseLong(m.group(1)) < step) {
                    deleteTree(p);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "rank 0: cannot remove old checkpoints in " + root + ": " + e);
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }

    private void agree(String call, Path path, String error) {
        CollectiveCheck.agree(comm, call, path, error);
    }

    // ------------------------------------------------------------------------------- restart

    /**
     * Finds the newest complete, intact checkpoint (collective). Torn and corrupt ones are
     * skipped with a warning naming them ({@link Restart#skipped()} lists the warnings).
     * Empty if there is none.
     */
    public Optional<Restart> restoreLatest() {
        List<String> skipped = new ArrayList<>();
        List<String> names = comm.bcastObject(comm.rank() == 0
                ? new ArrayList<>(listCandidates(skipped).stream().map(p -> p.getFileName().toString()).toList()) : null, 0);
        List<Path> candidates = names.stream().map(root::resolve).toList();
        skipped = new ArrayList<>(comm.bcastObject(comm.rank() == 0 ? skipped : null, 0));
        for (Path dir : candidates) {
            Object parsed = null;
            if (comm.rank() == 0) {
                try {
                    parsed = Manifest.read(dir.resolve(Manifest.NAME));
                } catch (IOException | RuntimeException e) {
                    parsed = "torn or corrupt manifest: " + CollectiveCheck.describe(e);
                }
            }
            parsed = comm.bcastObject(parsed, 0);
            String problem = parsed instanceof String s ? s : verify(dir, (Manifest) parsed);
            if (problem == null) {
                return Optional.of(new Restart(comm, dir, (Manifest) parsed, List.copyOf(skipped)));
            }
            String warning = "checkpoint " + dir + " skipped: " + problem;
            skipped.add(warning);
            if (comm.rank() == 0) {
                LOG.log(System.Logger.Level.WARNING, warning);
            }
        }
        return Optional.empty();
    }

    private List<Path> listCandidates(List<String> skipped) {
        List<Path> complete = new ArrayList<>();
        if (!Files.isDirectory(root)) {
            return complete;
        }
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.toList()) {
                String n = p.getFileName().toString();
                if (COMPLETE.matcher(n).matches()) {
                    complete.add(p);
                } else if (PARTIAL.matcher(n).matches()) {
                    String w = "checkpoint " + p + " skipped: torn (never completed: still a .partial directory)";
                    skipped.add(w);
                    LOG.log(System.Logger.Level.WARNING, w);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "rank 0: cannot list " + root + ": " + e);
        }
        complete.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        return complete;
    }

    /** Collective: every listed file has its size and checksum; null if so, else the problems found. */
    private String verify(Path dir, Manifest m) {
        List<String> problems = new ArrayList<>();
        int me = comm.rank();
        int size = comm.size();
        for (int i = me; i < m.files().size(); i += size) {
            Manifest.FileEntry f = m.files().get(i);
            Path p = dir.resolve(f.name());
            try {
                long actual = Files.size(p);
                if (actual != f.bytes()) {
                    problems.add(p + " is " + actual + " bytes, the manifest says " + f.bytes() + " (torn)");
                } else if (Crc.of(p) != f.crc()) {
                    problems.add(p + " checksum mismatch (CRC32C " + Manifest.hex(Crc.of(p)) + ", recorded "
                            + Manifest.hex(f.crc()) + ")");
                }
            } catch (IOException e) {
                problems.add(p + ": " + CollectiveCheck.describe(e));
            }
        }
        for (Manifest.DistEntry d : m.dists()) {
            Path p = dir.resolve(d.file());
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
                if (ch.size() != d.bytes()) {
                    problems.add(p + " is " + ch.size() + " bytes, the manifest says " + d.bytes() + " (torn)");
                    continue;
                }
                for (int c = me; c < d.chunkCrcs().length; c += size) {
                    long from = (long) c * Crc.CHUNK;
                    int crc = Crc.range(ch, from, Math.min(Crc.CHUNK, d.bytes() - from));
                    if (crc != d.chunkCrcs()[c]) {
                        problems.add(p + " chunk " + c + " (bytes " + from + "..) checksum mismatch (CRC32C "
                                + Manifest.hex(crc) + ", recorded " + Manifest.hex(d.chunkCrcs()[c]) + ")");
                    }
                }
            } catch (IOException e) {
                if (me == 0) {
                    problems.add(p + ": " + CollectiveCheck.describe(e));
                }
            }
        }
        List<String> mine = problems.isEmpty() ? null : problems;
        List<List<String>> all = comm.allgatherObject(mine);
        List<String> found = new ArrayList<>();
        for (int r = 0; r < all.size(); r++) {
            if (all.get(r) != null) {
                for (String s : all.get(r)) {
                    found.add(s + " (found by rank " + r + ")");
                }
            }
        }
        return found.isEmpty() ? null : String.join("; ", found);
    }
}
