package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.NativeCollectives;
import java.lang.foreign.MemorySegment;

/**
 * The collective operations of one communicator: argument checks, the choice of
 * algorithm, and the call of that algorithm over a {@link CollectiveChannel}. Algorithms
 * live in the {@code *Algorithms} classes, one static method each; the decision tables
 * (by message size, rank count and operation) live apart from both, one class per
 * collective family ({@link BarrierDecision}, {@link BcastDecision}, {@link GatherDecision},
 * {@link AllgatherDecision}, {@link AlltoallDecision}, {@link ReduceDecision}), as Open MPI
 * keeps coll_tuned_decision_fixed.c apart from coll_base_*.c. A name forced through
 * {@link CollectiveTuning} wins over the table; non-commutative reductions always get an
 * order-safe algorithm.
 *
 * <p>Algorithm names: barrier {dissemination}; bcast {binomial, scatter_allgather};
 * reduce {binomial}; allreduce {recursive_doubling, rabenseifner, ring};
 * gather, scatter {binomial, linear}; allgather {bruck, ring}; alltoall {pairwise,
 * linear}; reduce_scatter_block {ring, reduce_scatter}. The v-variants use linear
 * (gatherv, scatterv), ring (allgatherv) and pairwise (alltoallv); scan and exscan use
 * recursive doubling; reduce_scatter uses reduce then scatterv.
 *
 * <p>Every collective opens exactly one channel, which draws the call's tag in program
 * order; nonblocking collectives ({@link NonblockingCollectives}) draw it when they start.
 */
final class Collectives {


    final Comm comm;
    private final Reductions reductions;
    /** The last signature made by {@link #signature}, handed out again while the calls repeat their arguments. */
    private CollectiveCheck.Signature lastSignature;

    Collectives(Comm comm) {
        this.comm = comm;
        this.reductions = new Reductions(this);
    }

    /**
     * The agreement-check signature of a call ({@link CollectiveCheck.Signature#of}): the one the
     * last call used when the arguments are the same, so a loop of calls allocates none (the
     * shared-memory path keeps each call's signature in an array; a new object per call there
     * cost 2-rank 8-byte bcasts and reduces 5-20 %, docs/performance.md, stop 65). A signature is
     * immutable, so a thread that reads this field while another writes it sees a whole one.
     */
    CollectiveCheck.Signature signature(String call, Datatype type, long count, int root, Op op) {
        int t = type == null ? -1 : type.code();
        int o = op == null ? -1 : op.checkCode();
        CollectiveCheck.Signature s = lastSignature;
        if (s != null && s.call() == call && s.count() == count && s.type() == t && s.root() == root && s.op() == o) {
            return s;
        }
        s = new CollectiveCheck.Signature(call, t, count, root, o);
        lastSignature = s;
        return s;
    }

    /** A channel for one call, without the agreement check (object collectives, internal steps). */
    CollectiveChannel channel(String call, Datatype type) {
        int tag = comm.nextCollectiveTag();
        return new CollectiveChannel(comm, call, tag, type, null, false);
    }

    /**
     * A channel for one call whose arguments every rank must agree on ({@link CollectiveCheck}):
     * count ({@link CollectiveCheck#NONE} for vector variants), root (-1 for none), op (null for none).
     */
    CollectiveChannel channel(String call, Datatype type, long count, int root, Op op) {
        return channel(call, type, count, root, op, false);
    }

    /** As {@link #channel(String, Datatype, long, int, Op)}; {@code framed}: the signature rides on every message. */
    CollectiveChannel channel(String call, Datatype type, long count, int root, Op op, boolean framed) {
        int tag = comm.nextCollectiveTag();
        return new CollectiveChannel(comm, call, tag, type, signature(call, type, count, root, op), framed);
    }

    /**
     * As {@link #channel(String, Datatype, long, int, Op)} for a call that the library runs
     * when {@code lib} is not null: then checked only with TESSERA_COLL_CHECK=always
     * ({@link CollectiveCheck#enabledForNative}), so that by default a rank never waits for a
     * neighbour's signature outside the library before its collective.
     */
    CollectiveChannel channel(String call, Datatype type, long count, int root, Op op, NativeCollectives lib) {
        NodeCollectives node = lib == null ? comm.node() : null;
        if (node != null) {
            return node.channel(signature(call, type, count, root, op), type);
        }
        if (lib != null && !CollectiveCheck.enabledForNative(comm.env.tuning)) {
            return new CollectiveChannel(comm, call, comm.nextCollectiveTag(), type, null, false);
        }
        return channel(call, type, count, root, op, false);
    }

