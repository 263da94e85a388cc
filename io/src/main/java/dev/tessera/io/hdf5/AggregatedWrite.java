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
 * blocks, so only data travels) and writes its window with a single sequential write.
 *
 * <p>Invariant: the blocks tile the dataset (checked before), so every window is covered
 * exactly once and each aggregator writes each window whole. Memory per rank: one send
 * buffer (at most one window per aggregator) and, on aggregators, two windows.
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
        ByteBuffer out = myAggregator >= 0 ? ByteBuffer.allocateDirect((int) (window * size)) : null;
        MemorySegment outSegment = out != null ? MemorySegment.ofBuffer(out) : null;
        long[] lo = new long[a];
        long[] hi = new long[a];
        int[] sendCounts = new int[p];
        int[] sendDispls = new int[p];
        int[] recvCounts = new int[p];
        int[] recvDispls = new int[p];
        for (long r = 0; r < rounds; r++) {
            for (int i = 0; i < a; i++) {
                long start = Math.min(elements, i * domain);
                long end = Math.min(elements, (i + 1) * domain);
                lo[i] = Math.min(end, start + r * window);
                hi[i] = Math.min(end, lo[i] + window);
            }
            java.util.Arrays.fill(sendCounts, 0);
            int[] pos = {0};
            for (int i = 0; i < a; i++) {
                int dest = aggregators[i];
                sendDispls[dest] = pos[0];
                forEachRunIn(myBox, shape, lo[i], hi[i], (arrayIndex, boxIndex, length) -> {
                    MemorySegment.copy(data, type.hostLayout(), boxIndex * size, sendSegment, type.fileLayout(),
                            pos[0], length);
                    pos[0] += (int) (length * size);
                });
                sendCounts[dest] = pos[0] - sendDispls[dest];
            }
            int received = 0;
            for (int s = 0; s < p; s++) {
                recvDispls[s] = received;
                long bytes = 0;
                if (myAggregator >= 0) {
                    long[] n = {0};
                    forEachRunIn(claims.get(s).box(), shape, lo[myAggregator], hi[myAggregator],
                            (ai, bi, length) -> n[0] += length);
                    bytes = n[0] * size;
                }
                recvCounts[s] = (int) bytes;
                received += (int) bytes;
            }
            comm.alltoallv(Buffer.of(send), sendCounts, sendDispls, Buffer.of(recv), recvCounts, recvDispls);
            if (myAggregator >= 0 && hi[myAggregator] > lo[myAggregator]) {
                long wlo = lo[myAggregator];
                for (int s = 0; s < p; s++) {
                    long[] at = {recvDispls[s]};
                    forEachRunIn(claims.get(s).box(), shape, wlo, hi[myAggregator], (ai, bi, length) -> {
                        MemorySegment.copy(recvSegment, ValueLayout.JAVA_BYTE, at[0], outSegment, ValueLayout.JAVA_BYTE,
                                (ai - wlo) * size, length * size);
                        at[0] += length * size;
                    });
                }
                out.clear().limit((int) ((hi[myAggregator] - wlo) * size));
                file.writer().writeAt(dataset.address() + wlo * size, out, dataset.path());
            }
        }
    }

    /** The runs of {@code box} clipped to elements [lo, hi) of the array; box indices follow. */
    static void forEachRunIn(Hyperslab box, long[] shape, long lo, long hi, Hyperslab.RunConsumer consumer) {
        if (lo >= hi || box.volume() == 0) {
            return;
        }
        long first = Hyperslab.linearIndex(shape, box.offset());
        long[] last = box.offset().clone();
        for (int d = 0; d < last.length; d++) {
            last[d] += box.count()[d] - 1;
        }
        if (first >= hi || Hyperslab.linearIndex(shape, last) < lo) {
            return;
        }
        box.forEachRun(shape, (ai, bi, length) -> {
            long s = Math.max(ai, lo);
            long e = Math.min(ai + length, hi);
            if (s < e) {
                consumer.run(s, bi + (s - ai), e - s);
            }
        });
    }
}
