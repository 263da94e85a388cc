package dev.tessera.npb.mg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Request;

/**
 * Fills the one-cell ghost layer of an MG block from its periodic neighbours, as the
 * reference's {@code comm3} (NPB3.4-MPI/MG/mg.f): axis x first over the interior of y
 * and z, then y over all x (ghosts included) and the interior of z, then z over all x
 * and y, so that edge and corner ghosts arrive through two or three hops.
 *
 * <p>Along an axis with one rank (every axis on one rank) the neighbour is the block
 * itself: the ghosts are copied from the opposite interior face in place, with no
 * message and no packing (the reference's {@code comm1p}). Along an axis with more
 * ranks, both faces are packed into buffers and both swaps run at once (two receives and
 * two sends, then one wait): the upper face goes up while the lower ghost arrives from
 * below, and the lower face goes down while the upper ghost arrives from above. The
 * reference does the two directions one after the other ({@code give3}/{@code take3});
 * at once, an exchange along an axis waits for its neighbours once instead of twice.
 * Along z a face is one contiguous plane of the block, so it is sent from the block and
 * received into its ghost plane directly, without the buffers (at 2 x 1, where only z is
 * split, every exchange; the reference packs every face).
 *
 * <p>A replicated level (whole level on every rank, {@code grid == null}) is periodic in
 * place along every axis.
 *
 * <p>Block layout: {@code (i3 * m2 + i2) * m1 + i1}, i1 (x) fastest; the Cartesian grid's
 * dimensions are (z, y, x). Buffers are allocated once per level; one exchange at a time.
 */
final class GhostExchange {

    private static final int TAG_UP = 71;
    private static final int TAG_DOWN = 72;

    private final CartComm grid;
    private final int m1;
    private final int m2;
    private final int m3;
    /** Neighbour ranks below/above along x, y, z. */
    private final int[] below = new int[3];
    private final int[] above = new int[3];
    private final boolean[] local = new boolean[3];
    /** Face buffers: sent up / down, received from below / above. */
    private final double[] sendUp;
    private final double[] sendDown;
    private final double[] fromBelow;
    private final double[] fromAbove;

    /** The exchange of an m1 x m2 x m3 block of {@code grid}, or of a replicated level if {@code grid} is null. */
    GhostExchange(CartComm grid, int m1, int m2, int m3) {
        this.grid = grid;
        this.m1 = m1;
        this.m2 = m2;
        this.m3 = m3;
        if (grid == null) {
            java.util.Arrays.fill(local, true);
            this.sendUp = null;
            this.sendDown = null;
            this.fromBelow = null;
            this.fromAbove = null;
            return;
        }
        int[] dims = grid.dims();
        for (int axis = 0; axis < 3; axis++) {
            int dim = 2 - axis; // x is the grid's last dimension
            CartComm.Shift s = grid.shift(dim, 1);
            below[axis] = s.source();
            above[axis] = s.dest();
            local[axis] = dims[dim] == 1;
        }
        // z's faces go straight from and into the block (swapZ): the buffers hold x's and y's.
        int face = Math.max(m2 * m3, m1 * m3);
        this.sendUp = new double[face];
        this.sendDown = new double[face];
        this.fromBelow = new double[face];
        this.fromAbove = new double[face];
    }

    /** Fills every ghost of {@code u}. */
    void exchange(double[] u) {
        exchange(u, 0);
    }

    /**
     * Fills the ghosts of {@code u} along axes {@code from} .. 2 (0 = x), those along the axes
     * before {@code from} being filled already (by {@link MgOperators#fillPlaneGhosts}).
     */
    void exchange(double[] u, int from) {
        if (from <= 0) {
            if (local[0]) {
                periodicX(u);
            } else {
                swap(u, 0);
            }
        }
        if (from <= 1) {
            if (local[1]) {
                periodicY(u);
            } else {
                swap(u, 1);
            }
        }
        if (from <= 2) {
            if (local[2]) {
                periodicZ(u);
            } else {
                swap(u, 2);
            }
        }
    }

    /**
     * How many leading axes (x; x and y; x, y and z) are periodic within the block (one rank
     * along them), so that their ghosts can be filled plane by plane by the operator that
     * writes the block ({@link MgOperators#fillPlaneGhosts}): along z only if x and y are too.
     */
    int localLeadingAxes() {
        int n = 0;
        while (n < 3 && local[n]) {
            n++;
        }
        return n;
    }

    private void periodicX(double[] u) {
        for (int i3 = 1; i3 < m3 - 1; i3++) {
            for (int i2 = 1; i2 < m2 - 1; i2++) {
                int row = (i3 * m2 + i2) * m1;
                u[row] = u[row + m1 - 2];
                u[row + m1 - 1] = u[row + 1];
            }
        }
    }

    private void periodicY(double[] u) {
        for (int i3 = 1; i3 < m3 - 1; i3++) {
            int plane = i3 * m2 * m1;
            System.arraycopy(u, plane + (m2 - 2) * m1, u, plane, m1);
            System.arraycopy(u, plane + m1, u, plane + (m2 - 1) * m1, m1);
        }
    }