    String algorithm(String collective, String chosen) {
        String forced = comm.env.tuning.forced(collective);
        return forced != null ? forced : chosen;
    }

    TesseraException unknownAlgorithm(String collective, String name, String valid) {
        return new TesseraException(ErrorClass.ARG, comm.where("Comm." + collective) + ": unknown " + collective
                + " algorithm '" + name + "' (valid: " + valid + ")");
    }

    int size() {
        return comm.size();
    }

    /**
     * The library's own collectives (mpi device with native collectives on), when the device
     * offers them for this element type and operation and no Tessera algorithm is forced;
     * else null. The answer depends only on arguments every rank shares, so all ranks agree.
     * Nonblocking collectives keep Tessera's schedules (NonblockingCollectives).
     */
    NativeCollectives nativeFor(String collective, Datatype type, Op op, long count) {
        NativeCollectives n = comm.env.device.nativeCollectives();
        if (n == null || size() < 2 || count <= 0 || type == Datatype.OBJECT || comm.env.tuning.forced(collective) != null) {
            return null;
        }
        int opCode = op == null ? -1 : op.nativeCode();
        if (op != null && opCode < 0) {
            return null;
        }
        return n.supports(type.code(), opCode) ? n : null;
    }

    int rank() {
        return comm.rank();
    }

    /**
     * The shared-memory collectives ({@link NodeCollectives}) when this call can move
     * {@code bytes} per rank through their slots: the device offers a region for this
     * communicator, no library runs the call and no algorithm is forced; else null. Depends
     * only on arguments every rank shares, so all ranks agree when their calls do.
     */
    NodeCollectives nodeFor(String collective, NativeCollectives lib, long bytes) {
        NodeCollectives node = lib == null ? comm.node() : null;
        return node != null && comm.env.tuning.forced(collective) == null && bytes <= node.slotBytes() ? node : null;
    }

    /**
     * As {@link #nodeFor}, for a collective whose data goes through the slots in chunks when
     * it does not fit one (reduce and allreduce): up to {@code maxBytes} per rank (or a slot,
     * if larger).
     */
    NodeCollectives nodeForChunked(String collective, NativeCollectives lib, long bytes, long maxBytes) {
        NodeCollectives node = nodeFor(collective, lib, 0);
        return node != null && bytes <= Math.max(maxBytes, node.slotBytes()) ? node : null;
    }

    /**
     * As {@link #nodeFor}, for bcast and allgather: data larger than a slot goes through the
     * slots in chunks where {@link NodeCollectives#chunksLarge} says so.
     */
    NodeCollectives nodeForLarge(String collective, NativeCollectives lib, long bytes) {
        NodeCollectives node = nodeFor(collective, lib, 0);
        return node != null && (bytes <= node.slotBytes() || node.chunksLarge(collective.equals("bcast"), bytes)) ? node : null;
    }

    /**
     * The shared-memory collectives when a call of two ranks whose messages carry {@code messageBytes}
     * each goes between them point to point, by the device's single copy of heap arrays
     * ({@link PairCopyDecision}, {@link PairCopyAlgorithms}): as {@link #nodeFor}, and the decision
     * says so; else null. Every rank agrees when their calls do.
     */
    NodeCollectives pairCopyFor(String collective, NativeCollectives lib, long messageBytes) {
        NodeCollectives node = size() == 2 ? nodeFor(collective, lib, 0) : null;
        return node != null && node.pairCopy(collective, messageBytes) ? node : null;
    }

    // ------------------------------------------------------------------ barrier, bcast

