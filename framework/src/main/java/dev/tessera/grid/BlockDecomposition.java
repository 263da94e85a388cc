package dev.tessera.grid;

import dev.tessera.comm.CartComm;
import java.util.Arrays;

/**
 * A global grid split into blocks over a Cartesian communicator: along each dimension
 * the n points go to the d ranks of that dimension in contiguous blocks, the first
 * n mod d ranks getting one point more.
 */
public final class BlockDecomposition {

    private final int[] global;
    private final int[] extent;
    private final int[] offset;

    private BlockDecomposition(int[] global, int[] extent, int[] offset) {
        this.global = global;
        this.extent = extent;
        this.offset = offset;
    }

    /** This rank's block of a global grid of the given extents (one per dimension of the grid). */
    public static BlockDecomposition of(int[] globalExtents, CartComm grid) {
        int[] dims = grid.dims();
        if (globalExtents.length != dims.length) {
            throw new IllegalArgumentException("grid has " + dims.length + " dimensions, global extents "
                    + Arrays.toString(globalExtents));
        }
        int[] coords = grid.coords();
        int[] extent = new int[dims.length];
        int[] offset = new int[dims.length];
        for (int d = 0; d < dims.length; d++) {
            if (globalExtents[d] < dims[d]) {
                throw new IllegalArgumentException("dimension " + d + " has " + globalExtents[d]
                        + " points for " + dims[d] + " ranks");
            }
            int base = globalExtents[d] / dims[d];
            int extra = globalExtents[d] % dims[d];
            extent[d] = base + (coords[d] < extra ? 1 : 0);
            offset[d] = coords[d] * base + Math.min(coords[d], extra);
        }
        return new BlockDecomposition(globalExtents.clone(), extent, offset);
    }

    /** Local interior extent along each dimension. */
    public int[] extent() {
        return extent.clone();
    }

    /** Global index of this block's first interior point along each dimension. */
    public int[] offset() {
        return offset.clone();
    }

    public int[] global() {
        return global.clone();
    }
}
