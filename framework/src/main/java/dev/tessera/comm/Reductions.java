package dev.tessera.comm;

import dev.tessera.device.NativeCollectives;
import java.lang.foreign.MemorySegment;

/**
 * The reducing collectives of a communicator (reduce, allreduce, scan, exscan,
 * reduce-scatter): argument checks, decision table, and the call of the algorithm.
 * Shares the channel and tag policy of its {@link Collectives}.
 */
final class Reductions {

    /** Largest allreduce vector (bytes per rank) that goes through the shared-memory slots in chunks. */
    static final long CHUNKED_ALLREDUCE_BYTES = Long.MAX_VALUE;

    private final Collectives c;
    private final Comm comm;

    Reductions(Collectives collectives) {
        this.c = collectives;
        this.comm = collectives.comm;
    }

    /** Checks a reduction's buffers and operation; copies nothing. */
    private void check(String call, Buffer send, Buffer work, Op op) {
        comm.checkBuffer(call, work, true);
        if (op == null) {
            throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.OP, comm.where(call) + ": operation is null");
        }
        if (send != null) {
            comm.checkBuffer(call, send, false);
            c.requireSameShape(call, send, work);
        }
        op.validate(work.type(), work.count(), comm, call);
    }

    /** Checks, then copies the send contribution into the working buffer (or packs the in-place one). */
    private MemorySegment start(String call, Buffer send, Buffer work, Op op) {
        check(call, send, work, op);
        return load(send, work);
    }

    private static MemorySegment load(Buffer send, Buffer work) {
        MemorySegment data = work.receiveSegment();
        if (send != null) {
            MemorySegment.copy(send.sendSegment(), 0, data, 0, data.byteSize());
        } else {
            work.sendSegment();
        }
        return data;
    }

    /**
     * The send side of a native reduction that reads {@code send} and writes {@code recv}
     * itself (the library copies or avoids copying as its algorithm needs; a Java copy of
     * the whole vector first cost 1.3 ms per 8 MiB): {@code send}'s segment, or null for
     * in place, which is also used when the two overlap (MPI forbids aliased buffers), after
     * copying the contribution over.
     */
    private static MemorySegment nativeSend(Buffer send, Buffer recv) {
        if (send == null) {
            recv.sendSegment();
            return null;
        }
        MemorySegment in = send.sendSegment();
        if (overlap(in, recv.receiveSegment())) {
            load(send, recv);
            return null;
        }
        return in;
    }

    /** Whether two segments share memory (without asOverlappingSlice's allocations for native ones). */
    private static boolean overlap(MemorySegment a, MemorySegment b) {
        if (a.isNative() != b.isNative()) {
            return false;
        }
        if (a.isNative()) {
            return a.address() < b.address() + b.byteSize() && b.address() < a.address() + a.byteSize();
        }
        return a.asOverlappingSlice(b).isPresent();
    }

    void allreduce(Buffer send, Buffer recv, Op op) {
        String call = "Comm.allreduce";
        check(call, send, recv, op);
        NativeCollectives lib = c.nativeFor("allreduce", recv.type(), op, recv.count());
        String alg = lib != null ? "native" : c.algorithm("allreduce",
                ReduceDecision.allreduce(recv.byteSize(), recv.count(), op.isCommutative(), c.size()));
        // vectors larger than a slot go through it in chunks whose combine the ranks split (NodeCollectives.split)
        NodeCollectives node = c.nodeForChunked("allreduce", lib, recv.byteSize(), CHUNKED_ALLREDUCE_BYTES);
        if (node != null && recv.type() != Datatype.OBJECT) {
            // the contribution is read where it is (a vector larger than a slot is not copied into recv first)
            MemorySegment in = nativeSend(send, recv);
            MemorySegment data = recv.receiveSegment();
            node.allreduce(c.signature(call, recv.type(), recv.count(), -1, op), in == null ? data : in,
                    data, recv.count(), op, recv.type());
            recv.received(data.byteSize());
            return;
        }
        // recursive doubling reaches every rank from every rank: its own messages carry the check
        // (on a communicator with shared-memory collectives, the flags carry it instead)
        boolean framed = alg.equals("recursive_doubling") && lib == null && comm.node() == null;
        CollectiveChannel ch = lib != null || !framed ? c.channel(call, recv.type(), recv.count(), -1, op, lib)
                : c.channel(call, recv.type(), recv.count(), -1, op, true);
        if (lib != null) {
            ch.finishBeforeLibrary();
            MemorySegment in = nativeSend(send, recv);
            lib.allreduce(in, recv.receiveSegment(), recv.count(), recv.type().code(), op.nativeCode(), comm.context);
            recv.received(recv.byteSize());
            return;
        }
        MemorySegment data = load(send, recv);
        // checked and framed, an empty vector still exchanges its (header-only) messages: the others expect them
        if (c.size() > 1 && (recv.count() > 0 || framed && ch.framed())) {
            switch (alg) {
                case "recursive_doubling" -> AllreduceAlgorithms.recursiveDoubling(ch, data, recv.count(), op);
                case "rabenseifner" -> orderSafe(op, ch, data, recv.count(),
                        () -> AllreduceAlgorithms.rabenseifner(ch, data, recv.count(), op));
                case "ring" -> orderSafe(op, ch, data, recv.count(),
                        () -> AllreduceAlgorithms.ring(ch, data, recv.count(), op));
                default -> throw c.unknownAlgorithm("allreduce", alg, "recursive_doubling, rabenseifner, ring");
            }
        }
        ch.finish();
        recv.received(data.byteSize());
    }

    /** Runs a reassociating algorithm, or recursive doubling when the operation is not commutative. */
    private static void orderSafe(Op op, CollectiveChannel ch, MemorySegment data, int count, Runnable reassociating) {
        if (op.isCommutative()) {
            reassociating.run();
        } else {
            AllreduceAlgorithms.recursiveDoubling(ch, data, count, op);
        }
    }

    void reduce(Buffer send, Buffer recv, Op op, int root) {
        String call = "Comm.reduce";
        comm.checkRoot(call, root);
        boolean isRoot = c.rank() == root;
        // In place (send == null): recv holds the contribution on every rank and the result at the root.
        Buffer contribution = send != null ? send : recv;
        if (contribution != null && contribution.type() != Datatype.OBJECT && pairReduce(call, send, recv, contribution, op, root)) {
            return;
        }
        if (!isRoot && contribution != null && contribution.type() != Datatype.OBJECT) {
            NodeCollectives node = c.nodeForChunked("reduce", c.nativeFor("reduce", contribution.type(), op,
                    contribution.count()), 0, Long.MAX_VALUE);
            if (node != null) {
                // a contributor's vector goes into its slots as it is: no scratch copy
                comm.checkBuffer(call, contribution, false);
                if (op == null) {
                    throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.OP, comm.where(call) + ": operation is null");
                }
                op.validate(contribution.type(), contribution.count(), comm, call);
                MemorySegment in = contribution.sendSegment();
                node.reduce(c.signature(call, contribution.type(), contribution.count(), root, op),
                        in, in, contribution.count(), op, contribution.type(), root);
                return;
            }
        }
        Buffer work = isRoot ? recv : scratchLike(contribution, call);
        NativeCollectives lib = c.nativeFor("reduce", work.type(), op, work.count());
        NodeCollectives node = c.nodeForChunked("reduce", lib, 0, Long.MAX_VALUE);
        if (isRoot && node != null && work.type() != Datatype.OBJECT) {
            // the root reads its contribution where it is, as the others do
            check(call, send, work, op);
            MemorySegment in = nativeSend(send, recv);
            MemorySegment data = recv.receiveSegment();
            node.reduce(c.signature(call, work.type(), work.count(), root, op), in == null ? data : in,
                    data, work.count(), op, work.type(), root);
            recv.received(data.byteSize());
            return;
        }
        MemorySegment data = start(call, isRoot ? send : contribution, work, op);
        CollectiveChannel ch = c.channel(call, work.type(), work.count(), root, op, lib);
        if (lib != null) {
            ch.finishBeforeLibrary();
            lib.reduce(isRoot ? null : data, isRoot ? data : null, work.count(), work.type().code(), op.nativeCode(), root,
                    comm.context);
        } else if (c.size() > 1 && work.count() > 0) {
            String alg = c.algorithm("reduce", ReduceDecision.reduce(data.byteSize(), c.size()));
            switch (alg) {
                case "binomial" -> ReduceAlgorithms.binomial(ch, data, work.count(), op, root);
                default -> throw c.unknownAlgorithm("reduce", alg, "binomial");
            }
        }
        ch.finish();
        if (isRoot) {
            recv.received(data.byteSize());
        }
    }

    /**
     * A two-rank reduce that goes point to point by the device's single copy ({@link PairCopyDecision}):
     * true if it ran. The contributor sends its vector as it is; the root receives it into its result,
     * or a kept scratch, and folds its own in ({@link PairCopyAlgorithms#reduce}).
     */
    private boolean pairReduce(String call, Buffer send, Buffer recv, Buffer contribution, Op op, int root) {
        NodeCollectives pair = c.pairCopyFor("reduce", c.nativeFor("reduce", contribution.type(), op, contribution.count()),
                contribution.byteSize());
        if (pair == null) {
            return false;
        }
        boolean isRoot = c.rank() == root;
        MemorySegment in;
        MemorySegment data;
        if (isRoot) {
            check(call, send, recv, op);
            in = nativeSend(send, recv);   // null: in place (or overlapping buffers, copied over)
            data = recv.receiveSegment();
        } else {
            comm.checkBuffer(call, contribution, false);
            if (op == null) {
                throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.OP, comm.where(call) + ": operation is null");
            }
            op.validate(contribution.type(), contribution.count(), comm, call);
            in = null;
            data = contribution.sendSegment();
        }
        boolean scratch = isRoot && (in == null || root == 1 && !op.symmetric());
        CollectiveChannel ch = pair.pairCopyChannel(c.signature(call, contribution.type(),
                contribution.count(), root, op), contribution.type());
        PairCopyAlgorithms.reduce(ch, in, data, contribution.count(), op, root, scratch ? pair.pairScratch(data.byteSize()) : null);
        ch.finish();
        if (isRoot) {
            recv.received(data.byteSize());
        }
        return true;
    }

    private Buffer scratchLike(Buffer send, String call) {
        comm.checkBuffer(call, send, false);
        return Buffer.raw(CollectiveChannel.scratch(send.byteSize()), send.type());
    }

    void scan(Buffer send, Buffer recv, Op op, boolean exclusive) {
        String call = exclusive ? "Comm.exscan" : "Comm.scan";
        Buffer work = Buffer.raw(CollectiveChannel.scratch(recv == null ? 0 : recv.byteSize()),
                recv == null ? Datatype.BYTE : recv.type());
        comm.checkBuffer(call, recv, true);
        MemorySegment data = start(call, send == null ? recv : send, work, op);
        CollectiveChannel ch = c.channel(call, recv.type(), recv.count(), -1, op);
        boolean have = !exclusive;
        if (c.size() > 1 && recv.count() > 0) {
            have = ReduceAlgorithms.scan(ch, data, recv.count(), op, exclusive);
        }
        ch.finish();
        if (have) {
            MemorySegment.copy(data, 0, recv.receiveSegment(), 0, data.byteSize());
            recv.received(data.byteSize());
        }
    }

    void reduceScatterBlock(Buffer send, Buffer recv, Op op) {
        String call = "Comm.reduceScatterBlock";
        comm.checkBuffer(call, recv, true);
        comm.checkBuffer(call, send, false);
        c.requireType(call, send, recv);
        int p = c.size();
        if (send.count() != recv.count() * p) {
            throw c.countError(call, "send buffer has " + send.count() + " elements; it needs " + p + " x " + recv.count());
        }
        Buffer work = Buffer.raw(CollectiveChannel.scratch(send.byteSize()), send.type());
        MemorySegment data = start(call, send, work, op);
        NativeCollectives lib = c.nativeFor("reduce_scatter_block", recv.type(), op, recv.count());
        CollectiveChannel ch = c.channel(call, recv.type(), recv.count(), -1, op, lib);
        long blockBytes = recv.byteSize();
        String alg = lib != null ? "native"
                : c.algorithm("reduce_scatter_block", ReduceDecision.reduceScatterBlock(op.isCommutative()));
        if (alg.equals("ring") && !op.isCommutative()) {
            alg = "reduce_scatter";
        }
        switch (alg) {
            case "native" -> {
                ch.finishBeforeLibrary();
                lib.reduceScatterBlock(data, recv.receiveSegment(), recv.count(), recv.type().code(), op.nativeCode(),
                        comm.context);
                recv.received(blockBytes);
                return;
            }
            case "ring" -> ReduceAlgorithms.ringReduceScatter(ch, data, recv.count(), op);
            case "reduce_scatter" -> {
                ReduceAlgorithms.binomial(ch, data, send.count(), op, 0);
                GatherAlgorithms.linearScatter(ch, c.rank() == 0 ? Collectives.equalBlocks(data, p, blockBytes) : null,
                        data.asSlice(c.rank() * blockBytes, blockBytes), 0);
            }
            default -> throw c.unknownAlgorithm("reduce_scatter_block", alg, "ring, reduce_scatter");
        }
        ch.finish();
        MemorySegment.copy(data, c.rank() * blockBytes, recv.receiveSegment(), 0, blockBytes);
        recv.received(blockBytes);
    }

    void reduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        String call = "Comm.reduceScatter";
        comm.checkBuffer(call, recv, true);
        comm.checkBuffer(call, send, false);
        c.requireType(call, send, recv);
        int p = c.size();
        if (recvCounts == null || recvCounts.length != p) {
            throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.ARG, comm.where(call)
                    + ": recvCounts needs one entry per rank (" + p + ")");
        }
        long total = 0;
        for (int n : recvCounts) {
            if (n < 0) {
                throw c.countError(call, "negative entry " + n + " in recvCounts");
            }
            total += n;
        }
        if (total != send.count() || recvCounts[c.rank()] > recv.count()) {
            throw c.countError(call, "recvCounts sum to " + total + " but the send buffer has " + send.count()
                    + " elements, or this rank's share " + recvCounts[c.rank()] + " exceeds its receive buffer (" + recv.count() + ")");
        }
        Buffer work = Buffer.raw(CollectiveChannel.scratch(send.byteSize()), send.type());
        MemorySegment data = start(call, send, work, op);
        CollectiveChannel ch = c.channel(call, recv.type(), send.count(), -1, op);
        long esize = recv.type().byteSize();
        ReduceAlgorithms.binomial(ch, data, send.count(), op, 0);
        MemorySegment[] blocks = new MemorySegment[p];
        long offset = 0;
        for (int i = 0; i < p; i++) {
            blocks[i] = data.asSlice(offset, recvCounts[i] * esize);
            offset += recvCounts[i] * esize;
        }
        MemorySegment mine = recv.receiveSegment().asSlice(0, recvCounts[c.rank()] * esize);
        GatherAlgorithms.linearScatter(ch, c.rank() == 0 ? blocks : null, mine, 0);
        ch.finish();
        recv.received(mine.byteSize());
    }
}
