package dev.tessera.npb.cg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.Arrays;

/**
 * One process's share of CG's inverse power iteration: the conjugate gradient solve
 * (NPB3.4-MPI CG/cg.f: conj_grad) and the normalisation that follows it in the main loop,
 * as one parallel region of the process's team.
 *
 * <p>Vectors are 0-based and hold {@code naa + 2} elements as in the reference; the
 * process's columns are elements 0 .. cols-1, its rows 0 .. rows-1. Each member owns a
 * contiguous block of rows for the matrix-vector product and a contiguous block of columns
 * for the vector operations (the same blocks throughout, so a member mostly reads what it
 * wrote). Rows that form a symmetric diagonal block of A (the process's own columns; all of
 * them at one process) are multiplied through their upper triangle ({@link CgUpperHalf}),
 * split among the members by stored elements, each into its own accumulator (see
 * {@link #product}). At one process of two members, the product is {@link CgMemberPair}'s
 * instead (the upper half split into the members' two diagonal blocks and two shares of the
 * block between them, so each member's random accesses stay in its own half of the vectors).
 * At two processes of one member each, the product is
 * {@link CgRankPair}'s instead (every element stored once between the two processes). A dot
 * product is a member-order sum of the members' partial sums, then a butterfly over the
 * process row ({@link CgGrid#reduceExchProc}); the row reduction and transpose exchange of a
 * product move whole vector pieces. Only member 0 (the process's
 * own thread, as FUNNELED requires) communicates; the other members wait at the barrier
 * that follows. Barriers separate every write of a vector from reads of it by other
 * members: after the update of p (the product reads all of p), after a product (the
 * exchange reads all of w), after an exchange, and inside every reduction.
 */
final class CgSolver {

    private static final int CGITMAX = 25;
    /**
     * {@code -Dtessera.npb.cg.pairProduct.off=true}: at two processes, cg.f's product (each
     * off-diagonal element stored on both processes) instead of {@link CgRankPair}; for comparison.
     */
    static final String CG_PAIR_OFF = "tessera.npb.cg.pairProduct.off";
    /**
     * {@code -Dtessera.npb.cg.pairFold.off=true}: with {@link CgRankPair}'s product, four waits
     * per CG iteration (product's two exchanges, then the two dot products) instead of two; for comparison.
     */
    static final String CG_FOLD_OFF = "tessera.npb.cg.pairFold.off";
    /**
     * {@code -Dtessera.npb.cg.memberPair.off=true}: at one process of two members, the product
     * through the whole upper half split by rows ({@link CgUpperHalf#balancedRows}) instead of
     * {@link CgMemberPair}'s; for comparison.
     */
    static final String CG_MEMBER_PAIR_OFF = "tessera.npb.cg.memberPair.off";
    /**
     * {@code -Dtessera.npb.cg.messageWarmUp.off=true}: with {@link CgRankPair}'s product, no
     * untimed message rounds after the warm-up iterations ({@link #warmUpMessages}) and no wait for
     * the JIT before the timer; for comparison.
     */
    static final String CG_MESSAGE_WARM_UP_OFF = "tessera.npb.cg.messageWarmUp.off";
    /** Doubles between two members' partial sums: one cache line each. */
    private static final int PAD = 8;

    private final Comm world;
    private final Team team;
    private final CgGrid grid;
    private final double[] a;
    private final int[] colidx;
    private final int[] rowstr;
    /**
     * The rows of the block that are this process's own columns (local rows halfOffset ..
     * halfOffset + cols - 1, a symmetric diagonal block of A) as diagonal and upper triangle,
     * or null. The other rows use a, colidx, rowstr.
     */
    private final CgUpperHalf half;
    private final int halfOffset;
    /** At two processes of one member: the product with every element stored once between them, or null. */
    private final CgRankPair pair;
    /** With {@link #pair}: whether its exchanges are folded into the dot products ({@link CgRankPair#multiplyDot}). */
    private final boolean folded;
    /** At one process of two members: the product split as between two processes, or null. */
    private final CgMemberPair memberPair;
    /** With {@link #half} and several members: member m's share of the half's product, rows halfRows[m] on. */
    private final double[][] accumulators;
    /** First row of each member's part of the product with {@link #half} (members + 1 bounds). */
    private final int[] halfRows;
    private final int naa;
    private final int rows;
    private final int cols;
    private final double[] x;
    private final double[] z;
    private final double[] p;
    private final double[] q;
    private final double[] r;
    private final double[] w;

