package dev.tessera.npb.mg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;

/**
 * The boundary between distributed and replicated levels of the MG hierarchy, for rank
 * counts whose grid has more ranks along an axis than half the points of the coarse
 * levels.
 *
 * <p>Why. The reference splits every level over all ranks; where a level has fewer
 * points than ranks along an axis, ranks fall idle there and special restriction,
 * prolongation and exchange routines move data between the active ones
 * (NPB3.4-MPI/MG/mg.f: {@code dead}, {@code give3_ex}, {@code take3_ex}, the n = 3 branches
 * of {@code rprj3} and {@code interp}). Here the coarse levels are instead <em>replicated</em>:
 * level k is distributed while every rank owns at least two points of it along every
 * axis (2^k >= 2 p_axis), and held whole by every rank below. Replicated levels cost
 * every rank the work of the whole level, which is at most (4 p_max)^3 points, tiny next
 * to the finest level; and the arithmetic on every point is the reference's, so results
 * do not change.
 *
 * <p>Down the V-cycle, the finest replicated level k is restricted from level k+1 into a
 * distributed-shaped block (each rank's share, at least one point a side), and
 * {@link #gather} assembles the whole level on every rank with one allgather. Up the
 * cycle, {@link #extract} cuts each rank's share plus its ghost layer (periodic) out of
 * the replicated level, so that the ordinary prolongation fills the distributed level k+1.
 * All blocks of a level have the same shape (power-of-two sizes over power-of-two rank
 * counts), so one allgather with equal counts suffices.
 */
final class CoarseAgglomeration {

    private final CartComm grid;
    /** The rank's block of the finest replicated level, as if it were distributed. */
    private final MgLevel share;
    /** The same level, whole. */
    private final MgLevel whole;
    private final double[] block;
    private final double[] all;

    CoarseAgglomeration(CartComm grid, MgLevel share, MgLevel whole) {
        this.grid = grid;
        this.share = share;
        this.whole = whole;
        int interior = (share.m1 - 2) * (share.m2 - 2) * (share.m3 - 2);
        this.block = new double[interior];
        this.all = new double[interior * grid.size()];
    }

    /** A block shaped like this rank's share of the level (ghosts included). */
    double[] newShare() {
        return new double[share.length()];
    }

    MgLevel share() {
        return share;
    }

    /** Assembles every rank's share interior into the whole level {@code target} and fills its periodic ghosts. */
    void gather(double[] shareBlock, double[] target) {
        int e1 = share.m1 - 2;
        int e2 = share.m2 - 2;
        int e3 = share.m3 - 2;
        int n = 0;
        for (int i3 = 1; i3 <= e3; i3++) {
            for (int i2 = 1; i2 <= e2; i2++) {
                System.arraycopy(shareBlock, (i3 * share.m2 + i2) * share.m1 + 1, block, n, e1);
                n += e1;
            }
        }
        grid.allgather(Buffer.of(block), Buffer.of(all));
        for (int r = 0; r < grid.size(); r++) {
            int[] c = grid.coords(r); // (z, y, x)
            int o3 = c[0] * e3;
            int o2 = c[1] * e2;
            int o1 = c[2] * e1;
            int at = r * block.length;
            for (int i3 = 0; i3 < e3; i3++) {
                for (int i2 = 0; i2 < e2; i2++) {
                    int dst = ((o3 + i3 + 1) * whole.m2 + (o2 + i2 + 1)) * whole.m1 + o1 + 1;
                    System.arraycopy(all, at, target, dst, e1);
                    at += e1;
                }
            }
        }
        whole.exchange(target);
    }

    /** Copies this rank's share of the whole level {@code source}, ghosts included (periodic), into {@code shareBlock}. */
    void extract(double[] source, double[] shareBlock) {
        int n = 1 << whole.k;
        for (int i3 = 0; i3 < share.m3; i3++) {
            int g3 = Math.floorMod(share.o3 + i3 - 1, n) + 1;
            for (int i2 = 0; i2 < share.m2; i2++) {
                int g2 = Math.floorMod(share.o2 + i2 - 1, n) + 1;
                int dst = (i3 * share.m2 + i2) * share.m1;
                int src = (g3 * whole.m2 + g2) * whole.m1;
                for (int i1 = 0; i1 < share.m1; i1++) {
                    shareBlock[dst + i1] = source[src + Math.floorMod(share.o1 + i1 - 1, n) + 1];
                }
            }
        }
    }
}
