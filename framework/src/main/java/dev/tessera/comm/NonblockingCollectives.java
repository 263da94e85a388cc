package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;

/**
 * The nonblocking collectives (MPI-3's MPI_I*) of one communicator, each built as a
 * {@link CollectiveSchedule} of nonblocking point-to-point rounds and local steps. The
 * algorithms favour few rounds over few messages: gather, scatter, allgather and alltoall
 * post everything in one round (so all their transfers overlap the caller's computation);
 * reductions gather the contributions at rank 0, combine them there in rank order (correct
 * for operations that are not commutative) and, for allreduce-like ones, send the result
 * out in a second round; broadcast is a binomial tree (two rounds per rank); barrier is
 * dissemination (log p rounds); scans are a chain (receive from the left, send to the right).
 *
 * <p>Each call draws its collective tag when it starts, on the caller's thread in program
 * order, so several may be in flight at once on one communicator and none mixes with another.
 * Buffers must not be touched until the request completes.
 */
final class NonblockingCollectives {

    private final Comm comm;
    private final Collectives blocking;

    NonblockingCollectives(Comm comm) {
        this.comm = comm;
        this.blocking = comm.collectives();
    }

    private int p() {
        return comm.size();
    }

    private int me() {
        return comm.rank();
    }

    /** A schedule on a channel whose call every rank must agree on (see {@link CollectiveCheck}). */
    private CollectiveSchedule schedule(String call, Datatype type, long count, int root, Op op) {
        return new CollectiveSchedule(blocking.channel(call, type, count, root, op));
    }

    private static MemorySegment empty() {
        return MemorySegment.ofArray(new byte[0]);
    }

    // ------------------------------------------------------------------ barrier, bcast

    Request ibarrier() {
        String call = "Comm.ibarrier";
        CollectiveSchedule s = schedule(call, Datatype.BYTE, 0, -1, null);
        int p = p();
        for (int dist = 1; dist < p; dist <<= 1) {
            s.round().send(empty(), (me() + dist) % p).recv(empty(), (me() - dist + p) % p);
        }
        return s.start(comm, call);
    }