    private final double[] partials;
    /** Results of the last reduction, written by member 0 before a barrier, read by all after it. */
    private final double[] shared = new double[2];
    private final double[] sendScalars = new double[2];
    private final double[] recvScalars = new double[2];
    private final Buffer sendOne;
    private final Buffer recvOne;
    private final Buffer sendTwo;
    private final Buffer recvTwo;
    private final Buffer[] reduceSendW;
    private final Buffer[] reduceRecvQ;
    private final Buffer[] reduceRecvR;
    private final Buffer exchangeSendW;
    private final Buffer exchangeRecvQ;
    private final Buffer exchangeRecvR;
    private double rnorm;
    /** Barriers each member passed in the current region (see {@link #evenOut}). */
    private final int[] barriersPassed;
    /** Which half of the second part of {@link #partials} each member's next one-barrier sum uses. */
    private final int[] halves;

    CgSolver(Comm world, Team team, CgGrid grid, CgMatrix matrix, int naa) {
        this.world = world;
        this.team = team;
        this.grid = grid;
        this.naa = naa;
        this.rows = grid.rows();
        this.cols = grid.cols();
        // The block's columns inside its rows (every process at np = 1 and 2): those rows form a
        // symmetric diagonal block of A.
        boolean diagonalBlock = grid.firstcol >= grid.firstrow && grid.lastcol <= grid.lastrow;
        this.halfOffset = grid.firstcol - grid.firstrow;
        this.half = diagonalBlock ? CgUpperHalf.of(matrix, halfOffset, cols) : null;
        // Two processes of one member each: every element stored once between them (the same number of
        // processes and members on both, so both take part in the collective create or neither does).
        this.pair = world.size() == 2 && team.size() == 1 && !Boolean.getBoolean(CG_PAIR_OFF)
                ? CgRankPair.create(world, grid, matrix, half) : null;
        this.folded = pair != null && !Boolean.getBoolean(CG_FOLD_OFF);
        // The compressed rows are kept only for rows the half does not cover (none at np = 1).
        boolean allRowsInHalf = pair != null || half != null && half.n == rows;
        this.a = allRowsInHalf ? null : matrix.a;
        this.colidx = allRowsInHalf ? null : matrix.colidx;
        this.rowstr = allRowsInHalf ? null : matrix.rowstr;
        // One process of two members whose vector blocks are the split's two halves.
        this.memberPair = half != null && half.n == rows && half.n == cols && grid.l2npcols == 0
                && team.size() == 2 && !Boolean.getBoolean(CG_MEMBER_PAIR_OFF)
                ? CgMemberPair.of(half, block(cols, 1, 2)) : null;
        if (half != null) {
            this.halfRows = half.balancedRows(team.size());
            this.accumulators = new double[team.size() > 1 && memberPair == null ? team.size() : 0][];
            for (int m = 0; m < accumulators.length; m++) {
                accumulators[m] = new double[cols];
            }
        } else {
            this.halfRows = null;
            this.accumulators = null;
        }
        int length = Math.max(naa, Math.max(rows, cols)) + 2;
        x = new double[length];
        z = new double[length];
        p = new double[length];
        q = new double[length];
        r = new double[length];
        w = new double[length];
        partials = new double[team.size() * PAD * 4];
        barriersPassed = new int[team.size() * PAD];
        halves = new int[team.size() * PAD];
        sendOne = Buffer.of(sendScalars, 0, 1);
        recvOne = Buffer.of(recvScalars, 0, 1);
        sendTwo = Buffer.of(sendScalars, 0, 2);
        recvTwo = Buffer.of(recvScalars, 0, 2);
        int l2 = grid.l2npcols;
        reduceSendW = new Buffer[l2];
        reduceRecvQ = new Buffer[l2];
        reduceRecvR = new Buffer[l2];
        for (int i = 0; i < l2; i++) {
            reduceSendW[i] = Buffer.of(w, grid.reduceSendStarts[i] - 1, grid.reduceSendLengths[i]);
            reduceRecvQ[i] = Buffer.of(q, grid.reduceRecvStarts[i] - 1, grid.reduceRecvLengths[i]);
            reduceRecvR[i] = Buffer.of(r, grid.reduceRecvStarts[i] - 1, grid.reduceRecvLengths[i]);
        }
        exchangeSendW = Buffer.of(w, grid.sendStart - 1, grid.sendLen);
        exchangeRecvQ = Buffer.of(q, 0, grid.exchRecvLength);
        exchangeRecvR = Buffer.of(r, 0, grid.exchRecvLength);
    }

