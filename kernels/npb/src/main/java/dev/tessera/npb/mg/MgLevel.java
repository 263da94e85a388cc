package dev.tessera.npb.mg;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Request;
import dev.tessera.grid.BlockDecomposition;

/**
 * One rank's block of one multigrid level: its padded extents (interior + one ghost
 * layer a side), where its interior starts in the level's global grid, and the ghost
 * exchange that fills its ghosts from the periodic neighbours ({@link GhostExchange},
 * the reference's {@code comm3}).
 *
 * <p>Level k has 2^k points a side, split over the Cartesian grid's ranks in contiguous
 * blocks (MG/mg.f {@code setup}; for power-of-two sizes BlockDecomposition gives the same
 * blocks), or, for a <em>replicated</em> level, held whole by every rank (offsets 0,
 * ghosts filled by local periodic copies; see {@link CoarseAgglomeration}). {@code m1} is
 * the fastest axis (x), {@code m3} the slowest.
 */
final class MgLevel {

    final int k;
    final int m1;
    final int m2;
    final int m3;
    /** Global index of the first interior point along x, y, z. */
    final int o1;
    final int o2;
    final int o3;
    /** Whether every rank holds the whole level. */
    final boolean replicated;
    private final GhostExchange ghosts;

    /** Rank's block of level k of the grid, or the whole level if {@code replicated}. */
    MgLevel(CartComm grid, int k, boolean replicated) {
        this.k = k;
        this.replicated = replicated;
        int size = 1 << k;
        if (replicated) {
            this.m1 = size + 2;
            this.m2 = size + 2;
            this.m3 = size + 2;
            this.o1 = 0;
            this.o2 = 0;
            this.o3 = 0;
            this.ghosts = new GhostExchange(null, m1, m2, m3);
            return;
        }
        // The grid's dimensions are (z, y, x): the last is the fastest, as in the array layout.
        BlockDecomposition block = BlockDecomposition.of(new int[] {size, size, size}, grid);
        int[] e = block.extent();
        int[] off = block.offset();
        this.m3 = e[0] + 2;
        this.m2 = e[1] + 2;
        this.m1 = e[2] + 2;
        this.o3 = off[0];
        this.o2 = off[1];
        this.o1 = off[2];
        this.ghosts = new GhostExchange(grid, m1, m2, m3);
    }

    /** Doubles in the padded block. */
    int length() {
        return m1 * m2 * m3;
    }

    /** Fills every ghost of {@code x} (faces, edges, corners) from the neighbours' interiors. */
    void exchange(double[] x) {
        ghosts.exchange(x);
    }

    /** Leading axes (x; x, y; x, y, z) whose ghosts are periodic within the block ({@link GhostExchange#localLeadingAxes}). */
    int localLeadingAxes() {
        return ghosts.localLeadingAxes();
    }

    /** Fills the ghosts of {@code x} along the axes from {@code from} on, those before it being filled already. */
    void exchange(double[] x, int from) {
        ghosts.exchange(x, from);
    }

    /** Whether {@code exchange(x, from)} is the z swap alone, which {@link #startZ} and {@link #finishZ} split. */
    boolean splitsZ(int from) {
        return ghosts.splitsZ(from);
    }

    /** Starts the z swap of {@code x} (planes 1 and m3 - 2 final); see {@link GhostExchange#startZ}. */
    Request[] startZ(double[] x) {
        return ghosts.startZ(x);
    }

    /** Waits for the z swap {@link #startZ} started. */
    void finishZ(Request[] swap) {
        ghosts.finishZ(swap);
    }
}