    private void periodicZ(double[] u) {
        int plane = m1 * m2;
        System.arraycopy(u, (m3 - 2) * plane, u, 0, plane);
        System.arraycopy(u, plane, u, (m3 - 1) * plane, plane);
    }

    /**
     * Swaps the faces along {@code axis} with the neighbours, both directions at once: the
     * upper interior layer goes up and the lower ghost arrives from below (TAG_UP), the
     * lower interior layer goes down and the upper ghost arrives from above (TAG_DOWN).
     * With two ranks along the axis both neighbours are the same rank; the tags keep the
     * two messages apart.
     */
    private void swap(double[] u, int axis) {
        if (axis == 2) {
            swapZ(u);
            return;
        }
        int last = axis == 0 ? m1 : axis == 1 ? m2 : m3;
        int n = pack(u, axis, last - 2, sendUp);
        pack(u, axis, 1, sendDown);
        Request fromBelowDone = grid.irecv(Buffer.of(fromBelow, 0, n), below[axis], TAG_UP);
        Request fromAboveDone = grid.irecv(Buffer.of(fromAbove, 0, n), above[axis], TAG_DOWN);
        Request upSent = grid.isend(Buffer.of(sendUp, 0, n), above[axis], TAG_UP);
        Request downSent = grid.isend(Buffer.of(sendDown, 0, n), below[axis], TAG_DOWN);
        Request.waitAll(fromBelowDone, fromAboveDone, upSent, downSent);
        unpack(u, axis, 0, fromBelow);
        unpack(u, axis, last - 1, fromAbove);
    }

    /**
     * {@link #swap} along z, where a layer is one contiguous plane of the block (ghosts
     * included): the interior planes are sent from the block and the ghost planes received
     * into it, with no face buffers. The four planes are distinct (the sends only read, and
     * with one interior plane both read the same one).
     */
    private void swapZ(double[] u) {
        finishZ(startZ(u));
    }

    /**
     * Whether the exchange of the ghosts along axes {@code from} .. 2 is the z swap alone
     * (x and y periodic within the block and filled by the operators, z split over ranks),
     * so that it can be started as soon as the block's planes 1 and m3 - 2 are written and
     * finished after the other planes ({@link #startZ}, {@link #finishZ}).
     */
    boolean splitsZ(int from) {
        return grid != null && from == 2 && local[0] && local[1] && !local[2];
    }

    /**
     * Starts the z swap of {@code u}: receives into ghost planes 0 and m3 - 1, sends of
     * interior planes 1 and m3 - 2, which must be final (their x and y ghosts included).
     * Until {@link #finishZ} the caller may write any plane but those four.
     */
    Request[] startZ(double[] u) {
        int plane = m1 * m2;
        Request fromBelowDone = grid.irecv(Buffer.of(u, 0, plane), below[2], TAG_UP);
        Request fromAboveDone = grid.irecv(Buffer.of(u, (m3 - 1) * plane, plane), above[2], TAG_DOWN);
        Request upSent = grid.isend(Buffer.of(u, (m3 - 2) * plane, plane), above[2], TAG_UP);
        Request downSent = grid.isend(Buffer.of(u, plane, plane), below[2], TAG_DOWN);
        return new Request[] {fromBelowDone, fromAboveDone, upSent, downSent};
    }

    /** Waits for the z swap {@link #startZ} started. */
    void finishZ(Request[] swap) {
        Request.waitAll(swap);
    }

    /** Copies layer {@code at} of {@code axis} into {@code sendBuf}; returns its length. */
    private int pack(double[] u, int axis, int at, double[] sendBuf) {
        int n = 0;
        switch (axis) {
            case 0 -> {
                for (int i3 = 1; i3 < m3 - 1; i3++) {
                    for (int i2 = 1; i2 < m2 - 1; i2++) {
                        sendBuf[n++] = u[(i3 * m2 + i2) * m1 + at];
                    }
                }
            }
            case 1 -> {
                for (int i3 = 1; i3 < m3 - 1; i3++) {
                    System.arraycopy(u, (i3 * m2 + at) * m1, sendBuf, n, m1);
                    n += m1;
                }
            }
            default -> {
                System.arraycopy(u, at * m1 * m2, sendBuf, 0, m1 * m2);
                n = m1 * m2;
            }
        }
        return n;
    }

    /** Copies {@code recvBuf} into layer {@code at} of {@code axis}. */
    private void unpack(double[] u, int axis, int at, double[] recvBuf) {
        int n = 0;
        switch (axis) {
            case 0 -> {
                for (int i3 = 1; i3 < m3 - 1; i3++) {
                    for (int i2 = 1; i2 < m2 - 1; i2++) {
                        u[(i3 * m2 + i2) * m1 + at] = recvBuf[n++];
                    }
                }
            }
            case 1 -> {
                for (int i3 = 1; i3 < m3 - 1; i3++) {
                    System.arraycopy(recvBuf, n, u, (i3 * m2 + at) * m1, m1);
                    n += m1;
                }
            }
            default -> System.arraycopy(recvBuf, 0, u, at * m1 * m2, m1 * m2);
        }
    }
}