    Request ibcast(Buffer buffer, int root) {
        String call = "Comm.ibcast";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, buffer, me() != root);
        MemorySegment data = me() == root ? buffer.sendSegment() : buffer.receiveSegment();
        CollectiveSchedule s = schedule(call, buffer.type(), buffer.count(), root, null);
        int p = p();
        int vr = (me() - root + p) % p;
        int lowest = vr == 0 ? Integer.highestOneBit(Math.max(1, p - 1)) << 1 : Integer.lowestOneBit(vr);
        if (vr != 0) {
            s.round().recv(data, ((vr - lowest) + root) % p);
        }
        CollectiveSchedule.Round out = s.round();
        for (int mask = lowest >> 1; mask > 0; mask >>= 1) {
            if (vr + mask < p) {
                out.send(data, (vr + mask + root) % p);
            }
        }
        out.then(() -> {
            if (me() != root) {
                buffer.received(data.byteSize());
            }
        });
        return s.start(comm, call);
    }

    // ------------------------------------------------------------------ gather, scatter

    Request igather(Buffer send, Buffer recv, int root) {
        String call = "Comm.igather";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, send, false);
        MemorySegment[] blocks = null;
        if (me() == root) {
            comm.checkBuffer(call, recv, true);
            blocking.requireType(call, send, recv);
            if (recv.count() != (long) send.count() * p()) {
                throw blocking.countError(call, "the root's buffer has " + recv.count() + " elements; it needs "
                        + p() + " x " + send.count());
            }
            blocks = Collectives.equalBlocks(recv.receiveSegment(), p(), send.byteSize());
        }
        return gatherBlocks(call, send, blocks, recv, root);
    }

    Request igatherv(Buffer send, Buffer recv, int[] counts, int[] displs, int root) {
        String call = "Comm.igatherv";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, send, false);
        MemorySegment[] blocks = null;
        if (me() == root) {
            comm.checkBuffer(call, recv, true);
            blocking.requireType(call, send, recv);
            blocks = blocks(call, recv, counts, displs, true);
            if (counts[me()] != send.count()) {
                throw blocking.countError(call, "counts[" + me() + "] is " + counts[me()] + " but the root sends " + send.count());
            }
        }
        return gatherBlocks(call, send, blocks, recv, root);
    }

    private Request gatherBlocks(String call, Buffer send, MemorySegment[] blocks, Buffer recv, int root) {
        CollectiveSchedule s = schedule(call, send.type(), CollectiveCheck.NONE, root, null);
        MemorySegment mine = send.sendSegment();
        CollectiveSchedule.Round r = s.round();
        if (me() == root) {
            for (int i = 0; i < p(); i++) {
                if (i != root) {
                    r.recv(blocks[i], i);
                }
            }
            MemorySegment.copy(mine, 0, blocks[root], 0, mine.byteSize());
            r.then(() -> recv.received(recv.byteSize()));
        } else {
            r.send(mine, root);
        }
        return s.start(comm, call);
    }

    Request iscatter(Buffer send, Buffer recv, int root) {
        String call = "Comm.iscatter";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, recv, true);
        MemorySegment[] blocks = null;
        if (me() == root) {
            comm.checkBuffer(call, send, false);
            blocking.requireType(call, send, recv);
            if (send.count() != (long) recv.count() * p()) {
                throw blocking.countError(call, "the root's buffer has " + send.count() + " elements; it needs "
                        + p() + " x " + recv.count());
            }
            blocks = Collectives.equalBlocks(send.sendSegment(), p(), recv.byteSize());
        }
        return scatterBlocks(call, blocks, recv, root);
    }

    Request iscatterv(Buffer send, int[] counts, int[] displs, Buffer recv, int root) {
        String call = "Comm.iscatterv";
        comm.checkRoot(call, root);
        comm.checkBuffer(call, recv, true);
        MemorySegment[] blocks = null;
        if (me() == root) {
            comm.checkBuffer(call, send, false);
            blocking.requireType(call, send, recv);
            blocks = blocks(call, send, counts, displs, false);
            if (counts[me()] != recv.count()) {
                throw blocking.countError(call, "counts[" + me() + "] is " + counts[me()] + " but the root receives " + recv.count());
            }
        }
        return scatterBlocks(call, blocks, recv, root);
    }

    private Request scatterBlocks(String call, MemorySegment[] blocks, Buffer recv, int root) {
        CollectiveSchedule s = schedule(call, recv.type(), CollectiveCheck.NONE, root, null);
        MemorySegment mine = recv.receiveSegment();
        CollectiveSchedule.Round r = s.round();
        if (me() == root) {
            for (int i = 0; i < p(); i++) {
                if (i != root) {
                    r.send(blocks[i], i);
                }
            }
            MemorySegment.copy(blocks[root], 0, mine, 0, mine.byteSize());
        } else {
            r.recv(mine, root);
        }
        r.then(() -> recv.received(recv.byteSize()));
        return s.start(comm, call);
    }

    // ------------------------------------------------------------------ allgather, alltoall

    Request iallgather(Buffer send, Buffer recv) {
        String call = "Comm.iallgather";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        blocking.requireType(call, send, recv);
        if (recv.count() != (long) send.count() * p()) {
            throw blocking.countError(call, "receive buffer has " + recv.count() + " elements; it needs "
                    + p() + " x " + send.count());
        }
        return allgatherBlocks(call, send, Collectives.equalBlocks(recv.receiveSegment(), p(), send.byteSize()), recv);
    }

    Request iallgatherv(Buffer send, Buffer recv, int[] counts, int[] displs) {
        String call = "Comm.iallgatherv";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        blocking.requireType(call, send, recv);
        MemorySegment[] blocks = blocks(call, recv, counts, displs, true);
        if (counts[me()] != send.count()) {
            throw blocking.countError(call, "counts[" + me() + "] is " + counts[me()] + " but this rank sends " + send.count());
        }
        return allgatherBlocks(call, send, blocks, recv);
    }

    private Request allgatherBlocks(String call, Buffer send, MemorySegment[] blocks, Buffer recv) {
        CollectiveSchedule s = schedule(call, recv.type(), CollectiveCheck.NONE, -1, null);
        MemorySegment mine = send.sendSegment();
        CollectiveSchedule.Round r = s.round();
        for (int i = 0; i < p(); i++) {
            if (i != me()) {
                r.recv(blocks[i], i).send(mine, i);
            }
        }
        MemorySegment.copy(mine, 0, blocks[me()], 0, mine.byteSize());
        r.then(() -> recv.received(recv.byteSize()));
        return s.start(comm, call);
    }

    Request ialltoall(Buffer send, Buffer recv) {
        String call = "Comm.ialltoall";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        blocking.requireSameShape(call, send, recv);
        int block = blocking.blockCount(call, recv, p());
        long blockBytes = (long) block * recv.type().byteSize();
        return alltoallBlocks(call, Collectives.equalBlocks(send.sendSegment(), p(), blockBytes),
                Collectives.equalBlocks(recv.receiveSegment(), p(), blockBytes), recv);
    }

    Request ialltoallv(Buffer send, int[] sendCounts, int[] sendDispls, Buffer recv, int[] recvCounts, int[] recvDispls) {
        String call = "Comm.ialltoallv";
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        blocking.requireType(call, send, recv);
        send.sendSegment();
        return alltoallBlocks(call, blocks(call, send, sendCounts, sendDispls, false),
                blocks(call, recv, recvCounts, recvDispls, true), recv);
    }

    private Request alltoallBlocks(String call, MemorySegment[] out, MemorySegment[] in, Buffer recv) {
        CollectiveSchedule s = schedule(call, recv.type(), CollectiveCheck.NONE, -1, null);
        CollectiveSchedule.Round r = s.round();
        int p = p();
        for (int k = 1; k < p; k++) {
            // spread the peers so that every rank does not start with rank 0
            int to = (me() + k) % p;
            int from = (me() - k + p) % p;
            r.recv(in[from], from).send(out[to], to);
        }
        if (in[me()].byteSize() != out[me()].byteSize()) {
            throw blocking.countError(call, "this rank sends itself " + out[me()].byteSize() + " bytes but expects "
                    + in[me()].byteSize());
        }
        MemorySegment.copy(out[me()], 0, in[me()], 0, in[me()].byteSize());
        r.then(() -> recv.received(recv.byteSize()));
        return s.start(comm, call);
    }

    // ------------------------------------------------------------------ reductions

    private void checkReduction(String call, Buffer send, Buffer work, Op op) {
        if (op == null) {
            throw new TesseraException(ErrorClass.OP, comm.where(call) + ": operation is null");
        }
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, work, true);
        blocking.requireSameShape(call, send, work);
        op.validate(work.type(), work.count(), comm, call);
    }

    /**
     * Adds the round that brings every contribution to rank 0 and combines them there, in rank
     * order, into {@code result} (rank 0 only): a0 op (a1 op (... op a(p-1))).
     */
    private void reduceToZero(CollectiveSchedule s, MemorySegment mine, MemorySegment result, int count, Datatype type, Op op) {
        CollectiveSchedule.Round r = s.round();
        if (me() != 0) {
            r.send(mine, 0);
            return;
        }
        int p = p();
        MemorySegment[] parts = new MemorySegment[p];
        parts[0] = mine;
        for (int i = 1; i < p; i++) {
            parts[i] = CollectiveChannel.scratch(mine.byteSize());
            r.recv(parts[i], i);
        }
        r.then(() -> {
            MemorySegment acc = CollectiveChannel.scratch(mine.byteSize());
            MemorySegment.copy(parts[p - 1], 0, acc, 0, acc.byteSize());
            for (int i = p - 2; i >= 0; i--) {
                op.apply(parts[i], acc, count, type);
            }
            MemorySegment.copy(acc, 0, result, 0, acc.byteSize());
        });
    }

    Request ireduce(Buffer send, Buffer recv, Op op, int root) {
        String call = "Comm.ireduce";
        comm.checkRoot(call, root);
        if (op == null) {
            throw new TesseraException(ErrorClass.OP, comm.where(call) + ": operation is null");
        }
        comm.checkBuffer(call, send, false);
        if (me() == root) {
            checkReduction(call, send, recv, op);
        } else {
            op.validate(send.type(), send.count(), comm, call);
        }
        CollectiveSchedule s = schedule(call, send.type(), send.count(), root, op);
        MemorySegment mine = send.sendSegment();
        MemorySegment result = CollectiveChannel.scratch(mine.byteSize());
        reduceToZero(s, mine, result, send.count(), send.type(), op);
        if (root != 0) {
            if (me() == 0) {
                s.round().send(result, root);
            } else if (me() == root) {
                s.round().recv(recv.receiveSegment(), 0);
            }
        }
        if (me() == root) {
            MemorySegment target = recv.receiveSegment();
            s.round().then(() -> {
                if (root == 0) {
                    MemorySegment.copy(result, 0, target, 0, target.byteSize());
                }
                recv.received(recv.byteSize());
            });
        }
        return s.start(comm, call);
    }

    Request iallreduce(Buffer send, Buffer recv, Op op) {
        String call = "Comm.iallreduce";
        checkReduction(call, send, recv, op);
        CollectiveSchedule s = schedule(call, recv.type(), recv.count(), -1, op);
        MemorySegment data = recv.receiveSegment();
        reduceToZero(s, send.sendSegment(), data, recv.count(), recv.type(), op);
        CollectiveSchedule.Round out = s.round();
        for (int i = 1; i < p() && me() == 0; i++) {
            out.send(data, i);
        }
        if (me() != 0) {
            out.recv(data, 0);
        }
        out.then(() -> recv.received(recv.byteSize()));
        return s.start(comm, call);
    }

    Request ireduceScatterBlock(Buffer send, Buffer recv, Op op) {
        String call = "Comm.ireduceScatterBlock";
        int[] counts = new int[p()];
        java.util.Arrays.fill(counts, recv.count());
        return reduceScatter(call, send, recv, counts, op);
    }

    Request ireduceScatter(Buffer send, Buffer recv, int[] recvCounts, Op op) {
        return reduceScatter("Comm.ireduceScatter", send, recv, recvCounts, op);
    }

    private Request reduceScatter(String call, Buffer send, Buffer recv, int[] counts, Op op) {
        if (op == null) {
            throw new TesseraException(ErrorClass.OP, comm.where(call) + ": operation is null");
        }
        comm.checkBuffer(call, send, false);
        comm.checkBuffer(call, recv, true);
        blocking.requireType(call, send, recv);
        if (counts == null || counts.length != p()) {
            throw new TesseraException(ErrorClass.ARG, comm.where(call) + ": recvCounts needs one entry per rank (" + p() + ")");
        }
        long total = 0;
        for (int c : counts) {
            if (c < 0) {
                throw blocking.countError(call, "negative count " + c);
            }
            total += c;
        }
        if (total != send.count() || counts[me()] != recv.count()) {
            throw blocking.countError(call, "the send buffer has " + send.count() + " elements and this rank receives "
                    + recv.count() + ", but the counts add up to " + total + " with " + counts[me()] + " for this rank");
        }
        op.validate(send.type(), send.count(), comm, call);
        CollectiveSchedule s = schedule(call, send.type(), send.count(), -1, op);
        MemorySegment whole = CollectiveChannel.scratch(send.byteSize());
        reduceToZero(s, send.sendSegment(), whole, send.count(), send.type(), op);
        long esize = send.type().byteSize();
        MemorySegment mine = recv.receiveSegment();
        CollectiveSchedule.Round out = s.round();
        if (me() == 0) {
            long at = 0;
            for (int i = 0; i < p(); i++) {
                MemorySegment block = whole.asSlice(at, counts[i] * esize);
                if (i != 0) {
                    out.send(block, i);
                }
                at += counts[i] * esize;
            }
            out.then(() -> {
                MemorySegment.copy(whole, 0, mine, 0, mine.byteSize());
                recv.received(recv.byteSize());
            });
        } else {
            out.recv(mine, 0).then(() -> recv.received(recv.byteSize()));
        }
        return s.start(comm, call);
    }

    /** Inclusive ({@code exclusive} false) or exclusive prefix reduction along the chain of ranks. */
    Request scan(Buffer send, Buffer recv, Op op, boolean exclusive) {
        String call = exclusive ? "Comm.iexscan" : "Comm.iscan";
        checkReduction(call, send, recv, op);
        CollectiveSchedule s = schedule(call, recv.type(), recv.count(), -1, op);
        MemorySegment mine = send.sendSegment();
        MemorySegment result = recv.receiveSegment();
        MemorySegment left = CollectiveChannel.scratch(mine.byteSize());
        MemorySegment onward = exclusive ? CollectiveChannel.scratch(mine.byteSize()) : result;
        int count = recv.count();
        Datatype type = recv.type();
        CollectiveSchedule.Round in = s.round();
        if (me() > 0) {
            in.recv(left, me() - 1);
        }
        in.then(() -> {
            MemorySegment.copy(mine, 0, onward, 0, mine.byteSize());
            if (me() > 0) {
                op.apply(left, onward, count, type);     // a0..a(r-1) op a(r)
                if (exclusive) {
                    MemorySegment.copy(left, 0, result, 0, left.byteSize());
                }
            }
        });
        CollectiveSchedule.Round out = s.round();
        if (me() < p() - 1) {
            out.send(onward, me() + 1);
        }
        out.then(() -> {
            if (!exclusive || me() > 0) {
                recv.received(recv.byteSize());
            }
        });
        return s.start(comm, call);
    }

    private MemorySegment[] blocks(String call, Buffer buffer, int[] counts, int[] displs, boolean receive) {
        int p = p();
        if (counts == null || displs == null || counts.length != p || displs.length != p) {
            throw new TesseraException(ErrorClass.ARG, comm.where(call) + ": counts and displs need one entry per rank ("
                    + p + ")");
        }
        long esize = buffer.type().byteSize();
        MemorySegment data = receive ? buffer.receiveSegment() : buffer.sendSegment();
        MemorySegment[] blocks = new MemorySegment[p];
        for (int i = 0; i < p; i++) {
            if (counts[i] < 0 || displs[i] < 0 || (long) displs[i] + counts[i] > buffer.count()) {
                throw blocking.countError(call, "block " + i + " (displacement " + displs[i] + ", count " + counts[i]
                        + ") lies outside the buffer of " + buffer.count() + " elements");
            }
            blocks[i] = data.asSlice(displs[i] * esize, counts[i] * esize);
        }
        return blocks;
    }
}