    /**
     * Untimed, at two processes with {@link CgRankPair}'s product: {@code rounds} CG
     * iterations' messages without their arithmetic ({@link CgRankPair#warmUpMessages}); x,
     * z, p, q, r and w are not changed. Returns the rounds run: 0 without the pair product,
     * or with {@code -Dtessera.npb.cg.messageWarmUp.off=true}. Collective over the process row.
     */
    int warmUpMessages(int rounds) {
        if (pair == null || Boolean.getBoolean(CG_MESSAGE_WARM_UP_OFF)) {
            return 0;
        }
        pair.warmUpMessages(x, rounds);
        return rounds;
    }

    /** Whether the product is {@link CgRankPair}'s. */
    boolean pairProduct() {
        return pair != null;
    }

    /** Whether the product is {@link CgMemberPair}'s. */
    boolean memberPairProduct() {
        return memberPair != null;
    }

    /** Rows of the block whose product uses the upper triangle ({@link CgUpperHalf}); 0 if none. */
    int upperHalfRows() {
        return half == null ? 0 : half.n;
    }

    /** x = (1, ..., 1), the start of the power iteration. */
    void resetX() {
        Arrays.fill(x, 0, naa + 1, 1.0);
    }

    /** ||x - A z|| of the last solve. */
    double rnorm() {
        return rnorm;
    }

    /**
     * One step of the inverse power method: z = A^-1 x by 25 CG iterations, zeta = shift +
     * 1 / (x . z), x = z / ||z||. Returns zeta (the same on every process).
     */
    double iterate(double shift) {
        team.region(ctx -> step(ctx, ctx.id(), ctx.size()));
        rnorm = Math.sqrt(shared[1]);
        return shift + 1.0 / shared[0];
    }

    private static int block(int n, int id, int members) {
        return (int) ((long) n * id / members);
    }

