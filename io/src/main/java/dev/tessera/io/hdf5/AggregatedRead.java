package dev.tessera.io.hdf5;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Two-phase collective read of a contiguous dataset, the reverse of {@link AggregatedWrite}
 * (MPI-IO's collective buffering for reads). The span of elements the ranks ask for (first
 * to last element of all boxes) is cut into A equal contiguous domains, one per aggregator
 * (the lowest rank of every node); each domain is read in rounds of one window. In a round
 * every aggregator has its window read from the file (whole pages with O_DIRECT where the
 * file system takes it, see {@link Hdf5Reader#readWhole}), copies its own pieces straight
 * into its result, and packs, per rank, the pieces of that rank's box that lie in the
 * window (file byte order, in file order); one all-to-all moves them, and every rank
 * places what each aggregator sent (it walks its own box's runs in that window, so only
 * data travels). The next window is read on an I/O thread while the current one is packed
 * and exchanged (two window buffers, alternating).
 *
 * <p>Invariants: every rank knows every box (exchanged before), so an aggregator's packing
 * and a receiver's unpacking walk the same pieces in the same order and the byte counts
 * agree without any extra message. A read failure on an aggregator is remembered, later
 * reads are skipped and the exchange rounds still run to the end (the counts do not depend
 * on the data), so no rank hangs; the caller then makes every rank throw it. Memory per
 * rank: a receive buffer (at most one window per aggregator of this rank's bytes) and, on
 * aggregators, two windows and a send buffer.
 */
final class AggregatedRead {

    /** Window per aggregator and round (the same as the aggregated write's default). */
    static final int WINDOW_BYTES = 16 << 20;

    private AggregatedRead() {
    }

    /** Aggregators: the lowest {@code perNode} ranks of every node of {@code nodeOf} (one entry per rank). */
    static int[] aggregators(int[] nodeOf, int perNode) {
        java.util.Map<Integer, Integer> taken = new java.util.HashMap<>();
        return java.util.stream.IntStream.range(0, nodeOf.length)
                .filter(r -> taken.merge(nodeOf[r], 1, Integer::sum) <= perNode).toArray();
    }

    /**
     * Reads {@code myBox} of {@code info} into {@code dst} (host layout, row-major), with the
     * other ranks' boxes in {@code claims} (collective; boxes valid). Returns null, or the
     * message of this rank's read failure.
     */
    static String read(Comm comm, Hdf5Reader reader, DatasetInfo info, List<BlockClaim> claims, Hyperslab myBox,
            MemorySegment dst, int[] aggregators, int windowBytes) {
        int p = comm.size();
        int me = comm.rank();
        int a = aggregators.length;
        Hdf5Type type = info.type();
        int size = type.size();
        long[] shape = info.shape();
        long[] span = span(claims, shape);
        long window = Math.max(1, windowBytes / size);
        long domain = (span[1] - span[0] + a - 1) / a;
        long rounds = domain == 0 ? 0 : (domain + window - 1) / window;
        int myAggregator = -1;
        for (int i = 0; i < a; i++) {
            if (aggregators[i] == me) {
                myAggregator = i;
            }
        }
        boolean aggregator = myAggregator >= 0;
        // my box's runs in every aggregator's domain: one cursor to count a round's bytes, one to place them
        RunCursor[] counting = new RunCursor[a];
        RunCursor[] placing = new RunCursor[a];
        for (int i = 0; i < a; i++) {
            counting[i] = new RunCursor(myBox, shape);
            placing[i] = new RunCursor(myBox, shape);
        }
        // on aggregators: every other rank's runs in my domain, to count and to pack
        RunCursor[] sizing = new RunCursor[aggregator ? p : 0];
        RunCursor[] packing = new RunCursor[sizing.length];
        for (int s = 0; s < sizing.length; s++) {
            sizing[s] = new RunCursor(claims.get(s).box(), shape);
            packing[s] = new RunCursor(claims.get(s).box(), shape);
        }
        long myBytes = myBox.volume() * size;
        byte[] recv = new byte[(int) Math.min(myBytes, Math.min((long) a * window * size, Integer.MAX_VALUE - 64))];
        MemorySegment recvSegment = MemorySegment.ofArray(recv);
        byte[][] send = {new byte[0]};
        int[] sendCounts = new int[p];
        int[] sendDispls = new int[p];
        int[] recvCounts = new int[p];
        int[] recvDispls = new int[p];
        int windowBuffer = (int) (window * size) + 2 * Hdf5Writer.PAGE; // a direct read covers whole pages around it
        ByteBuffer[] windows = aggregator
                ? new ByteBuffer[] {Hdf5Writer.pageAlignedBuffer(windowBuffer), Hdf5Writer.pageAlignedBuffer(windowBuffer)}
                : null;
        MemorySegment[] windowSegments = aggregator
                ? new MemorySegment[] {MemorySegment.ofBuffer(windows[0]), MemorySegment.ofBuffer(windows[1])}
                : null;
        ExecutorService io = aggregator ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "hdf5-read-aggregator-" + me);
            t.setDaemon(true);
            return t;
        }) : null;
        String failure = null;
        try {
            Future<Long> next = aggregator && rounds > 0
                    ? readWindow(io, reader, info, windows[0], window(span, domain, window, myAggregator, 0)) : null;
            long[] lo = new long[a];
            long[] hi = new long[a];
            for (long r = 0; r < rounds; r++) {
                for (int i = 0; i < a; i++) {
                    long[] w = window(span, domain, window, i, r);
                    lo[i] = w[0];
                    hi[i] = w[1];
                }
                java.util.Arrays.fill(sendCounts, 0);
                java.util.Arrays.fill(sendDispls, 0);
                if (aggregator) {
                    long base = 0;
                    try {
                        base = next == null ? 0 : next.get();
                    } catch (java.util.concurrent.ExecutionException e) {
                        failure = failure != null ? failure : String.valueOf(e.getCause().getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        failure = failure != null ? failure : "interrupted while reading";
                    }
                    next = failure == null && r + 1 < rounds
                            ? readWindow(io, reader, info, windows[(int) ((r + 1) & 1)],
                                    window(span, domain, window, myAggregator, r + 1))
                            : null;
                    MemorySegment win = windowSegments[(int) (r & 1)];
                    long wlo = lo[myAggregator];
                    long whi = hi[myAggregator];
                    long fileOrigin = info.address() - base; // window byte of element 0: fileOrigin + element * size
                    // my own pieces: straight from the window
                    placing[myAggregator].forEachIn(wlo, whi, (ai, bi, length) -> MemorySegment.copy(win,
                            type.fileLayout(), fileOrigin + ai * size, dst, type.hostLayout(), bi * size, length));
                    long total = 0;
                    for (int s = 0; s < p; s++) {
                        long[] n = {0};
                        if (s != me) {
                            sizing[s].forEachIn(wlo, whi, (ai, bi, length) -> n[0] += length * size);
                        }
                        sendDispls[s] = (int) total;
                        sendCounts[s] = (int) n[0];
                        total += n[0];
                    }
                    if (total > send[0].length) {
                        send[0] = new byte[(int) total];
                    }
                    MemorySegment sendSegment = MemorySegment.ofArray(send[0]);
                    for (int s = 0; s < p; s++) {
                        if (s == me) {
                            continue;
                        }
                        long[] at = {sendDispls[s]};
                        packing[s].forEachIn(wlo, whi, (ai, bi, length) -> {
                            MemorySegment.copy(win, ValueLayout.JAVA_BYTE, fileOrigin + ai * size, sendSegment,
                                    ValueLayout.JAVA_BYTE, at[0], length * size);
                            at[0] += length * size;
                        });
                    }
                }
                int received = 0;
                for (int s = 0; s < p; s++) {
                    recvDispls[s] = received;
                    recvCounts[s] = 0;
                }
                for (int i = 0; i < a; i++) {
                    int from = aggregators[i];
                    long[] n = {0};
                    if (from != me) {
                        counting[i].forEachIn(lo[i], hi[i], (ai, bi, length) -> n[0] += length * size);
                    }
                    recvCounts[from] = (int) n[0];
                }
                for (int s = 0; s < p; s++) {
                    recvDispls[s] = received;
                    received += recvCounts[s];
                }
                comm.alltoallv(Buffer.of(send[0]), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
                for (int i = 0; i < a; i++) {
                    int from = aggregators[i];
                    if (from == me) {
                        continue;
                    }
                    long[] at = {recvDispls[from]};
                    placing[i].forEachIn(lo[i], hi[i], (ai, bi, length) -> {
                        MemorySegment.copy(recvSegment, type.fileLayout(), at[0], dst, type.hostLayout(), bi * size, length);
                        at[0] += length * size;
                    });
                }
            }
            if (next != null) {
                next.cancel(false);
            }
        } finally {
            if (io != null) {
                io.shutdownNow();
            }
        }
        return failure;
    }

    /** {first, last + 1} element of all boxes together (both 0 when all are empty). */
    static long[] span(List<BlockClaim> claims, long[] shape) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (BlockClaim c : claims) {
            Hyperslab box = c.box();
            if (box.volume() == 0) {
                continue;
            }
            long[] last = new long[shape.length];
            for (int d = 0; d < shape.length; d++) {
                last[d] = box.offset()[d] + box.count()[d] - 1;
            }
            lo = Math.min(lo, Hyperslab.linearIndex(shape, box.offset()));
            hi = Math.max(hi, Hyperslab.linearIndex(shape, last) + 1);
        }
        return lo > hi ? new long[] {0, 0} : new long[] {lo, hi};
    }

    /** Elements [lo, hi) of aggregator {@code i}'s window in round {@code r}. */
    private static long[] window(long[] span, long domain, long window, int i, long r) {
        long end = Math.min(span[1], span[0] + (i + 1) * domain);
        long lo = Math.min(end, span[0] + i * domain + r * window);
        return new long[] {lo, Math.min(end, lo + window)};
    }

    /** Reads elements [w[0], w[1]) on the I/O thread; the future gives the file address of the buffer's first byte. */
    private static Future<Long> readWindow(ExecutorService io, Hdf5Reader reader, DatasetInfo info, ByteBuffer buffer,
            long[] w) {
        int size = info.type().size();
        if (w[1] <= w[0]) {
            return java.util.concurrent.CompletableFuture.completedFuture(0L);
        }
        long address = info.address() + w[0] * size;
        int length = (int) ((w[1] - w[0]) * size);
        return io.submit(() -> reader.readWhole(buffer, address, length, info.path()));
    }
}
