package dev.tessera.io.pfile;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Request;
import dev.tessera.io.direct.DirectIo;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Two-phase collective I/O (ROMIO's collective buffering, Thakur, Gropp and Lusk 1999):
 * the bytes that all ranks access are split into one contiguous <em>file domain</em> per
 * aggregator rank; each domain is processed in rounds of at most {@code bufferBytes}
 * (one <em>window</em> per aggregator per round). In a write round every rank sends each
 * aggregator the pieces of its data that fall in that aggregator's window, and the
 * aggregator writes the window with one large write; a read round runs the other way.
 * Small, interleaved accesses of many ranks so become a few large sequential ones.
 *
 * <p>Invariants that make it deadlock-free without any metadata messages: every rank
 * knows every rank's view and access (gathered by the caller), so sender and aggregator
 * compute the same pieces, byte counts and order independently; messages of one
 * (sender, aggregator) pair in one round are a single message, matched in order because
 * the device does not overtake. A window with holes is first read from the file and then
 * overwritten (data sieving), so bytes between the pieces are preserved; a window without
 * holes is written with gathering writes straight from the received streams (no copy to
 * assemble it). The writes of a round run on {@code ioThread} while the next round
 * exchanges into the other of two buffer sets; in reads, the next window is read (by
 * scattering reads into the per-rank streams) while the current one travels. An I/O failure on an aggregator is recorded, further I/O skipped, and
 * the message protocol completed, so no rank hangs; the caller agrees on the outcome.
 *
 * <p>Nonblocking: {@link #startWrite}/{@link #startRead} set an operation up and
 * {@link #advance} moves it on without blocking (posting a round's transfers once the
 * buffers it reuses are free, finishing it once they completed), so a nonblocking
 * {@code iwriteAll} progresses whenever its request is tested; {@link #write}/{@link #read}
 * drive it to the end.
 */
final class TwoPhaseIo {

    static final int TAG = 7;
    private static final long ALIGN = 4096;
    private static final int PAGE = DirectIo.PAGE;

    private final Comm comm;
    private final FileChannel channel;
    private final FileChannel direct; // the same file with O_DIRECT, or null: page cache only
    private final FileView[] views;
    private final long[] starts;
    private final long[] lengths;
    private final int[] aggregators;
    private final long bufferBytes;
    private final ExecutorService ioThread;
    private final int me;
    private final int myAggregator;
    private long[] bounds;
    private long rounds;
    private volatile IOException failure;
    private Staging sendStaging;
    private Staging recvStaging;
    private final Staging[] recvStagings = new Staging[2];

    /**
     * Packing space for the pieces of one round, reused round after round: one native
     * segment handed out in consecutive slices, reset when the round's messages are done
     * (a fresh array per message cost more than the copies, in allocation and zeroing).
     */
    private static final class Staging {
        private final Arena arena;
        private MemorySegment space = MemorySegment.NULL;
        private long used;

        Staging(Arena arena) {
            this.arena = arena;
        }

        void reset() {
            used = 0;
        }

        MemorySegment take(long bytes) {
            if (used + bytes > space.byteSize()) {
                // Earlier slices of this round stay valid: the old segment lives until the arena closes.
                space = arena.allocate(Math.max(bytes, 2 * space.byteSize()), 64);
                used = 0;
            }
            MemorySegment slice = space.asSlice(used, bytes);
            used += bytes;
            return slice;
        }
    }

    /**
     * @param starts  view byte position where each rank's access begins
     * @param lengths bytes each rank accesses
     */
    TwoPhaseIo(Comm comm, FileChannel channel, FileChannel direct, FileView[] views, long[] starts, long[] lengths, int[] aggregators,
               long bufferBytes, ExecutorService ioThread) {
        this.comm = comm;
        this.channel = channel;
        this.direct = direct;
        this.views = views;
        this.starts = starts;
        this.lengths = lengths;
        this.aggregators = aggregators;
        this.bufferBytes = bufferBytes;
        this.ioThread = ioThread;
        this.me = comm.rank();
        int a = -1;
        for (int i = 0; i < aggregators.length; i++) {
            if (aggregators[i] == me) {
                a = i;
            }
        }
        this.myAggregator = a;
        planDomains();
    }

    /** The first I/O failure of this rank as an aggregator, or null. */
    IOException failure() {
        return failure;
    }

    private void planDomains() {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int p = 0; p < views.length; p++) {
            if (lengths[p] > 0) {
                long[] b = views[p].bounds(starts[p], lengths[p]);
                lo = Math.min(lo, b[0]);
                hi = Math.max(hi, b[1]);
            }
        }
        int n = aggregators.length;
        bounds = new long[n + 1];
        if (lo >= hi) {
            rounds = 0;
            return;
        }
        long share = (hi - lo + n - 1) / n;
        for (int a = 0; a <= n; a++) {
            long b = a == 0 ? lo : a == n ? hi : (lo + a * share) / ALIGN * ALIGN;
            bounds[a] = Math.min(hi, Math.max(lo, b));
        }
        long longest = 0;
        for (int a = 0; a < n; a++) {
            longest = Math.max(longest, bounds[a + 1] - bounds[a]);
        }
        rounds = (longest + bufferBytes - 1) / bufferBytes;
    }

    private long windowStart(int a, long r) {
        return Math.min(bounds[a + 1], bounds[a] + r * bufferBytes);
    }

    private long windowEnd(int a, long r) {
        return Math.min(bounds[a + 1], bounds[a] + (r + 1) * bufferBytes);
    }

    /**
     * The file offset of a window buffer's first byte in round {@code r}: its window start
     * rounded down to a page, so that buffer and file agree modulo the page (the buffer is
     * page aligned) and whole pages can move with O_DIRECT.
     */
    private long windowOrigin(long r) {
        return windowStart(myAggregator, r) / PAGE * PAGE;
    }

    /** Pieces of rank p's access in a window, as (file offset, length, buffer offset) triples. */
    private List<long[]> pieces(int p, long w0, long w1) {
        List<long[]> out = new ArrayList<>();
        views[p].forEachPiece(starts[p], lengths[p], w0, w1, (f, len, b) -> out.add(new long[] {f, len, b}));
        return out;
    }

    private static long total(List<long[]> pieces) {
        long t = 0;
        for (long[] pc : pieces) {
            t += pc[1];
        }
        return t;
    }

    // ------------------------------------------------------------------------------- write

    // State of the operation in progress (one per instance).
    private Arena arena;
    private boolean writing;
    private MemorySegment local;
    private long round;
    private MemorySegment[] windows;
    private CompletableFuture<Void>[] pending;
    private List<Request> inFlight;
    private Runnable roundDone;
    private boolean sendsPosted;
    private ReadPlan current;
    private ReadPlan next;
    private Staging[] sendStagings;
    private boolean finished;

    /** Collective write of {@code local} (this rank's {@code lengths[me]} bytes), to the end. */
    void write(MemorySegment local) {
        startWrite(local);
        drive();
    }

    /** Collective read into {@code local} (this rank's {@code lengths[me]} bytes), to the end. */
    void read(MemorySegment local) {
        startRead(local);
        drive();
    }

    private void drive() {
        for (int idle = 0; !advance(); idle++) {
            dev.tessera.device.BackoffIdleStrategy.POLLING.idle(idle);
        }
    }

    /** Sets up a collective write of {@code local}; {@link #advance} runs it. */
    @SuppressWarnings("unchecked")
    void startWrite(MemorySegment local) {
        this.writing = true;
        this.local = local;
        this.arena = Arena.ofShared();
        sendStaging = new Staging(arena);
        recvStagings[0] = new Staging(arena);
        recvStagings[1] = new Staging(arena);
        windows = new MemorySegment[2];
        pending = new CompletableFuture[2];
        allocateWindows();
    }

    /** Sets up a collective read into {@code local}; {@link #advance} runs it. */
    void startRead(MemorySegment local) {
        this.writing = false;
        this.local = local;
        this.arena = Arena.ofShared();
        recvStaging = new Staging(arena);
        sendStagings = new Staging[] {new Staging(arena), new Staging(arena)};
        windows = new MemorySegment[2];
        allocateWindows();
        next = rounds > 0 ? planRead(0, sendStagings[0], windows[0]) : null;
    }

    private void allocateWindows() {
        if (myAggregator >= 0 && rounds > 0) {
            for (int i = 0; i < 2; i++) {
                // from the page holding the window's start to the page past its end
                windows[i] = arena.allocate(Math.min(bufferBytes, bounds[myAggregator + 1] - bounds[myAggregator]) + 2L * PAGE,
                        PAGE);
            }
        }
    }

    /**
     * Moves the operation on as far as it goes without blocking; true once it has ended
     * (its transfers done, its file I/O finished, its native buffers freed). A failed
     * transfer throws, after the file I/O already started has finished.
     */
    boolean advance() {
        if (finished) {
            return true;
        }
        try {
            return writing ? advanceWrite() : advanceRead();
        } catch (RuntimeException | Error e) {
            end();
            throw e;
        }
    }

    private boolean advanceWrite() {
        while (true) {
            if (inFlight == null) {
                if (round >= rounds) {
                    for (CompletableFuture<Void> f : pending) {
                        if (f != null && !f.isDone()) {
                            return false;
                        }
                    }
                    end();
                    return true;
                }
                int slot = (int) (round & 1);
                if (pending[slot] != null && !pending[slot].isDone()) {
                    return false; // the window of two rounds ago is still being written
                }
                postWriteRound(round, local, windows[slot], slot);
            }
            if (!testAll(inFlight)) {
                return false;
            }
            inFlight = null;
            roundDone.run();
            round++;
        }
    }

    private boolean advanceRead() {
        while (true) {
            if (inFlight == null) {
                if (round >= rounds) {
                    end();
                    return true;
                }
                current = next;
                int slot = (int) ((round + 1) & 1);
                // Prefetch: the next window is read while this round's data travels.
                next = round + 1 < rounds ? planRead(round + 1, sendStagings[slot], windows[slot]) : null;
                postReadReceives(round);
                sendsPosted = false;
            }
            if (!sendsPosted) {
                if (myAggregator >= 0 && !current.loaded.isDone()) {
                    return false; // this round's window is still being read
                }
                postReadSends(current);
                sendsPosted = true;
            }
            if (!testAll(inFlight)) {
                return false;
            }
            inFlight = null;
            roundDone.run();
            round++;
        }
    }

    /** Tests the requests, dropping those that completed; true when none is left. */
    private static boolean testAll(List<Request> requests) {
        requests.removeIf(Request::test);
        return requests.isEmpty();
    }

    /** Waits for file I/O still running on the I/O thread, then frees the native buffers. */
    private void end() {
        if (finished) {
            return;
        }
        finished = true;
        try {
            if (pending != null) {
                for (CompletableFuture<Void> f : pending) {
                    if (f != null) {
                        f.join();
                    }
                }
            }
            for (ReadPlan p : new ReadPlan[] {current, next}) {
                if (p != null) {
                    p.loaded.join();
                }
            }
        } finally {
            arena.close();
        }
    }

    /** Posts a write round's transfers; {@link #roundDone} unpacks what arrived and starts the window's write. */
    private void postWriteRound(long r, MemorySegment local, MemorySegment window, int slot) {
        sendStaging.reset();
        Staging recvStaging = recvStagings[slot];
        recvStaging.reset();
        List<Request> requests = new ArrayList<>();
        List<Runnable> afterReceive = new ArrayList<>();
        // Without holes the window is written with one gathering write straight from the
        // received streams (writev), saving the copy that assembles it in file order.
        List<Slice> gather = null;
        long extentLo = Long.MAX_VALUE;
        long extentHi = Long.MIN_VALUE;
        long w0 = 0;
        long origin = 0;
        if (myAggregator >= 0) {
            w0 = windowStart(myAggregator, r);
            origin = windowOrigin(r);
            long w1 = windowEnd(myAggregator, r);
            List<List<long[]>> byRank = new ArrayList<>();
            long covered = 0;
            for (int p = 0; p < views.length; p++) {
                List<long[]> pcs = pieces(p, w0, w1);
                byRank.add(pcs);
                if (!pcs.isEmpty()) {
                    extentLo = Math.min(extentLo, pcs.getFirst()[0]);
                    extentHi = Math.max(extentHi, pcs.getLast()[0] + pcs.getLast()[1]);
                    covered += total(pcs);
                }
            }
            if (extentLo < extentHi && covered < extentHi - extentLo) {
                sieveRead(window, origin, extentLo, extentHi);
            } else if (direct == null) {
                gather = new ArrayList<>();
            } // with O_DIRECT the window is assembled in its page-aligned buffer and its whole pages written direct
            for (int p = 0; p < views.length; p++) {
                List<long[]> pcs = byRank.get(p);
                if (pcs.isEmpty() || p == me) {
                    continue;
                }
                if (pcs.size() == 1) {
                    long[] pc = pcs.getFirst();
                    MemorySegment into = window.asSlice(pc[0] - origin, pc[1]);
                    requests.add(comm.irecv(bytes(into), p, TAG));
                    if (gather != null) {
                        gather.add(new Slice(pc[0], into));
                    }
                } else {
                    MemorySegment staging = recvStaging.take(total(pcs));
                    requests.add(comm.irecv(bytes(staging), p, TAG));
                    long base = origin;
                    if (gather != null) {
                        long at = 0;
                        for (long[] pc : pcs) {
                            gather.add(new Slice(pc[0], staging.asSlice(at, pc[1])));
                            at += pc[1];
                        }
                        continue;
                    }
                    afterReceive.add(() -> {
                        long at = 0;
                        for (long[] pc : pcs) {
                            MemorySegment.copy(staging, at, window, pc[0] - base, pc[1]);
                            at += pc[1];
                        }
                    });
                }
            }
        }
        for (int a = 0; a < aggregators.length; a++) {
            List<long[]> pcs = pieces(me, windowStart(a, r), windowEnd(a, r));
            if (pcs.isEmpty()) {
                continue;
            }
            if (aggregators[a] == me) {
                for (long[] pc : pcs) {
                    MemorySegment.copy(local, pc[2], window, pc[0] - origin, pc[1]);
                    if (gather != null) {
                        gather.add(new Slice(pc[0], window.asSlice(pc[0] - origin, pc[1])));
                    }
                }
            } else if (pcs.size() == 1) {
                long[] pc = pcs.getFirst();
                requests.add(comm.isend(bytes(local.asSlice(pc[2], pc[1])), aggregators[a], TAG));
            } else {
                MemorySegment staging = sendStaging.take(total(pcs));
                long at = 0;
                for (long[] pc : pcs) {
                    MemorySegment.copy(local, pc[2], staging, at, pc[1]);
                    at += pc[1];
                }
                requests.add(comm.isend(bytes(staging), aggregators[a], TAG));
            }
        }
        inFlight = requests;
        long lo = extentLo;
        long hi = extentHi;
        long base = origin;
        List<Slice> slices = gather;
        roundDone = () -> {
            afterReceive.forEach(Runnable::run);
            if (myAggregator >= 0 && lo < hi && failure == null) {
                if (slices != null) {
                    pending[slot] = CompletableFuture.runAsync(() -> writeGathered(slices, lo), ioThread);
                } else {
                    pending[slot] = CompletableFuture.runAsync(() -> writeWindow(window, base, lo, hi), ioThread);
                }
            }
        };
    }

    /** A received piece: where it goes in the file and where it lies in memory. */
    private record Slice(long fileOffset, MemorySegment data) {
    }

    /** Writes slices that tile [position, ...) without holes, in file order, with gathering writes. */
    private void writeGathered(List<Slice> slices, long position) {
        slices.sort(java.util.Comparator.comparingLong(Slice::fileOffset));
        ByteBuffer[] buffers = new ByteBuffer[slices.size()];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = slices.get(i).data().asByteBuffer();
        }
        try {
            // Only this thread moves the channel's position (every other access is positional).
            channel.position(position);
            int first = 0;
            while (first < buffers.length) {
                int end = Math.min(buffers.length, first + 1024);
                channel.write(buffers, first, end - first);
                while (first < end && !buffers[first].hasRemaining()) {
                    first++;
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    /** Reads [lo, hi) into {@code window} (whose first byte is file offset {@code origin}) through the page cache; zeros past the end. */
    private void sieveRead(MemorySegment window, long origin, long lo, long hi) {
        if (failure != null) {
            return;
        }
        MemorySegment part = window.asSlice(lo - origin, hi - lo);
        part.fill((byte) 0);
        try {
            ByteBuffer bb = part.asByteBuffer();
            while (bb.hasRemaining()) {
                int n = channel.read(bb, lo + bb.position());
                if (n < 0) {
                    break;
                }
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    /**
     * Writes [lo, hi) of {@code window} (whose first byte is file offset {@code origin}, a
     * page boundary): its whole pages through {@link #direct} where there is one, the partial
     * pages at either end (shared with a neighbouring window or the data outside the
     * collective's range) through the page cache.
     */
    private void writeWindow(MemorySegment window, long origin, long lo, long hi) {
        long start = (lo + PAGE - 1) / PAGE * PAGE;
        long end = hi / PAGE * PAGE;
        if (direct != null && end > start) {
            writeFully(channel, window.asSlice(lo - origin, start - lo), lo);
            writeFully(direct, window.asSlice(start - origin, end - start), start);
            writeFully(channel, window.asSlice(end - origin, hi - end), end);
        } else {
            writeFully(channel, window.asSlice(lo - origin, hi - lo), lo);
        }
    }

    private void writeFully(FileChannel ch, MemorySegment data, long position) {
        if (failure != null) {
            return;
        }
        try {
            ByteBuffer bb = data.asByteBuffer();
            while (bb.hasRemaining()) {
                ch.write(bb, position + bb.position());
            }
        } catch (IOException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    // ------------------------------------------------------------------------------- read

    /**
     * What an aggregator sends in one read round: per rank, the segment its stream is read
     * into. Without holes the streams are filled straight from the file by one scattering
     * read (readv) in file order; with holes the covering range is read into the window and
     * the streams packed from it.
     */
    private final class ReadPlan {
        final List<List<long[]>> byRank = new ArrayList<>();
        final MemorySegment[] streams = new MemorySegment[views.length];
        CompletableFuture<Void> loaded = CompletableFuture.completedFuture(null);

        ReadPlan(long r, Staging staging, MemorySegment window) {
            if (myAggregator < 0) {
                return;
            }
            staging.reset();
            long w0 = windowStart(myAggregator, r);
            long origin = windowOrigin(r);
            long w1 = windowEnd(myAggregator, r);
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            long covered = 0;
            for (int p = 0; p < views.length; p++) {
                List<long[]> pcs = pieces(p, w0, w1);
                byRank.add(pcs);
                if (!pcs.isEmpty()) {
                    lo = Math.min(lo, pcs.getFirst()[0]);
                    hi = Math.max(hi, pcs.getLast()[0] + pcs.getLast()[1]);
                    covered += total(pcs);
                    streams[p] = staging.take(total(pcs));
                }
            }
            if (lo >= hi) {
                return;
            }
            long from = lo;
            long to = hi;
            if (covered == hi - lo && direct == null) {
                List<Slice> slices = new ArrayList<>();
                for (int p = 0; p < views.length; p++) {
                    long at = 0;
                    for (long[] pc : byRank.get(p)) {
                        slices.add(new Slice(pc[0], streams[p].asSlice(at, pc[1])));
                        at += pc[1];
                    }
                }
                loaded = CompletableFuture.runAsync(() -> readScattered(slices, from), ioThread);
            } else {
                loaded = CompletableFuture.runAsync(() -> {
                    if (direct != null) {
                        directRead(window, origin, from, to);
                    } else {
                        sieveRead(window, origin, from, to);
                    }
                    for (int p = 0; p < views.length; p++) {
                        long at = 0;
                        for (long[] pc : byRank.get(p)) {
                            MemorySegment.copy(window, pc[0] - origin, streams[p], at, pc[1]);
                            at += pc[1];
                        }
                    }
                }, ioThread);
            }
        }
    }

    /**
     * Reads the whole pages covering [lo, hi) into {@code window} (whose first byte is file
     * offset {@code origin}, a page boundary) through {@link #direct}; the bytes of [lo, hi)
     * past the end of the file read as zeros, as on the page-cache path.
     */
    private void directRead(MemorySegment window, long origin, long lo, long hi) {
        if (failure != null) {
            return;
        }
        long start = lo / PAGE * PAGE;
        long end = (hi + PAGE - 1) / PAGE * PAGE;
        ByteBuffer bb = window.asSlice(start - origin, end - start).asByteBuffer();
        long at = start;
        try {
            // a read that ends off a page boundary has met the end of the file
            while (at < hi && at % PAGE == 0) {
                int n = direct.read(bb, at);
                if (n <= 0) {
                    break;
                }
                at += n;
            }
        } catch (IOException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
            return;
        }
        if (at < hi) {
            window.asSlice(Math.max(at, lo) - origin, hi - Math.max(at, lo)).fill((byte) 0);
        }
    }

    private ReadPlan planRead(long r, Staging staging, MemorySegment window) {
        return new ReadPlan(r, staging, window);
    }

    /** Fills slices that tile [position, ...) without holes, in file order, with scattering reads; zeros past the end. */
    private void readScattered(List<Slice> slices, long position) {
        slices.sort(java.util.Comparator.comparingLong(Slice::fileOffset));
        ByteBuffer[] buffers = new ByteBuffer[slices.size()];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = slices.get(i).data().asByteBuffer();
        }
        try {
            long at = position;
            int first = 0;
            while (first < buffers.length) {
                int end = Math.min(buffers.length, first + 1024);
                channel.position(at);
                long n = channel.read(buffers, first, end - first);
                if (n < 0) {
                    for (int i = first; i < buffers.length; i++) {
                        while (buffers[i].hasRemaining()) {
                            buffers[i].put((byte) 0);
                        }
                    }
                    return;
                }
                at += n;
                while (first < end && !buffers[first].hasRemaining()) {
                    first++;
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    /** Posts this rank's receives of read round {@code r}; {@link #roundDone} unpacks them. */
    private void postReadReceives(long r) {
        recvStaging.reset();
        List<Request> requests = new ArrayList<>();
        List<Runnable> afterReceive = new ArrayList<>();
        for (int a = 0; a < aggregators.length; a++) {
            if (aggregators[a] == me) {
                continue;
            }
            List<long[]> pcs = pieces(me, windowStart(a, r), windowEnd(a, r));
            if (pcs.isEmpty()) {
                continue;
            }
            if (pcs.size() == 1) {
                long[] pc = pcs.getFirst();
                requests.add(comm.irecv(bytes(local.asSlice(pc[2], pc[1])), aggregators[a], TAG));
            } else {
                MemorySegment staging = recvStaging.take(total(pcs));
                requests.add(comm.irecv(bytes(staging), aggregators[a], TAG));
                afterReceive.add(() -> {
                    long at = 0;
                    for (long[] pc : pcs) {
                        MemorySegment.copy(staging, at, local, pc[2], pc[1]);
                        at += pc[1];
                    }
                });
            }
        }
        inFlight = requests;
        roundDone = () -> afterReceive.forEach(Runnable::run);
    }

    /** On an aggregator whose window has been read: sends every rank its stream (its own is copied). */
    private void postReadSends(ReadPlan plan) {
        if (myAggregator < 0) {
            return;
        }
        plan.loaded.join();
        for (int p = 0; p < views.length; p++) {
            List<long[]> pcs = plan.byRank.get(p);
            if (pcs.isEmpty()) {
                continue;
            }
            if (p == me) {
                long at = 0;
                for (long[] pc : pcs) {
                    MemorySegment.copy(plan.streams[p], at, local, pc[2], pc[1]);
                    at += pc[1];
                }
            } else {
                inFlight.add(comm.isend(bytes(plan.streams[p]), p, TAG));
            }
        }
    }

    private static Buffer bytes(MemorySegment segment) {
        return Buffer.of(segment, Datatype.BYTE);
    }
}