    private void step(TeamContext ctx, int id, int members) {
        int c0 = block(cols, id, members);
        int c1 = block(cols, id + 1, members);
        int r0 = block(rows, id, members);
        int r1 = block(rows, id + 1, members);
        int all = naa + 1;
        int v0 = block(all, id, members);
        int v1 = block(all, id + 1, members);
        int wide = Math.max(rows, cols);
        int w0 = block(wide, id, members);
        int w1 = block(wide, id + 1, members);
        double[] x = this.x;
        double[] z = this.z;
        double[] p = this.p;
        double[] q = this.q;
        double[] r = this.r;
        double[] w = this.w;

        // conj_grad: q = z = w = 0, r = p = x; rho = r.r (r = x, read from x to need no barrier here).
        for (int j = v0; j < v1; j++) {
            q[j] = 0.0;
            z[j] = 0.0;
            double xj = x[j];
            r[j] = xj;
            p[j] = xj;
            w[j] = 0.0;
        }
        double rho = allSum(ctx, id, members, dot(x, x, c0, c1));

        for (int cgit = 1; cgit <= CGITMAX; cgit++) {
            if (pair != null && folded) {
                // Two waits that can hold a process up per iteration instead of four: the product's
                // partial sums travel with p.q; r's elements that the other process's share reads
                // leave at r.r and are waited for after the next diagonal product (CgRankPair).
                double d = pair.multiplyDot(p, q, cgit == 1);
                double alpha = rho / d;
                double rho0 = rho;
                rho = pair.residualSum(updateZR(z, r, p, q, alpha, c0, c1), r);
                double beta = rho / rho0;
                updateP(p, r, beta, c0, c1);
                pair.advanceDirection(beta);
                continue;
            }
            // q = A.p: local product into w, then row reduction and transpose into q.
            product(ctx, id, members, p, q, reduceRecvQ, exchangeRecvQ, r0, r1, c0, c1);
            if (pair == null && (half == null || grid.l2npcols > 0)) {
                Arrays.fill(w, w0, w1, 0.0);
            }
            double d = allSum(ctx, id, members, dot(p, q, c0, c1));
            double alpha = rho / d;
            double rho0 = rho;

            rho = allSum(ctx, id, members, updateZR(z, r, p, q, alpha, c0, c1));
            double beta = rho / rho0;

            updateP(p, r, beta, c0, c1);
            barrier(ctx, members);
        }

        // ||r|| = ||x - A.z||: r = A.z by the same product and exchanges.
        product(ctx, id, members, z, r, reduceRecvR, exchangeRecvR, r0, r1, c0, c1);
        double sum = 0.0;
        for (int j = c0; j < c1; j++) {
            double d = x[j] - r[j];
            sum += d * d;
        }
        double residual = allSum(ctx, id, members, sum);

        // Main loop of cg.f: (x.z, z.z) summed over the process row, then x = z / ||z||.
        double xz = 0.0;
        double zz = 0.0;
        for (int j = c0; j < c1; j++) {
            xz += x[j] * z[j];
            zz += z[j] * z[j];
        }
        allSum2(ctx, id, members, xz, zz);
        double norm = 1.0 / Math.sqrt(shared[1]);
        double xzTotal = shared[0];
        for (int j = c0; j < c1; j++) {
            x[j] = norm * z[j];
        }
        barrier(ctx, members);
        if (id == 0) {
            shared[0] = xzTotal;
            shared[1] = residual;
        }
        evenOut(ctx, members);
    }

    // The loops of the CG iteration as small methods of their own: the JIT compiles each one whole
    // after a few calls, instead of replacing the loops of the large region method on the stack
    // one by one (which, with two members and a JIT competing for the two cores, kept the first
    // timed iterations in slower code).

    private static double dot(double[] u, double[] v, int from, int to) {
        double sum = 0.0;
        for (int j = from; j < to; j++) {
            sum += u[j] * v[j];
        }
        return sum;
    }

    /** z += alpha p, r -= alpha q over [from, to); returns the block's r.r. */
    private static double updateZR(double[] z, double[] r, double[] p, double[] q, double alpha, int from, int to) {
        double sum = 0.0;
        for (int j = from; j < to; j++) {
            z[j] += alpha * p[j];
            double rj = r[j] - alpha * q[j];
            r[j] = rj;
            sum += rj * rj;
        }
        return sum;
    }

    /** p = r + beta p over [from, to). */
    private static void updateP(double[] p, double[] r, double beta, int from, int to) {
        for (int j = from; j < to; j++) {
            p[j] = r[j] + beta * p[j];
        }
    }

    /**
     * out[j] = sum over row j of a(j, k) v(k), rows [from, to). Four partial sums per row (the
     * elements k mod 4) cut the chain of dependent additions that limits the loop; the
     * rounding differs from the reference's one running sum by a few ulps, far inside the
     * verification's 1e-10.
     */
    private void multiply(double[] v, double[] out, int from, int to) {
        int[] rowstr = this.rowstr;
        double[] a = this.a;
        int[] colidx = this.colidx;
        for (int j = from; j < to; j++) {
            double s0 = 0.0;
            double s1 = 0.0;
            double s2 = 0.0;
            double s3 = 0.0;
            int k = rowstr[j];
            int end = rowstr[j + 1];
            for (int last = end - 3; k < last; k += 4) {
                s0 += a[k] * v[colidx[k]];
                s1 += a[k + 1] * v[colidx[k + 1]];
                s2 += a[k + 2] * v[colidx[k + 2]];
                s3 += a[k + 3] * v[colidx[k + 3]];
            }
            for (; k < end; k++) {
                s0 += a[k] * v[colidx[k]];
            }
            out[j] = (s0 + s1) + (s2 + s3);
        }
    }

