package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;

/**
 * The p blocks of a v-collective buffer ({@code Gatherv}, {@code Scatterv},
 * {@code Allgatherv}, {@code Alltoallv}): block i is {@code counts[i]} items of a datatype
 * at {@code displs[i]} extents from {@code offset}. For contiguous datatypes the blocks are
 * the user's array itself; for others they are packed into a staging array (and, for a
 * receive, unpacked by {@link #finish()}).
 */
final class Blocks {

    /** The Tessera buffer and its blocks, in base elements. */
    final Buffer buffer;
    final int[] counts;
    final int[] displs;
    private final Object buf;
    private final int offset;
    private final int[] itemDispls;
    private final Datatype type;
    private final Object stage;

    Blocks(String call, String what, Object buf, int offset, int[] itemCounts, int[] itemDispls, Datatype type, int p,
           boolean send) {
        if (itemCounts == null || itemDispls == null || itemCounts.length < p || itemDispls.length < p) {
            throw new TesseraException(ErrorClass.ARG, MPI.where(call) + ": " + what + "counts and displacements need "
                    + p + " entries (one per rank)");
        }
        this.buf = buf;
        this.offset = offset;
        this.itemDispls = itemDispls;
        this.type = type;
        int size = type.size0();
        int ext = type.Extent0();
        counts = new int[p];
        displs = new int[p];
        int total = 0;
        int span = 0;
        for (int i = 0; i < p; i++) {
            if (itemDispls[i] < 0) {
                throw new TesseraException(ErrorClass.ARG, MPI.where(call) + ": " + what + "displacement " + itemDispls[i]
                        + " (block " + i + ") is negative");
            }
            counts[i] = type.checkBuffer(call, what, buf, offset + itemDispls[i] * ext, itemCounts[i]);
            displs[i] = type.contiguous ? itemDispls[i] * size : total;
            total += counts[i];
            span = Math.max(span, displs[i] + counts[i]);
        }
        if (type.contiguous && buf != null) {
            stage = null;
            buffer = Datatype.wrap(buf, offset, span);
        } else {
            stage = type.newArray(total);
            if (send) {
                for (int i = 0; i < p; i++) {
                    if (itemCounts[i] > 0) {
                        System.arraycopy(type.pack(buf, offset + itemDispls[i] * ext, itemCounts[i]), 0, stage, displs[i], counts[i]);
                    }
                }
            }
            buffer = Datatype.wrap(stage, 0, total);
        }
    }

    /** Unpacks received blocks into the user's array. */
    void finish() {
        if (stage != null) {
            for (int i = 0; i < counts.length; i++) {
                if (counts[i] > 0) {
                    type.unpack(stage, displs[i], buf, offset + itemDispls[i] * type.Extent0(), counts[i]);
                }
            }
        }
    }
}
