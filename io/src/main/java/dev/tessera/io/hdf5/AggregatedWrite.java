package dev.tessera.io.hdf5;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Two-phase collective write of a contiguous dataset (MPI-IO "collective buffering"). The
 * dataset's elements are cut into A equal contiguous domains, one per aggregator rank;
 * each domain is written in rounds of one window (the options' buffer size). In a round,
 * every rank packs, per aggregator, the parts of its runs that fall in that aggregator's
 * window (converted to little endian, in file order); one all-to-all moves them; each
 * aggregator places what it received (it recomputes every sender's runs from the exchanged
 * blocks, so only data travels) and writes its window with a single sequential write, on an
 * I/O thread while the next round's exchange goes on (two window buffers, alternating).
 * Runs are walked with {@link RunCursor}s that resume where the last window ended, so the
 * cost of finding a round's pieces is proportional to the pieces, not to all runs.
 *
 * <p>Invariant: the blocks tile the dataset (checked before), so every window is covered
 * exactly once and each aggregator writes each window whole. Memory per rank: one send
 * buffer (at most one window per aggregator) and, on aggregators, a receive buffer and two
 * windows.
 */
final class AggregatedWrite {

    private AggregatedWrite() {
    }

    static void write(ParallelHdf5File file, Hdf5Dataset dataset, List<BlockClaim> claims, Hyperslab myBox,
            MemorySegment data) {
        Comm comm = file.comm();
        int p = comm.size();
        int me = comm.rank();
        int[] aggregators = file.aggregators();
        int a = aggregators.length;
        Hdf5Type type = dataset.type();
        int size = type.size();
        long[] shape = dataset.shape();
        long elements = 1;
        for (long s : shape) {
            elements *= s;
        }
        long window = Math.max(1, file.options().bufferBytes() / size);
        long domain = (elements + a - 1) / a;
        long rounds = (domain + window - 1) / window;
        int myAggregator = -1;
        for (int i = 0; i < a; i++) {
            if (aggregators[i] == me) {
                myAggregator = i;
            }
        }
        long myBytes = myBox.volume() * size;
        byte[] send = new byte[(int) Math.min(myBytes, Math.min((long) a * window * size, Integer.MAX_VALUE - 64))];
        MemorySegment sendSegment = MemorySegment.ofArray(send);
        byte[] recv = myAggregator >= 0 ? new byte[(int) (window * size)] : new byte[0];
        MemorySegment recvSegment = MemorySegment.ofArray(recv);
        long[] lo = new long[a];
        long[] hi = new long[a];
        int[] sendCounts = new int[p];
        int[] sendDispls = new int[p];
        int[] recvCounts = new int[p];
        int[] recvDispls = new int[p];
        RunCursor[] mine = new RunCursor[a]; // my runs, one cursor per aggregator's domain
        for (int i = 0; i < a; i++) {
            mine[i] = new RunCursor(myBox, shape);
        }
        // every sender's runs in my domain: one cursor to count a round's bytes, one to place them
        RunCursor[] counting = new RunCursor[myAggregator >= 0 ? p : 0];
        RunCursor[] placing = new RunCursor[counting.length];
        for (int s = 0; s < counting.length; s++) {
            counting[s] = new RunCursor(claims.get(s).box(), shape);
            placing[s] = new RunCursor(claims.get(s).box(), shape);
        }
        ByteBuffer[] windows = myAggregator >= 0
                ? new ByteBuffer[] {Hdf5Writer.pageAlignedBuffer((int) (window * size)),
                        Hdf5Writer.pageAlignedBuffer((int) (window * size))} // page aligned: whole windows can go direct
                : null;
        // views of the whole buffers, made while position and limit span them (a write consumes them)
        MemorySegment[] windowSegments = windows == null ? null
                : new MemorySegment[] {MemorySegment.ofBuffer(windows[0]), MemorySegment.ofBuffer(windows[1])};
        java.util.concurrent.ExecutorService io = myAggregator >= 0
                ? java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "hdf5-aggregator-" + me);
                    t.setDaemon(true);
                    return t;
                })
                : null;
        java.util.concurrent.Future<?> pending = null;
        try {
            for (long r = 0; r < rounds; r++) {
                for (int i = 0; i < a; i++) {
                    long start = Math.min(elements, i * domain);
                    long end = Math.min(elements, (i + 1) * domain);
                    lo[i] = Math.min(end, start + r * window);
                    hi[i] = Math.min(end, lo[i] + window);
                }
                int[] pos = {0};
                for (int i = 0; i < a; i++) {
                    int dest = aggregators[i];
                    sendDispls[dest] = pos[0];
                    mine[i].forEachIn(lo[i], hi[i], (arrayIndex, boxIndex, length) -> {
                        MemorySegment.copy(data, type.hostLayout(), boxIndex * size, sendSegment, type.fileLayout(),
                                pos[0], length);
                        pos[0] += (int) (length * size);
                    });
                    sendCounts[dest] = pos[0] - sendDispls[dest];
                }
                int received = 0;
                for (int s = 0; s < p; s++) {
                    recvDispls[s] = received;
                    long[] n = {0};
                    if (myAggregator >= 0) {
                        counting[s].forEachIn(lo[myAggregator], hi[myAggregator], (ai, bi, length) -> n[0] += length);
                    }
                    recvCounts[s] = (int) (n[0] * size);
                    received += recvCounts[s];
                }
                comm.alltoallv(Buffer.of(send), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
                if (myAggregator >= 0 && hi[myAggregator] > lo[myAggregator]) {
                    long wlo = lo[myAggregator];
                    long whi = hi[myAggregator];
                    ByteBuffer out = windows[(int) (r & 1)];
                    MemorySegment outSegment = windowSegments[(int) (r & 1)];
                    for (int s = 0; s < p; s++) {
                        long[] at = {recvDispls[s]};
                        placing[s].forEachIn(wlo, whi, (ai, bi, length) -> {
                            MemorySegment.copy(recvSegment, ValueLayout.JAVA_BYTE, at[0], outSegment,
                                    ValueLayout.JAVA_BYTE, (ai - wlo) * size, length * size);
                            at[0] += length * size;
                        });
                    }
                    out.clear().limit((int) ((whi - wlo) * size));
                    await(pending); // the previous window's write: its buffer is the next round's
                    long address = dataset.address() + wlo * size;
                    pending = io.submit(() -> file.writer().writeAt(address, out, dataset.path()));
                }
            }
            await(pending);
        } finally {
            if (io != null) {
                io.shutdownNow();
            }
        }
    }

    private static void await(java.util.concurrent.Future<?> f) {
        if (f == null) {
            return;
        }
        try {
            f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing", e);
        }
    }
}