    /**
     * target = A v over this process row, the block [c0, c1) of it on every member on return.
     *
     * <p>Without {@link #half}: each member computes its rows [r0, r1) into w, then the row
     * reduction and transpose ({@link #exchange}). With it, the half's rows (the process's own
     * columns) go through the upper triangle and the other rows (none at one process) through
     * the compressed rows, split among the members separately. One member writes the half's
     * rows straight into w (at one process: straight into target, no exchange needed). Several:
     * each member computes its share of the half's rows into its own accumulator (its rows'
     * sums, and its elements' contributions to later rows, which other members own: so no
     * member writes another's data), then after a barrier sums the accumulators in member
     * order over its block [c0, c1) of the half, the same bits whatever the timing. The
     * accumulators are zeroed again only at the next product, after at least one more barrier
     * (a reduction's), so nobody is still reading them.
     */
    private void product(TeamContext ctx, int id, int members, double[] v, double[] target, Buffer[] reduceRecv,
            Buffer exchangeRecv, int r0, int r1, int c0, int c1) {
        if (pair != null) {
            pair.multiply(v, target);
            return;
        }
        if (memberPair != null) {
            // Each member's block [c0, c1) is its half of the split; the barrier publishes the
            // partial sums for the other member's rows. The next reuse of them is a product
            // later, after the reductions' barriers, so no member overwrites sums still read.
            memberPair.multiply(id, v, target);
            barrier(ctx, members);
            memberPair.merge(id, target);
            return;
        }
        if (half == null) {
            multiply(v, w, r0, r1);
            exchange(ctx, id, members, target, reduceRecv, exchangeRecv, c0, c1);
            return;
        }
        boolean local = grid.l2npcols == 0;
        double[] out = local ? target : w;
        int h0 = halfOffset;
        if (!local) {
            // The other rows [0, h0) and [h0 + cols, rows), numbered 0 .. rest-1 and split evenly.
            int rest = rows - cols;
            int e0 = block(rest, id, members);
            int e1 = block(rest, id + 1, members);
            multiply(v, w, e0, Math.min(e1, h0));
            multiply(v, w, Math.max(e0, h0) + cols, Math.max(e1, h0) + cols);
        }
        if (members == 1) {
            half.multiply(v, out, h0, 0, cols);
        } else {
            half.multiply(v, accumulators[id], halfRows[id], halfRows[id + 1]);
            barrier(ctx, members);
            double[] first = accumulators[0];
            System.arraycopy(first, c0, out, h0 + c0, c1 - c0);
            for (int m = 1; m < members; m++) {
                double[] acc = accumulators[m];
                for (int j = Math.max(c0, halfRows[m]); j < c1; j++) {
                    out[h0 + j] += acc[j];
                }
            }
        }
        if (!local) {
            exchange(ctx, id, members, target, reduceRecv, exchangeRecv, c0, c1);
        }
    }

    /**
     * After a product into w: sums w across the process row and moves it to the column
     * distribution in {@code target} (member 0, through the network), or with one process
     * column copies it (every member its block). Barriers before and after.
     */
    private void exchange(TeamContext ctx, int id, int members, double[] target, Buffer[] reduceRecv,
            Buffer exchangeRecv, int c0, int c1) {
        if (grid.l2npcols == 0) {
            // One process column: rows and columns coincide, so the member that computed w[c0, c1)
            // copies it and is also the only one to read it next; no barrier needed.
            System.arraycopy(w, c0, target, c0, c1 - c0);
            return;
        }
        barrier(ctx, members);
        if (id == 0) {
            double[] w = this.w;
            for (int i = grid.l2npcols - 1; i >= 0; i--) {
                int partner = grid.reduceExchProc[i];
                Request request = world.irecv(reduceRecv[i], partner, i + 1);
                Request sent = world.isend(reduceSendW[i], partner, i + 1);
                request.await();
                sent.await();
                int from = grid.sendStart - 1;
                int to = from + grid.reduceRecvLengths[i];
                for (int j = from; j < to; j++) {
                    w[j] += target[j];
                }
            }
            if (grid.exchProc == grid.me) {
                // Own transpose partner (both processes at np = 2, the diagonal ones of a square grid): a copy.
                System.arraycopy(w, grid.sendStart - 1, target, 0, grid.sendLen);
            } else {
                Request request = world.irecv(exchangeRecv, grid.exchProc, 1);
                Request sent = world.isend(exchangeSendW, grid.exchProc, 1);
                request.await();
                sent.await();
            }
        }
        barrier(ctx, members);
    }

