package dev.tessera.io.pfile;

import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.ThreadLevel;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Request;
import dev.tessera.io.direct.DirectIo;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A file shared by the ranks of a communicator, in the manner of MPI-IO, on a
 * {@link FileChannel} per rank.
 *
 * <pre>{@code
 * try (ParallelFile f = ParallelFile.open(comm, path, OpenMode.CREATE, OpenMode.WRITE)) {
 *     f.setView(0, Subarray.of(Datatype.DOUBLE, global, block, start));   // this rank's block
 *     f.writeAll(field);                                                   // collective, two-phase
 * }
 * }</pre>
 *
 * <p><b>Collective calls</b> ({@code open}, {@code setView}, {@code writeAll}, {@code readAll},
 * {@code sync}, {@code setSize}, {@code close}) must be made by every rank of the
 * communicator in the same order. Their errors are agreed: if one rank fails, every rank
 * throws a {@link ParallelFileException} naming the failing ranks and the path, so no rank
 * is left waiting in a later call. Open is two-step: rank 0 opens (and creates) first, then
 * the others, so CREATE and EXCLUSIVE behave as in MPI.
 *
 * <p><b>Views.</b> Each rank sees the file through its own {@link FileView}: a
 * displacement and an n-d {@link Subarray} layout of an element type, tiled. Positions
 * and offsets of data calls count elements of the view's type from the displacement;
 * the default view is bytes from offset 0. Data are in the machine's native byte order
 * (little-endian on x86-64 and aarch64), as a {@code MemorySegment.ofArray} sees them.
 *
 * <p><b>Collective data calls</b> use {@link TwoPhaseIo} (collective buffering) with
 * {@link Hints#aggregators()} aggregator ranks. Overlapping writes of different ranks in
 * one {@code writeAll} are rejected before any byte is written. <b>Independent calls</b>
 * ({@code writeAt}, {@code readAt}) write their pieces directly. <b>Nonblocking</b>
 * variants return an {@link IoRequest}: independent ones run on a virtual thread at once.
 * Collective ones ({@code iwriteAll}, {@code ireadAll}) are schedules built on the
 * communicator's nonblocking collectives (MPI-3 {@code iallgather}/{@code iallgatherv} for the
 * access exchange and the agreed outcome) and nonblocking transfers (two-phase rounds), with
 * the file I/O on the file's I/O thread: they return at once and move on whenever this rank
 * tests or awaits a request of the file (or makes another collective call on it), at any
 * thread level, since only the calling thread communicates. At {@link ThreadLevel#MULTIPLE}
 * a background thread of the file advances them as well. Several may be in flight; they
 * run one after the other in the order they were started, which must be the same on every rank.
 */
public final class ParallelFile implements AutoCloseable {

    /**
     * System property: {@code false} keeps every transfer in the page cache; by default (true)
     * the whole pages of the two-phase aggregators' windows, and of a rank's own range of at
     * least 1 MiB (slabs, independent calls), go through a second channel opened with O_DIRECT
     * where the file system takes it (tmpfs, for one, does not: the page cache then).
     */
    public static final String DIRECT_PROPERTY = "tessera.io.pfile.direct";

    /** Independent transfers of fewer whole pages than this stay in the page cache. */
    private static final long DIRECT_MIN_BYTES = 1 << 20;

    /** When collective calls use two-phase aggregation (ROMIO's romio_cb_write / romio_cb_read). */
    public enum CollectiveBuffering {
        /** Two-phase only when the ranks' accesses interleave; a rank whose access is one contiguous range writes it itself. */
        AUTOMATIC,
        /** Always two-phase. */
        ENABLE,
        /** Never: every rank writes its own pieces (one positional write per piece). */
        DISABLE
    }

    /**
     * Tuning of collective I/O, like ROMIO's cb_nodes, cb_buffer_size and romio_cb_write hints.
     *
     * @param aggregators  ranks that do the file I/O of collective calls (0: the default choice)
     * @param bufferBytes  bytes an aggregator moves per round
     * @param buffering    when to aggregate
     */
    public record Hints(int aggregators, long bufferBytes, CollectiveBuffering buffering) {
        public static final Hints DEFAULT = new Hints(0, 16L << 20);

        public Hints {
            if (aggregators < 0 || bufferBytes < 1 || buffering == null) {
                throw new IllegalArgumentException("Hints: aggregators must be >= 0, bufferBytes >= 1 and buffering set, got "
                        + aggregators + ", " + bufferBytes + ", " + buffering);
            }
        }

        public Hints(int aggregators, long bufferBytes) {
            this(aggregators, bufferBytes, CollectiveBuffering.AUTOMATIC);
        }

        public Hints withBuffering(CollectiveBuffering b) {
            return new Hints(aggregators, bufferBytes, b);
        }
    }

    private final Comm comm;
    private final Path path;
    private final Set<OpenMode> modes;
    private final FileChannel channel;
    /** The same file opened with O_DIRECT for the aggregators' whole pages; opened on first use, null where refused or switched off. */
    private FileChannel directChannel;
    private boolean directTried;
    private final int[] aggregators;
    private final long bufferBytes;
    private final CollectiveBuffering buffering;
    private final ExecutorService ioThread;
    private final ExecutorService progressThread; // MULTIPLE only: advances nonblocking collectives in the background
    private final ExecutorService independentThreads = Executors.newVirtualThreadPerTaskExecutor();
    private FileView view = FileView.contiguous(0, Datatype.BYTE);
    private FileView[] allViews;
    private long position;
    /** Nonblocking collective operations not yet finished, in the order they were started (the head runs). */
    private final ArrayDeque<CollectiveOp> pendingCollectives = new ArrayDeque<>();
    private String checkedAccess;
    private volatile boolean closed;

    private ParallelFile(Comm comm, Path path, Set<OpenMode> modes, FileChannel channel, Hints hints) {
        this.comm = comm;
        this.path = path;
        this.modes = modes;
        this.channel = channel;
        this.bufferBytes = hints.bufferBytes();
        this.buffering = hints.buffering();
        this.aggregators = AggregatorChoice.choose(comm, hints.aggregators());
        this.ioThread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("pfile-io").factory());
        this.progressThread = comm.threadLevel() == ThreadLevel.MULTIPLE
                ? Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("pfile-progress").factory())
                : null;
        FileView[] views = new FileView[comm.size()];
        Arrays.fill(views, view);
        this.allViews = views;
    }

    /** Opens {@code path} on every rank of {@code comm} (collective) with default hints. */
    public static ParallelFile open(Comm comm, Path path, OpenMode... modes) {
        return open(comm, path, Hints.DEFAULT, modes);
    }

    /** Opens {@code path} on every rank of {@code comm} (collective). */
    public static ParallelFile open(Comm comm, Path path, Hints hints, OpenMode... modes) {
        String call = "ParallelFile.open";
        Set<OpenMode> set = modes.length == 0 ? EnumSet.noneOf(OpenMode.class) : EnumSet.copyOf(List.of(modes));
        String error = validateModes(set);
        if (error == null) {
            try {
                DirectIo.enabled(DIRECT_PROPERTY); // a bad value is named here, before any I/O
            } catch (IllegalArgumentException e) {
                error = e.getMessage();
            }
        }
        Path absolute = path == null ? null : path.toAbsolutePath();
        List<String> seen = comm.allgatherObject(absolute + " " + set);
        if (error == null && new HashSet<>(seen).size() > 1) {
            error = "ranks disagree on the path or modes: " + seen;
        }
        CollectiveCheck.agree(comm, call, absolute, error);
        Comm own = comm.dup();
        FileChannel channel = null;
        String failure = null;
        if (own.rank() == 0) {
            try {
                channel = FileChannel.open(absolute, options(set, true));
            } catch (IOException | RuntimeException e) {
                failure = "cannot open " + absolute + " " + set + ": " + CollectiveCheck.describe(e);
            }
        }
        try {
            CollectiveCheck.agree(own, call, absolute, failure);
            if (own.rank() != 0) {
                try {
                    channel = FileChannel.open(absolute, options(set, false));
                } catch (IOException | RuntimeException e) {
                    failure = "cannot open " + absolute + " " + set + ": " + CollectiveCheck.describe(e);
                }
            }
            CollectiveCheck.agree(own, call, absolute, failure);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            own.free();
            throw e;
        }
        return new ParallelFile(own, absolute, set, channel, hints);
    }

    private static String validateModes(Set<OpenMode> set) {
        if (!set.contains(OpenMode.READ) && !set.contains(OpenMode.WRITE)) {
            return "modes " + set + " need READ or WRITE";
        }
        if (set.contains(OpenMode.CREATE) && !set.contains(OpenMode.WRITE)) {
            return "modes " + set + ": CREATE needs WRITE";
        }
        if (set.contains(OpenMode.EXCLUSIVE) && !set.contains(OpenMode.CREATE)) {
            return "modes " + set + ": EXCLUSIVE needs CREATE";
        }
        return null;
    }

    /**
     * The file opened again with O_DIRECT (see {@link #DIRECT_PROPERTY}), or null where the
     * file system refuses it or the property is false: then every transfer goes through
     * {@link #channel} and the page cache.
     */
    private synchronized FileChannel directChannel() {
        if (!directTried) {
            directTried = true;
            directChannel = DirectIo.open(path, DIRECT_PROPERTY, options(modes, false));
        }
        return directChannel;
    }

    /** Whether this rank's two-phase transfers can bypass the page cache (for tests). */
    boolean transfersDirect() {
        return directChannel() != null;
    }

    private static OpenOption[] options(Set<OpenMode> set, boolean first) {
        Set<OpenOption> o = new HashSet<>();
        if (set.contains(OpenMode.READ)) {
            o.add(StandardOpenOption.READ);
        }
        if (set.contains(OpenMode.WRITE)) {
            o.add(StandardOpenOption.WRITE);
        }
        if (first && set.contains(OpenMode.CREATE)) {
            o.add(set.contains(OpenMode.EXCLUSIVE) ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        }
        return o.toArray(OpenOption[]::new);
    }

    public Path path() {
        return path;
    }

    public Comm comm() {
        return comm;
    }

    /** This rank's view. */
    public FileView view() {
        return view;
    }

    /** The aggregator ranks of collective calls. */
    public int[] aggregators() {
        return aggregators.clone();
    }

    // ------------------------------------------------------------------------------- views

    /** Sets this rank's view (collective; each rank passes its own). Resets the file pointer. */
    public void setView(FileView newView) {
        setView(newView, newView == null ? "view is null" : null);
    }

    private void setView(FileView newView, String error) {
        String call = "ParallelFile.setView";
        checkOpen(call);
        awaitCollective();
        List<FileView> views = comm.allgatherObject(newView);
        CollectiveCheck.agree(comm, call, path, error);
        this.view = newView;
        this.allViews = views.toArray(FileView[]::new);
        this.position = 0;
        this.checkedAccess = null;
    }

    /** Sets this rank's view to {@code layout} starting {@code displacement} bytes into the file (collective). */
    public void setView(long displacement, Subarray layout) {
        String error = null;
        FileView v = null;
        try {
            v = new FileView(displacement, layout);
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
        setView(v, error);
    }

    /** The individual file pointer, in elements of the view. */
    public long position() {
        return position;
    }

    /** Moves the individual file pointer (elements of the view). */
    public void seek(long elements) {
        if (elements < 0) {
            throw new ParallelFileException(path, where("ParallelFile.seek") + ": position must be >= 0, got " + elements);
        }
        position = elements;
    }

    // ------------------------------------------------------------------------------- collective data

    public void writeAll(double[] data) { writeAll(MemorySegment.ofArray(data), Datatype.DOUBLE); }
    public void writeAll(float[] data) { writeAll(MemorySegment.ofArray(data), Datatype.FLOAT); }
    public void writeAll(long[] data) { writeAll(MemorySegment.ofArray(data), Datatype.LONG); }
    public void writeAll(int[] data) { writeAll(MemorySegment.ofArray(data), Datatype.INT); }
    public void writeAll(short[] data) { writeAll(MemorySegment.ofArray(data), Datatype.SHORT); }
    public void writeAll(byte[] data) { writeAll(MemorySegment.ofArray(data), Datatype.BYTE); }

    public void readAll(double[] data) { readAll(MemorySegment.ofArray(data), Datatype.DOUBLE); }
    public void readAll(float[] data) { readAll(MemorySegment.ofArray(data), Datatype.FLOAT); }
    public void readAll(long[] data) { readAll(MemorySegment.ofArray(data), Datatype.LONG); }
    public void readAll(int[] data) { readAll(MemorySegment.ofArray(data), Datatype.INT); }
    public void readAll(short[] data) { readAll(MemorySegment.ofArray(data), Datatype.SHORT); }
    public void readAll(byte[] data) { readAll(MemorySegment.ofArray(data), Datatype.BYTE); }

    /**
     * Collective write of {@code data} (elements of {@code type}) at the file pointer, which
     * then advances past them. Every rank calls it; a rank with nothing to write passes an
     * empty segment.
     */
    public void writeAll(MemorySegment data, Datatype type) {
        iwriteAll(data, type).await();
    }

    /** Collective read into {@code data} at the file pointer, which then advances. */
    public void readAll(MemorySegment data, Datatype type) {
        ireadAll(data, type).await();
    }

    /** Nonblocking {@link #writeAll(MemorySegment, Datatype)}. */
    public IoRequest iwriteAll(MemorySegment data, Datatype type) {
        return collective("ParallelFile.writeAll", data, type, true);
    }

    /** Nonblocking {@link #readAll(MemorySegment, Datatype)}. */
    public IoRequest ireadAll(MemorySegment data, Datatype type) {
        return collective("ParallelFile.readAll", data, type, false);
    }

    public IoRequest iwriteAll(double[] data) { return iwriteAll(MemorySegment.ofArray(data), Datatype.DOUBLE); }
    public IoRequest ireadAll(double[] data) { return ireadAll(MemorySegment.ofArray(data), Datatype.DOUBLE); }

    private IoRequest collective(String call, MemorySegment data, Datatype type, boolean write) {
        checkOpen(call);
        String error = checkData(call, data, type, write);
        long start = position * view.type().byteSize();
        long length = error == null ? data.byteSize() : 0;
        if (error == null) {
            position += length / view.type().byteSize();
        }
        CollectiveOp op = new CollectiveOp(call, data, start, length, write, error, view, allViews);
        synchronized (this) {
            pendingCollectives.add(op);
        }
        progress(); // post its first step now (or the head's), so the transfers start before the caller computes
        if (progressThread != null) {
            progressThread.execute(() -> {
                for (int idle = 0; !closed && !progress(); idle++) {
                    dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
                }
            });
        }
        return new IoRequest(op.result, this::progress);
    }

    /**
     * One nonblocking {@code writeAll}/{@code readAll} as a schedule of steps; each step starts
     * nonblocking collectives or file I/O and the next runs once they completed:
     * <ol>
     * <li>one {@code iallgather} of every rank's access (start, length) and argument error;</li>
     * <li>when some rank's arguments were bad: the agreed error ({@link Agreement}), on every rank;</li>
     * <li>writes: the overlap check, agreed (skipped when the accesses are those already checked);</li>
     * <li>the data: each rank its own range on the I/O thread (accesses without holes), or
     *     two-phase rounds of nonblocking transfers ({@link TwoPhaseIo#advance});</li>
     * <li>the agreed outcome of the file I/O; then the request completes with the bytes moved.</li>
     * </ol>
     * {@link #advance} never blocks; a step's failure completes the request with that error.
     */
    private final class CollectiveOp {
        private final String call;
        private final MemorySegment data;
        private final long start;
        private final long length;
        private final boolean write;
        private final String error;
        private final FileView myView;
        private final FileView[] views;
        final CompletableFuture<Long> result = new CompletableFuture<>();
        private int stage;
        private long[] gathered;
        private Request exchange;
        private Agreement agreement;
        private long[] starts;
        private long[] lengths;
        private String accessKey;
        private CompletableFuture<String> direct;
        private TwoPhaseIo twoPhase;

        CollectiveOp(String call, MemorySegment data, long start, long length, boolean write, String error,
                     FileView myView, FileView[] views) {
            this.call = call;
            this.data = data;
            this.start = start;
            this.length = length;
            this.write = write;
            this.error = error;
            this.myView = myView;
            this.views = views;
        }

        /** Moves on as far as possible without blocking; true once the request has completed. */
        boolean advance() {
            if (result.isDone()) {
                return true;
            }
            try {
                return step();
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
                return true;
            }
        }

        private boolean step() {
            while (true) {
                switch (stage) {
                    case 0 -> {
                        int errorBytes = error == null ? -1 : error.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                        gathered = new long[3 * comm.size()];
                        exchange = comm.iallgather(Buffer.of(new long[] {start, length, errorBytes}), Buffer.of(gathered));
                        stage = 1;
                    }
                    case 1 -> {
                        if (!exchange.test()) {
                            return false;
                        }
                        int n = comm.size();
                        starts = new long[n];
                        lengths = new long[n];
                        int[] errorLengths = new int[n];
                        boolean anyError = false;
                        for (int p = 0; p < n; p++) {
                            starts[p] = gathered[3 * p];
                            lengths[p] = gathered[3 * p + 1];
                            errorLengths[p] = (int) gathered[3 * p + 2];
                            anyError |= errorLengths[p] >= 0;
                        }
                        if (anyError) {
                            agreement = new Agreement(comm, call, path, error, errorLengths);
                            stage = 2;
                        } else {
                            stage = 3;
                        }
                    }
                    case 2 -> {
                        if (!agreement.advance()) {
                            return false;
                        }
                        agreement.throwIfFailed();
                        throw new IllegalStateException(call + ": a rank reported an error that did not arrive");
                    }
                    case 3 -> {
                        stage = 5;
                        if (write) {
                            accessKey = Arrays.toString(starts) + Arrays.toString(lengths);
                            if (!accessKey.equals(checkedAccess)) {
                                agreement = new Agreement(comm, call, path, overlapError(views, starts, lengths));
                                stage = 4;
                            }
                        }
                    }
                    case 4 -> {
                        if (!agreement.advance()) {
                            return false;
                        }
                        agreement.throwIfFailed();
                        checkedAccess = accessKey;
                        stage = 5;
                    }
                    case 5 -> {
                        if (buffering == CollectiveBuffering.DISABLE
                                || buffering == CollectiveBuffering.AUTOMATIC && everyAccessIsOneRange(views, starts, lengths)) {
                            direct = CompletableFuture.supplyAsync(() -> {
                                try {
                                    transferPieces(myView, start, data, write);
                                    return null;
                                } catch (IOException e) {
                                    return CollectiveCheck.describe(e);
                                }
                            }, ioThread);
                            stage = 6;
                        } else {
                            twoPhase = new TwoPhaseIo(comm, channel, directChannel(), views, starts, lengths, aggregators,
                                    bufferBytes, ioThread);
                            if (write) {
                                twoPhase.startWrite(data);
                            } else {
                                twoPhase.startRead(data);
                            }
                            stage = 7;
                        }
                    }
                    case 6 -> {
                        if (!direct.isDone()) {
                            return false;
                        }
                        agreement = new Agreement(comm, call, path, direct.join());
                        stage = 8;
                    }
                    case 7 -> {
                        if (!twoPhase.advance()) {
                            return false;
                        }
                        IOException failure = twoPhase.failure();
                        agreement = new Agreement(comm, call, path, failure == null ? null
                                : "aggregator I/O failed on " + path + ": " + CollectiveCheck.describe(failure));
                        stage = 8;
                    }
                    case 8 -> {
                        if (!agreement.advance()) {
                            return false;
                        }
                        agreement.throwIfFailed();
                        result.complete(length);
                        return true;
                    }
                    default -> throw new IllegalStateException("stage " + stage);
                }
            }
        }
    }

    /** True if no rank's access has holes: aggregation would only add copies (ROMIO's automatic choice). */
    private static boolean everyAccessIsOneRange(FileView[] views, long[] starts, long[] lengths) {
        for (int p = 0; p < starts.length; p++) {
            if (lengths[p] > 0) {
                long[] b = views[p].bounds(starts[p], lengths[p]);
                if (b[1] - b[0] != lengths[p]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Reads or writes the pieces of this rank's access [start, start + data) of view {@code v} directly. */
    private void transferPieces(FileView v, long start, MemorySegment data, boolean write) throws IOException {
        IOException[] failure = {null};
        v.forEachPiece(start, data.byteSize(), 0, Long.MAX_VALUE, (f, len, b) -> {
            if (failure[0] == null) {
                try {
                    transfer(data.asSlice(b, len), f, write);
                } catch (IOException e) {
                    failure[0] = e;
                }
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** Why this rank's access overlaps a higher rank's in a collective write (checked before any byte is written), or null. */
    private String overlapError(FileView[] views, long[] starts, long[] lengths) {
        int me = comm.rank();
        for (int q = me + 1; q < views.length; q++) {
            if (views[me].overlaps(starts[me], lengths[me], views[q], starts[q], lengths[q])) {
                return "its view " + views[me] + " overlaps rank " + q + "'s view " + views[q]
                        + " in this write: overlapping collective writes are not allowed";
            }
        }
        return null;
    }

    private String checkData(String call, MemorySegment data, Datatype type, boolean write) {
        if (data == null || type == null) {
            return "buffer or element type is null";
        }
        if (type != view.type() && type != Datatype.BYTE) {
            return "buffer of " + type + " elements but the view's element type is " + view.type();
        }
        if (data.byteSize() % view.type().byteSize() != 0) {
            return "buffer of " + data.byteSize() + " bytes is not a whole number of " + view.type() + " elements";
        }
        if (write ? !modes.contains(OpenMode.WRITE) : !modes.contains(OpenMode.READ)) {
            return "file opened " + modes + " does not allow " + (write ? "writing" : "reading");
        }
        return null;
    }

    // ------------------------------------------------------------------------------- independent data

    public void writeAt(long offset, double[] data) { iwriteAt(offset, MemorySegment.ofArray(data), Datatype.DOUBLE).await(); }
    public void writeAt(long offset, long[] data) { iwriteAt(offset, MemorySegment.ofArray(data), Datatype.LONG).await(); }
    public void writeAt(long offset, int[] data) { iwriteAt(offset, MemorySegment.ofArray(data), Datatype.INT).await(); }
    public void writeAt(long offset, byte[] data) { iwriteAt(offset, MemorySegment.ofArray(data), Datatype.BYTE).await(); }
    public void readAt(long offset, double[] data) { ireadAt(offset, MemorySegment.ofArray(data), Datatype.DOUBLE).await(); }
    public void readAt(long offset, long[] data) { ireadAt(offset, MemorySegment.ofArray(data), Datatype.LONG).await(); }
    public void readAt(long offset, int[] data) { ireadAt(offset, MemorySegment.ofArray(data), Datatype.INT).await(); }
    public void readAt(long offset, byte[] data) { ireadAt(offset, MemorySegment.ofArray(data), Datatype.BYTE).await(); }
    public IoRequest iwriteAt(long offset, double[] data) { return iwriteAt(offset, MemorySegment.ofArray(data), Datatype.DOUBLE); }
    public IoRequest ireadAt(long offset, double[] data) { return ireadAt(offset, MemorySegment.ofArray(data), Datatype.DOUBLE); }

    /** Nonblocking independent write at {@code offset} (elements of the view), without moving the file pointer. */
    public IoRequest iwriteAt(long offset, MemorySegment data, Datatype type) {
        return independent("ParallelFile.writeAt", offset, data, type, true);
    }

    /** Nonblocking independent read at {@code offset} (elements of the view); bytes past the end read as zero. */
    public IoRequest ireadAt(long offset, MemorySegment data, Datatype type) {
        return independent("ParallelFile.readAt", offset, data, type, false);
    }

    private IoRequest independent(String call, long offset, MemorySegment data, Datatype type, boolean write) {
        checkOpen(call);
        String error = checkData(call, data, type, write);
        if (error == null && offset < 0) {
            error = "offset must be >= 0, got " + offset;
        }
        if (error != null) {
            throw new ParallelFileException(path, where(call) + "(" + path + "): " + error);
        }
        FileView v = view;
        long start = offset * v.type().byteSize();
        return new IoRequest(CompletableFuture.supplyAsync(() -> {
            try {
                transferPieces(v, start, data, write);
                return data.byteSize();
            } catch (IOException e) {
                throw new ParallelFileException(path, where(call) + "(" + path + ") at offset " + offset + ": "
                        + CollectiveCheck.describe(e), e);
            }
        }, independentThreads));
    }

    /**
     * Moves {@code target}'s bytes to or from the file at {@code position}. Native and
     * {@code byte[]} segments go straight to the channel; other arrays are staged through
     * native memory in chunks of at most 8 MiB (the JDK would copy through a temporary
     * direct buffer anyway, one of unbounded size).
     */
    private void transfer(MemorySegment target, long position, boolean write) throws IOException {
        if (!transferDirect(target, position, write)) {
            transferBuffered(target, position, write);
        }
    }

    /**
     * Moves a range of at least 1 MiB of whole pages past the page cache (through {@link
     * #directChannel}, in page-aligned 8 MiB chunks), the partial pages at its ends through
     * the page cache; false (nothing moved) where there is no direct channel or the range is
     * shorter. Bytes past the end of the file read as zeros, as on the page-cache path.
     */
    private boolean transferDirect(MemorySegment target, long position, boolean write) throws IOException {
        int page = DirectIo.PAGE;
        long start = (position + page - 1) / page * page;
        long end = (position + target.byteSize()) / page * page;
        if (end - start < DIRECT_MIN_BYTES) {
            return false;
        }
        FileChannel d = directChannel();
        if (d == null) {
            return false;
        }
        transferBuffered(target.asSlice(0, start - position), position, write);
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            long chunk = Math.min(end - start, 8L << 20);
            MemorySegment staging = arena.allocate(chunk, page);
            for (long at = start; at < end; at += chunk) {
                long n = Math.min(chunk, end - at);
                ByteBuffer bb = staging.asSlice(0, n).asByteBuffer();
                if (write) {
                    MemorySegment.copy(target, at - position, staging, 0, n);
                    while (bb.hasRemaining()) {
                        d.write(bb, at + bb.position());
                    }
                } else {
                    // a read that ends off a page boundary has met the end of the file
                    while (bb.hasRemaining() && bb.position() % page == 0) {
                        if (d.read(bb, at + bb.position()) <= 0) {
                            break;
                        }
                    }
                    staging.asSlice(bb.position(), n - bb.position()).fill((byte) 0);
                    MemorySegment.copy(staging, 0, target, at - position, n);
                }
            }
        }
        transferBuffered(target.asSlice(end - position), end, write);
        return true;
    }

    private void transferBuffered(MemorySegment target, long position, boolean write) throws IOException {
        if (target.heapBase().map(base -> base instanceof byte[]).orElse(true)) {
            move(target, position, write);
            return;
        }
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            long chunk = Math.min(target.byteSize(), 8L << 20);
            MemorySegment staging = arena.allocate(Math.max(1, chunk), 64);
            for (long at = 0; at < target.byteSize(); at += chunk) {
                long n = Math.min(chunk, target.byteSize() - at);
                MemorySegment part = staging.asSlice(0, n);
                if (write) {
                    MemorySegment.copy(target, at, part, 0, n);
                    move(part, position + at, true);
                } else {
                    move(part, position + at, false);
                    MemorySegment.copy(part, 0, target, at, n);
                }
            }
        }
    }

    private void move(MemorySegment segment, long position, boolean write) throws IOException {
        ByteBuffer bb = segment.asByteBuffer();
        while (bb.hasRemaining()) {
            int n = write ? channel.write(bb, position + bb.position()) : channel.read(bb, position + bb.position());
            if (n < 0) {
                while (bb.hasRemaining()) {
                    bb.put((byte) 0);
                }
            }
        }
    }

    // ------------------------------------------------------------------------------- file-wide

    /** Size of the file in bytes. */
    public long size() {
        try {
            return channel.size();
        } catch (IOException e) {
            throw new ParallelFileException(path, where("ParallelFile.size") + "(" + path + "): " + CollectiveCheck.describe(e), e);
        }
    }

    /** Truncates or extends the file to {@code bytes} (collective; rank 0 resizes). */
    public void setSize(long bytes) {
        String call = "ParallelFile.setSize";
        checkOpen(call);
        awaitCollective();
        String error = null;
        if (comm.rank() == 0) {
            try {
                if (channel.size() > bytes) {
                    channel.truncate(bytes);
                } else if (channel.size() < bytes) {
                    channel.write(ByteBuffer.allocate(1), bytes - 1);
                }
            } catch (IOException | RuntimeException e) {
                error = "cannot resize to " + bytes + " bytes: " + CollectiveCheck.describe(e);
            }
        }
        CollectiveCheck.agree(comm, call, path, error);
    }

    /** Flushes every rank's writes to the storage device (collective, like MPI_File_sync). */
    public void sync() {
        String call = "ParallelFile.sync";
        checkOpen(call);
        awaitCollective();
        String error = null;
        try {
            channel.force(true);
        } catch (IOException e) {
            error = CollectiveCheck.describe(e);
        }
        CollectiveCheck.agree(comm, call, path, error);
    }

    /** Closes the file on every rank (collective); deletes it if opened with DELETE_ON_CLOSE. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        String call = "ParallelFile.close";
        String error = null;
        try {
            awaitCollective();
        } catch (RuntimeException e) {
            error = "a nonblocking collective failed: " + e.getMessage();
        }
        closed = true;
        ioThread.shutdown();
        independentThreads.shutdown();
        if (progressThread != null) {
            progressThread.shutdown();
        }
        try {
            channel.close();
            synchronized (this) {
                if (directChannel != null) {
                    directChannel.close();
                }
            }
        } catch (IOException e) {
            error = CollectiveCheck.describe(e);
        }
        try {
            CollectiveCheck.agree(comm, call, path, error);
            if (modes.contains(OpenMode.DELETE_ON_CLOSE)) {
                String deleteError = null;
                if (comm.rank() == 0) {
                    try {
                        Files.deleteIfExists(path);
                    } catch (IOException e) {
                        deleteError = "cannot delete: " + CollectiveCheck.describe(e);
                    }
                }
                CollectiveCheck.agree(comm, call, path, deleteError);
            }
        } finally {
            comm.free();
        }
    }

    /** Runs every pending nonblocking collective to its end (their errors go to their own requests). */
    private void awaitCollective() {
        for (int idle = 0; !progress(); idle++) {
            dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
        }
    }

    /** Advances the pending nonblocking collectives in order, without blocking; true when none is left. */
    private synchronized boolean progress() {
        while (!pendingCollectives.isEmpty()) {
            if (!pendingCollectives.peek().advance()) {
                return false;
            }
            pendingCollectives.poll();
        }
        return true;
    }

    private void checkOpen(String call) {
        if (closed) {
            throw new ParallelFileException(path, where(call) + "(" + path + "): file is closed");
        }
    }

    private String where(String call) {
        return "rank " + comm.rank() + ": " + call;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing: the open error is the one to report
            }
        }
    }

    @Override
    public String toString() {
        return "ParallelFile[" + path + ", " + modes + ", rank " + comm.rank() + " of " + comm.size() + "]";
    }
}