    void barrier() {
        NativeCollectives lib = nativeFor("barrier", Datatype.BYTE, null, 1);
        NodeCollectives node = nodeFor("barrier", lib, 0);
        if (node != null) {
            node.barrier(signature("Comm.barrier", Datatype.BYTE, 0, -1, null));
            return;
        }
        CollectiveChannel ch = channel("Comm.barrier", Datatype.BYTE, 0, -1, null, lib);
        if (size() == 1) {
            return;
        }
        if (lib != null) {
            ch.finishBeforeLibrary();
            lib.barrier(comm.context);
            return;
        }
        String alg = algorithm("barrier", BarrierDecision.choose(size()));
        switch (alg) {
            case "dissemination" -> BarrierAlgorithms.dissemination(ch);
            default -> throw unknownAlgorithm("barrier", alg, "dissemination");
        }
        ch.finish();
    }

    void bcast(Buffer buffer, int root) {
        String call = "Comm.bcast";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, buffer, rank() != root);   // the root only reads its buffer
        NativeCollectives lib = nativeFor("bcast", buffer.type(), null, buffer.count());
        MemorySegment data = rank() == root ? buffer.sendSegment() : buffer.receiveSegment();
        NodeCollectives pair = pairCopyFor("bcast", lib, data.byteSize());
        if (pair != null) {
            CollectiveChannel ch = pair.pairCopyChannel(signature(call, buffer.type(), buffer.count(), root,
                    null), buffer.type());
            PairCopyAlgorithms.bcast(ch, data, root);
            ch.finish();
            if (rank() != root) {
                buffer.received(data.byteSize());
            }
            return;
        }
        NodeCollectives node = nodeForLarge("bcast", lib, data.byteSize());
        if (node != null) {
            node.bcast(signature(call, buffer.type(), buffer.count(), root, null), data, root);
            if (rank() != root) {
                buffer.received(data.byteSize());
            }
            return;
        }
        CollectiveChannel ch = channel(call, buffer.type(), buffer.count(), root, null, lib);
        if (lib != null) {
            ch.finishBeforeLibrary();
            lib.bcast(data, buffer.count(), buffer.type().code(), root, comm.context);
        } else if (size() > 1 && data.byteSize() > 0) {
            String alg = algorithm("bcast", BcastDecision.choose(data.byteSize(), buffer.count(), size()));
            switch (alg) {
                case "binomial" -> BroadcastAlgorithms.binomial(ch, data, root);
                case "scatter_allgather" -> BroadcastAlgorithms.scatterAllgather(ch, data, root, buffer.type().byteSize());
                default -> throw unknownAlgorithm("bcast", alg, "binomial, scatter_allgather");
            }
        }
        ch.finish();
        if (rank() != root) {
            buffer.received(data.byteSize());
        }
    }

    // ------------------------------------------------------------------ gather, scatter

    void gather(Buffer send, Buffer recv, int root) {
        String call = "Comm.gather";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, send, false);
        Buffer result = rank() == root ? rootBuffer(call, recv, true, send, size()) : null;
        NativeCollectives lib = nativeFor("gather", send.type(), null, send.count());
        CollectiveChannel ch = channel(call, send.type(), send.count(), root, null, lib);
        MemorySegment mine = send.sendSegment();
        String alg = lib != null ? "native" : algorithm("gather", GatherDecision.gather(mine.byteSize(), size()));
        if (lib != null) {
            ch.finishBeforeLibrary();
        }
        switch (alg) {
            case "native" -> lib.gather(mine, result == null ? null : result.receiveSegment(), send.count(),
                    send.type().code(), root, comm.context);
            case "binomial" -> GatherAlgorithms.binomialGather(ch, mine, result == null ? null : result.receiveSegment(), root);
            case "linear" -> GatherAlgorithms.linearGather(ch, mine, result == null ? null
                    : equalBlocks(result.receiveSegment(), size(), mine.byteSize()), root);
            default -> throw unknownAlgorithm("gather", alg, "binomial, linear");
        }
        ch.finish();
        if (result != null) {
            result.received(result.byteSize());
        }
    }

    void gatherv(Buffer send, Buffer recv, int[] counts, int[] displs, int root) {
        String call = "Comm.gatherv";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, send, false);
        MemorySegment[] blocks = null;
        if (rank() == root) {
            comm.checkBuffer(call, recv, true);
            requireType(call, send, recv);
            blocks = variableBlocks(call, recv, counts, displs);
            if (counts[rank()] != send.count()) {
                throw countError(call, "counts[" + rank() + "] is " + counts[rank()] + " but the root sends " + send.count());
            }
        }
        CollectiveChannel ch = channel(call, send.type(), CollectiveCheck.NONE, root, null);
        GatherAlgorithms.linearGather(ch, send.sendSegment(), blocks, root);
        ch.finish();
        if (blocks != null) {
            recv.received(recv.byteSize());
        }
    }

    void scatter(Buffer send, Buffer recv, int root) {
        String call = "Comm.scatter";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, recv, true);
        Buffer source = rank() == root ? rootBuffer(call, send, false, recv, size()) : null;
        NativeCollectives lib = nativeFor("scatter", recv.type(), null, recv.count());
        CollectiveChannel ch = channel(call, recv.type(), recv.count(), root, null, lib);
        MemorySegment mine = recv.receiveSegment();
        MemorySegment all = source == null ? null : source.sendSegment();
        String alg = lib != null ? "native" : algorithm("scatter", GatherDecision.scatter(mine.byteSize(), size()));
        if (lib != null) {
            ch.finishBeforeLibrary();
        }
        switch (alg) {
            case "native" -> lib.scatter(all, mine, recv.count(), recv.type().code(), root, comm.context);
            case "binomial" -> GatherAlgorithms.binomialScatter(ch, all, mine, root);
            case "linear" -> GatherAlgorithms.linearScatter(ch, all == null ? null
                    : equalBlocks(all, size(), mine.byteSize()), mine, root);
            default -> throw unknownAlgorithm("scatter", alg, "binomial, linear");
        }
        ch.finish();
        recv.received(recv.byteSize());
    }

    void scatterv(Buffer send, int[] counts, int[] displs, Buffer recv, int root) {
        String call = "Comm.scatterv";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, recv, true);
        MemorySegment[] blocks = null;
        if (rank() == root) {
            comm.checkBuffer(call, send, false);
            requireType(call, send, recv);
            send.sendSegment();
            blocks = variableBlocks(call, send, counts, displs);
            if (counts[rank()] != recv.count()) {
                throw countError(call, "counts[" + rank() + "] is " + counts[rank()] + " but the root receives " + recv.count());
            }
        }
        CollectiveChannel ch = channel(call, recv.type(), CollectiveCheck.NONE, root, null);
        GatherAlgorithms.linearScatter(ch, blocks, recv.receiveSegment(), root);
        ch.finish();
        recv.received(recv.byteSize());
    }

    // ------------------------------------------------------------------ allgather, alltoall

    void allgather(Buffer send, Buffer recv) {
        String call = "Comm.allgather";
        comm.checkBuffer(call, recv, true);
        int block = blockCount(call, recv, size());
        Buffer mine = recv.slice(rank() * block, block);
        MemorySegment own = null;
        if (send != null) {
            comm.checkBuffer(call, send, false);
            requireSameShape(call, send, mine);
            own = send.sendSegment();
        } else {
            mine.sendSegment();
        }
        NativeCollectives lib = nativeFor("allgather", recv.type(), null, block);
        MemorySegment data = recv.receiveSegment();
        NodeCollectives pair = pairCopyFor("allgather", lib, mine.byteSize());
        if (pair != null) {
            CollectiveChannel ch = pair.pairCopyChannel(signature(call, recv.type(), recv.count(), -1, null),
                    recv.type());
            PairCopyAlgorithms.allgather(ch, own != null ? own : data.asSlice(rank() * mine.byteSize(), mine.byteSize()),
                    data, own != null);
            ch.finish();
            recv.received(data.byteSize());
            return;
        }
        NodeCollectives node = nodeForLarge("allgather", lib, mine.byteSize());
        if (node != null) {
            // out of place: the send buffer goes into the slots and into this rank's block a chunk at a time
            node.allgather(signature(call, recv.type(), recv.count(), -1, null),
                    own != null ? own : data.asSlice(rank() * mine.byteSize(), mine.byteSize()), data, own != null);
            recv.received(data.byteSize());
            return;
        }
        if (own != null) {
            MemorySegment.copy(own, 0, mine.receiveSegment(), 0, mine.byteSize());
        }
        CollectiveChannel ch = channel(call, recv.type(), recv.count(), -1, null, lib);
        if (lib != null) {
            ch.finishBeforeLibrary();
            lib.allgather(null, data, block, recv.type().code(), comm.context);
        } else if (size() > 1 && block > 0) {
            String alg = algorithm("allgather", AllgatherDecision.choose(data.byteSize(), size()));
            switch (alg) {
                case "ring" -> AllgatherAlgorithms.ring(ch, data, mine.byteSize());
                case "bruck" -> AllgatherAlgorithms.bruck(ch, data, mine.byteSize());
                default -> throw unknownAlgorithm("allgather", alg, "bruck, ring");
            }
        }
        ch.finish();
        recv.received(data.byteSize());
    }

    void allgatherv(Buffer send, Buffer recv, int[] counts, int[] displs) {
        String call = "Comm.allgatherv";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        requireType(call, send, recv);
        MemorySegment[] blocks = variableBlocks(call, recv, counts, displs);
        if (counts[rank()] != send.count()) {
            throw countError(call, "counts[" + rank() + "] is " + counts[rank()] + " but this rank sends " + send.count());
        }
        MemorySegment.copy(send.sendSegment(), 0, blocks[rank()], 0, blocks[rank()].byteSize());
        CollectiveChannel ch = channel(call, recv.type(), CollectiveCheck.NONE, -1, null);
        AllgatherAlgorithms.ringV(ch, blocks);
        ch.finish();
        recv.received(recv.byteSize());
    }

    void alltoall(Buffer send, Buffer recv) {
        String call = "Comm.alltoall";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        requireSameShape(call, send, recv);
        int block = blockCount(call, recv, size());
        long blockBytes = (long) block * recv.type().byteSize();
        NativeCollectives lib = nativeFor("alltoall", recv.type(), null, block);
        NodeCollectives pair = pairCopyFor("alltoall", lib, blockBytes);
        if (pair != null) {
            CollectiveChannel ch = pair.pairCopyChannel(signature(call, recv.type(), recv.count(), -1, null),
                    recv.type());
            PairCopyAlgorithms.alltoall(ch, send.sendSegment(), recv.receiveSegment(), blockBytes);
            ch.finish();
            recv.received(recv.byteSize());
            return;
        }
        NodeCollectives node = nodeFor("alltoall", lib, blockBytes * size());
        if (node != null) {
            node.alltoall(signature(call, recv.type(), recv.count(), -1, null), send.sendSegment(),
                    recv.receiveSegment(), blockBytes);
            recv.received(recv.byteSize());
            return;
        }
        NodeCollectives chunks = nodeFor("alltoall", lib, 0);
        if (chunks != null && size() > 1 && AlltoallDecision.inSlotChunks(blockBytes, size(), chunks.waitsBlock(),
                chunks.sameAddressSpace())) {
            chunks.alltoallChunks(signature(call, recv.type(), recv.count(), -1, null),
                    send.sendSegment(), recv.receiveSegment(), blockBytes);
            recv.received(recv.byteSize());
            return;
        }
        MemorySegment[] out = equalBlocks(send.sendSegment(), size(), blockBytes);
        MemorySegment[] in = equalBlocks(recv.receiveSegment(), size(), blockBytes);
        CollectiveChannel ch = channel(call, recv.type(), recv.count(), -1, null, lib);
        String alg = lib != null ? "native" : algorithm("alltoall", AlltoallDecision.choose(blockBytes, size()));
        if (lib != null) {
            ch.finishBeforeLibrary();
        }
        switch (alg) {
            case "native" -> lib.alltoall(send.sendSegment(), recv.receiveSegment(), block, recv.type().code(), comm.context);
            case "pairwise" -> AlltoallAlgorithms.pairwise(ch, out, in);
            case "linear" -> AlltoallAlgorithms.linear(ch, out, in);
            default -> throw unknownAlgorithm("alltoall", alg, "pairwise, linear");
        }
        ch.finish();
        recv.received(recv.byteSize());
    }

    void alltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts, int[] recvDispls) {
        String call = "Comm.alltoallv";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        requireType(call, send, recv);
        send.sendSegment();
        MemorySegment[] out = variableBlocks(call, send, sendCounts, sendDispls);
        MemorySegment[] in = variableBlocks(call, recv, recvCounts, recvDispls);
        NodeCollectives node = size() == 2 ? nodeFor("alltoallv", null, 0) : null;
        int other = 1 - rank();
        if (node != null && AlltoallDecision.pairInSlots(Math.max(out[other].byteSize(), in[other].byteSize()))) {
            // the signature carries both directions' counts as rank 0 sees them: ranks whose counts disagree stop
            // with the mismatch error instead of reading a part of a block
            long fromZero = rank() == 0 ? sendCounts[1] : recvCounts[0];
            long fromOne = rank() == 0 ? recvCounts[1] : sendCounts[0];
            MemorySegment.copy(out[rank()], 0, in[rank()], 0, out[rank()].byteSize());
            node.exchangePair(signature(call, recv.type(), fromZero << 32 | fromOne, -1, null),
                    out[other], in[other]);
            recv.received(recv.byteSize());
            return;
        }
        CollectiveChannel ch = channel(call, recv.type(), CollectiveCheck.NONE, -1, null);
        AlltoallAlgorithms.pairwise(ch, out, in);
        ch.finish();
        recv.received(recv.byteSize());
    }

    // ------------------------------------------------------------------ nonblocking

    /** The reductions of this communicator, sharing this object's tag policy (one object, not one per call). */
    Reductions reductions() {
        return reductions;
    }

    // ------------------------------------------------------------------ shared checks

    /** The root's buffer of p blocks, each the size of {@code block}, checked. */
    private Buffer rootBuffer(String call, Buffer rootBuffer, boolean receives, Buffer block, int blocks) {
        comm.checkBuffer(call, rootBuffer, receives);
        requireType(call, rootBuffer, block);
        if (rootBuffer.count() != (long) block.count() * blocks) {
            throw countError(call, "the root's buffer has " + rootBuffer.count() + " elements; it needs "
                    + blocks + " x " + block.count());
        }
        return rootBuffer;
    }

    static MemorySegment[] equalBlocks(MemorySegment data, int p, long blockBytes) {
        MemorySegment[] blocks = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            blocks[i] = data.asSlice(i * blockBytes, blockBytes);
        }
        return blocks;
    }

    private MemorySegment[] variableBlocks(String call, Buffer buffer, int[] counts, int[] displs) {
        int p = size();
        if (counts == null || displs == null || counts.length != p || displs.length != p) {
            throw new TesseraException(ErrorClass.ARG, comm.where(call) + ": counts and displs need one entry per rank ("
                    + p + ")");
        }
        long esize = buffer.type().byteSize();
        MemorySegment data = buffer.receiveSegment();
        MemorySegment[] blocks = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            if (counts[i] < 0 || displs[i] < 0 || (long) displs[i] + counts[i] > buffer.count()) {
                throw countError(call, "block " + i + " (displacement " + displs[i] + ", count " + counts[i]
                        + ") lies outside the buffer of " + buffer.count() + " elements");
            }
            blocks[i] = data.asSlice(displs[i] * esize, counts[i] * esize);
        }
        return blocks;
    }

    int blockCount(String call, Buffer buffer, int p) {
        if (buffer.count() % p != 0) {
            throw countError(call, "buffer of " + buffer.count() + " elements is not a multiple of the communicator size " + p);
        }
        return buffer.count() / p;
    }

    TesseraException countError(String call, String text) {
        return new TesseraException(ErrorClass.COUNT, comm.where(call) + ": " + text);
    }

    void requireType(String call, Buffer send, Buffer recv) {
        if (send.type() != recv.type()) {
            throw new TesseraException(ErrorClass.TYPE, comm.where(call) + ": send buffer holds " + send.type()
                    + " but receive buffer holds " + recv.type());
        }
    }

    void requireSameShape(String call, Buffer send, Buffer recv) {
        requireType(call, send, recv);
        if (send.count() != recv.count()) {
            throw countError(call, "send buffer has " + send.count() + " elements but receive buffer has " + recv.count());
        }
    }
}