    private void barrier(TeamContext ctx, int members) {
        if (members > 1) {
            ctx.barrier();
            barriersPassed[ctx.id() * PAD]++;
        }
    }

    /**
     * Ends a region after an even number of barriers. Team's barrier keeps its shared sense
     * from one region to the next while every member's own sense restarts at false, so a
     * region that passed an odd number of barriers leaves the next region's first barrier
     * open (or hangs it); reported to the framework, worked around here.
     */
    private void evenOut(TeamContext ctx, int members) {
        if ((barriersPassed[ctx.id() * PAD] & 1) == 1) {
            barrier(ctx, members);
        }
        barriersPassed[ctx.id() * PAD] = 0;
    }

    /**
     * The sum of every member's {@code value} over this process row, on every member. With one
     * process column there is nothing to communicate: every member adds the partial sums
     * itself, in member order (so all get the same bits), after one barrier; the partial sums
     * alternate between two halves of the array, so a member that runs ahead into the next
     * reduction never overwrites a sum another member is still reading (to reuse a half it
     * must first pass the next reduction's barrier, which waits for the readers). Otherwise
     * member 0 adds and communicates between two barriers.
     */
    private double allSum(TeamContext ctx, int id, int members, double value) {
        if (members == 1) {
            return rowSum(value);
        }
        if (grid.l2npcols == 0) {
            int half = halves[id * PAD];
            halves[id * PAD] = half ^ 1;
            int base = (2 + half) * members * PAD;
            partials[base + id * PAD] = value;
            barrier(ctx, members);
            double s = 0.0;
            for (int m = 0; m < members; m++) {
                s += partials[base + m * PAD];
            }
            return s;
        }
        partials[id * PAD] = value;
        barrier(ctx, members);
        if (id == 0) {
            double s = 0.0;
            for (int m = 0; m < members; m++) {
                s += partials[m * PAD];
            }
            shared[0] = rowSum(s);
        }
        barrier(ctx, members);
        return shared[0];
    }

    /** Two sums at once into shared[0], shared[1] (the main loop's x.z and z.z). */
    private void allSum2(TeamContext ctx, int id, int members, double first, double second) {
        partials[id * PAD] = first;
        partials[id * PAD + 1] = second;
        barrier(ctx, members);
        if (id == 0) {
            double s1 = 0.0;
            double s2 = 0.0;
            for (int m = 0; m < members; m++) {
                s1 += partials[m * PAD];
                s2 += partials[m * PAD + 1];
            }
            for (int i = 0; i < grid.l2npcols; i++) {
                int partner = grid.reduceExchProc[i];
                sendScalars[0] = s1;
                sendScalars[1] = s2;
                Request request = world.irecv(recvTwo, partner, i + 1);
                world.send(sendTwo, partner, i + 1);
                request.await();
                s1 += recvScalars[0];
                s2 += recvScalars[1];
            }
            shared[0] = s1;
            shared[1] = s2;
        }
        barrier(ctx, members);
    }

    /** Butterfly sum over the process row (member 0 only). */
    private double rowSum(double value) {
        double s = value;
        for (int i = 0; i < grid.l2npcols; i++) {
            int partner = grid.reduceExchProc[i];
            sendScalars[0] = s;
            Request request = world.irecv(recvOne, partner, i + 1);
            world.send(sendOne, partner, i + 1);
            request.await();
            s += recvScalars[0];
        }
        return s;
    }
}
