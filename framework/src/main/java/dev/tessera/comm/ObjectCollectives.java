package dev.tessera.comm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BinaryOperator;

/**
 * Collectives on serializable objects, built from the buffer collectives: sizes travel
 * first, then the serialized bytes (gatherv / scatterv / allgatherv of bytes). Reductions
 * of objects gather the values and fold them in rank order, so the operator need not be
 * commutative (only associative).
 */
final class ObjectCollectives {

    private final Comm comm;

    ObjectCollectives(Comm comm) {
        this.comm = comm;
    }

    private Collectives coll() {
        return comm.collectives();
    }

    <T> List<T> gather(T value, int root, String call) {
        comm.checkRoot(call, root);
        byte[] mine = ObjectCodec.encode(value, comm.where(call));
        int p = comm.size();
        int[] sizes = new int[p];
        coll().gather(Buffer.of(new int[] {mine.length}), comm.rank() == root ? Buffer.of(sizes) : null, root);
        byte[] all = null;
        int[] displs = null;
        if (comm.rank() == root) {
            displs = displacements(sizes);
            all = new byte[displs[p - 1] + sizes[p - 1]];
        }
        coll().gatherv(Buffer.of(mine), all == null ? null : Buffer.of(all), sizes, displs, root);
        return comm.rank() == root ? decodeAll(all, sizes, displs, call) : null;
    }

    <T> List<T> allgather(T value, String call) {
        byte[] mine = ObjectCodec.encode(value, comm.where(call));
        int p = comm.size();
        int[] sizes = new int[p];
        coll().allgather(Buffer.of(new int[] {mine.length}), Buffer.of(sizes));
        int[] displs = displacements(sizes);
        byte[] all = new byte[displs[p - 1] + sizes[p - 1]];
        coll().allgatherv(Buffer.of(mine), Buffer.of(all), sizes, displs);
        return decodeAll(all, sizes, displs, call);
    }

    @SuppressWarnings("unchecked")
    <T> T scatter(List<T> values, int root, String call) {
        comm.checkRoot(call, root);
        int p = comm.size();
        int[] sizes = new int[p];
        byte[] all = null;
        int[] displs = null;
        if (comm.rank() == root) {
            Objects.requireNonNull(values, comm.where(call) + ": the root's list of values is null");
            if (values.size() != p) {
                throw coll().countError(call, "the root's list has " + values.size() + " values; it needs one per rank (" + p + ")");
            }
            byte[][] encoded = new byte[p][];
            for (int i = 0; i < p; i++) {
                encoded[i] = ObjectCodec.encode(values.get(i), comm.where(call));
                sizes[i] = encoded[i].length;
            }
            displs = displacements(sizes);
            all = new byte[displs[p - 1] + sizes[p - 1]];
            for (int i = 0; i < p; i++) {
                System.arraycopy(encoded[i], 0, all, displs[i], sizes[i]);
            }
        }
        int[] mySize = new int[1];
        coll().scatter(comm.rank() == root ? Buffer.of(sizes) : null, Buffer.of(mySize), root);
        byte[] mine = new byte[mySize[0]];
        coll().scatterv(all == null ? null : Buffer.of(all), sizes, displs, Buffer.of(mine), root);
        return (T) ObjectCodec.decode(mine, comm.where(call));
    }

    <T> T allreduce(T value, BinaryOperator<T> op, String call) {
        Objects.requireNonNull(op, comm.where(call) + ": operator is null");
        return fold(allgather(value, call), op);
    }

    <T> T reduce(T value, BinaryOperator<T> op, int root, String call) {
        Objects.requireNonNull(op, comm.where(call) + ": operator is null");
        List<T> all = gather(value, root, call);
        return all == null ? null : fold(all, op);
    }

    private static <T> T fold(List<T> values, BinaryOperator<T> op) {
        T acc = values.get(0);
        for (int i = 1; i < values.size(); i++) {
            acc = op.apply(acc, values.get(i));
        }
        return acc;
    }

    private static int[] displacements(int[] sizes) {
        int[] displs = new int[sizes.length];
        for (int i = 1; i < sizes.length; i++) {
            displs[i] = Math.addExact(displs[i - 1], sizes[i - 1]);
        }
        return displs;
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> decodeAll(byte[] all, int[] sizes, int[] displs, String call) {
        List<T> out = new ArrayList<>(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            byte[] one = new byte[sizes[i]];
            System.arraycopy(all, displs[i], one, 0, sizes[i]);
            out.add((T) ObjectCodec.decode(one, comm.where(call)));
        }
        return out;
    }
}
