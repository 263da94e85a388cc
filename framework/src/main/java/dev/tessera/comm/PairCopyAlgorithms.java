package dev.tessera.comm;

import dev.tessera.device.DeviceRequest;
import java.lang.foreign.MemorySegment;

/**
 * Collectives of two ranks as point-to-point messages between them, for the shm device's
 * single copy of heap arrays ({@link PairCopyDecision}): each message is read once, by the
 * receiver, straight out of the sender's buffer into its destination. One static method per
 * collective; every exchange posts its receive before its send, so two ranks sending to each
 * other at once never wait on each other (the device serves the offer it receives while it
 * waits in its own).
 */
final class PairCopyAlgorithms {

    private PairCopyAlgorithms() {
    }

    /** The root sends {@code data}, the other rank receives into it. */
    static void bcast(CollectiveChannel ch, MemorySegment data, int root) {
        if (ch.rank() == root) {
            ch.send(data, 1 - root);
        } else {
            ch.recv(data, root);
        }
    }

    /**
     * Reduce to {@code root}. The other rank sends its contribution as it is; the root receives it
     * into its result ({@code data}) when it may fold its own contribution ({@code send}) into it in
     * place and keep rank order (it is the lower rank, or the operation is symmetric), else into
     * {@code scratch}, and folds in one pass. In place ({@code send} null) {@code data} holds the
     * root's contribution and the other's goes into {@code scratch}.
     */
    static void reduce(CollectiveChannel ch, MemorySegment send, MemorySegment data, int count, Op op, int root,
                       MemorySegment scratch) {
        int other = 1 - root;
        if (ch.rank() != root) {
            ch.send(data, root);
            return;
        }
        boolean otherIsLower = other < root;
        Datatype type = ch.type();
        if (send != null && (!otherIsLower || op.symmetric())) {
            ch.recv(data, other);
            op.apply(send, data, count, type);   // send op theirs: rank order when the root is 0, else symmetric
            return;
        }
        ch.recv(scratch, other);
        if (send == null) {
            AllreduceAlgorithms.combineInRankOrder(op, scratch, data, count, type, otherIsLower);
        } else if (!op.applyInto(scratch, send, data, count, type)) {
            MemorySegment.copy(send, 0, data, 0, data.byteSize());
            op.apply(scratch, data, count, type);   // theirs (rank 0) op mine
        }
    }

    /**
     * Allgather: this rank's block {@code own} goes to the other rank, whose block arrives in its
     * place of {@code data}; {@code copyOwn}: {@code own} is not already in place in {@code data}.
     */
    static void allgather(CollectiveChannel ch, MemorySegment own, MemorySegment data, boolean copyOwn) {
        int me = ch.rank();
        int other = 1 - me;
        long b = own.byteSize();
        DeviceRequest r = ch.irecv(data.asSlice(other * b, b), other);
        DeviceRequest s = ch.isend(own, other);
        if (copyOwn) {
            MemorySegment.copy(own, 0, data, me * b, b);
        }
        ch.await(s);
        ch.await(r);
    }

    /** Alltoall: the other rank's block of {@code send} goes to it, its block for this rank arrives; the own block is copied. */
    static void alltoall(CollectiveChannel ch, MemorySegment send, MemorySegment recv, long blockBytes) {
        int me = ch.rank();
        int other = 1 - me;
        DeviceRequest r = ch.irecv(recv.asSlice(other * blockBytes, blockBytes), other);
        DeviceRequest s = ch.isend(send.asSlice(other * blockBytes, blockBytes), other);
        MemorySegment.copy(send, me * blockBytes, recv, me * blockBytes, blockBytes);
        ch.await(s);
        ch.await(r);
    }
}
