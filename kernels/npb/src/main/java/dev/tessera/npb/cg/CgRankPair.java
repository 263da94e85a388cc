package dev.tessera.npb.cg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import java.util.Arrays;

/**
 * CG's matrix-vector product at two processes with every element of A stored once between
 * them, as one process stores it at np = 1 ({@link CgUpperHalf}).
 *
 * <p>At np = 2 the reference's grid is one process row of two columns (NPB3.4-MPI CG/cg.f:
 * setup_proc_info): process k holds all rows of its column block k, that is its diagonal
 * block A(k, k) and the off-diagonal block A(1-k, k); the two off-diagonal blocks are each
 * other's transposes (A is symmetric, {@link CgUpperHalf}), so cg.f multiplies that part of
 * A twice per product, and its products read 3/8 of A per process against 1/2 for one
 * process: a speed-up of 4/3 at most. Here each process multiplies its diagonal block
 * through its upper half and one share of the off-diagonal elements, each used twice (its
 * row sum for the other process's rows, its transpose for the process's own). With B =
 * A(0, 1) (rows of block 0, columns of block 1), an element (i, j) of B is taken by process
 * 0 (from its rows j of A(1, 0) = B^T) if j is below a split column s of block 1, by process
 * 1 (from its rows i of B) otherwise; s gives both processes about the same number of
 * stored elements. Each product reads 1/4 of A per process, and makes two exchanges
 * instead of cg.f's one: the vector elements the other process's share needs (before), the
 * partial sums for the other process's rows (after). The sums run in another order than
 * cg.f's; the results differ by rounding only, far inside the verification's 1e-10.
 *
 * <p>Inside CG's iteration the solver folds these exchanges into its two dot products
 * ({@link #multiplyDot}, {@link #residualSum}, {@link #advanceDirection}): the partial sums
 * travel with p.q; the elements of r that the other process's share reads are sent at r.r
 * and waited for after the next diagonal product (hidden behind it, as the p exchange was),
 * and each process computes the other's p = r + beta p itself (the same operations on the
 * same bits). Two waits that can hold a process up per iteration instead of four
 * ({@link #multiply}'s two and the two dot products').
 *
 * <p>Built by {@link #create}, collectively, on one member per process; used only with one
 * team member (the product is not split among members).
 */
final class CgRankPair {

    private static final int TAG_SETUP = 20;
    private static final int TAG_VECTOR = 21;
    private static final int TAG_SUMS = 22;
    private static final int TAG_RESIDUAL = 23;
    private static final int TAG_RHO = 24;

    private final Comm world;
    private final int partner;
    private final CgUpperHalf half;
    /** The process's share of the off-diagonal elements: rows of the other block, own (local) columns. */
    private final int[] rowstr;
    private final int[] colidx;
    private final double[] a;
    /** The own vector elements [0, sendLength) that the other process's share reads. */
    private final int sendLength;
    /** The other process's vector elements this share reads, one per row of the share. */
    private final double[] otherV;
    /**
     * Element 0: this process's part of p.q in {@link #multiplyDot}; elements 1 on: the share's
     * row sums, partial sums for the other process's rows.
     */
    private final double[] otherSums;
    /** The other process's message of the same shape: its part of p.q, then its partial sums for own columns. */
    private final double[] receivedSums;
    /** This process's r.r, and the other's ({@link #residualSum}). */
    private final double[] rhoOut = new double[1];
    private final double[] rhoIn = new double[1];
    /** The other process's r elements that the share reads ({@link #residualSum}). */
    private final double[] residualIn;
    private final Buffer otherVIn;
    private final Buffer otherSumsOut;
    private final Buffer receivedSumsIn;
    private final Buffer sumsOnlyOut;
    private final Buffer sumsOnlyIn;
    private final Buffer rhoOutBuffer;
    private final Buffer rhoInBuffer;
    private final Buffer residualInBuffer;
    /** The exchange of r elements that {@link #residualSum} started, or null; and the beta to apply with them. */
    private Request residualArriving;
    private Request residualLeaving;
    private double pendingBeta;

    private CgRankPair(Comm world, CgUpperHalf half, int[] rowstr, int[] colidx, double[] a, int sendLength,
            int receivedLength) {
        this.world = world;
        this.partner = 1 - world.rank();
        this.half = half;
        this.rowstr = rowstr;
        this.colidx = colidx;
        this.a = a;
        this.sendLength = sendLength;
        int shareRows = rowstr.length - 1;
        this.otherV = new double[shareRows];
        this.otherSums = new double[1 + shareRows];
        this.receivedSums = new double[1 + receivedLength];
        this.residualIn = new double[shareRows];
        this.otherVIn = Buffer.of(otherV);
        this.otherSumsOut = Buffer.of(otherSums);
        this.receivedSumsIn = Buffer.of(receivedSums);
        this.sumsOnlyOut = Buffer.of(otherSums, 1, shareRows);
        this.sumsOnlyIn = Buffer.of(receivedSums, 1, receivedLength);
        this.rhoOutBuffer = Buffer.of(rhoOut);
        this.rhoInBuffer = Buffer.of(rhoIn);
        this.residualInBuffer = Buffer.of(residualIn);
    }

    /** Stored elements per process: its upper half's, and its share of the off-diagonal ones. */
    long storedElements() {
        return (long) half.rowstr[half.n] + rowstr[rowstr.length - 1];
    }

    /**
     * The two processes' shares, or null on both if the product cannot be split this way (not
     * two processes, a diagonal block without a symmetric pattern, or off-diagonal blocks whose
     * patterns are not each other's transposes, as far as each row's count of elements and the
     * sums of their column numbers and of the squares tell);
     * the solver then keeps cg.f's product. Collective over the two processes of {@code world}.
     */
    static CgRankPair create(Comm world, CgGrid grid, CgMatrix matrix, CgUpperHalf half) {
        if (world.size() != 2 || grid.nprows != 1) {
            return null;
        }
        int me = world.rank();
        int rows = grid.rows();
        int cols = grid.cols();
        // The rows of the other column block: after the own ones on process 0, before them on process 1.
        int otherFirst = me == 0 ? cols : 0;
        int otherRows = rows - cols;
        int[] fr = matrix.rowstr;
        int[] fc = matrix.colidx;
        if (me == 1) {
            // Tell process 0 the upper half's size and a summary of each column of B (its rows of B^T):
            // the number of elements, the sum of their row numbers and of the squares; it chooses s.
            long[] info = new long[1 + 3 * cols];
            info[0] = half == null ? -1 : half.rowstr[half.n];
            for (int r = otherFirst; r < otherFirst + otherRows; r++) {
                for (int k = fr[r]; k < fr[r + 1]; k++) {
                    int at = 1 + 3 * fc[k];
                    info[at]++;
                    info[at + 1] += r;
                    info[at + 2] += (long) r * r;
                }
            }
            world.send(Buffer.of(info), 0, TAG_SETUP);
            int[] split = new int[1];
            world.recv(Buffer.of(split), 0, TAG_SETUP);
            int s = split[0];
            if (s < 0) {
                return null;
            }
            // Rows i of B (all of block 0's rows), only the columns j >= s.
            int kept = 0;
            for (int k = fr[otherFirst]; k < fr[otherFirst + otherRows]; k++) {
                if (fc[k] >= s) {
                    kept++;
                }
            }
            int[] rowstr = new int[otherRows + 1];
            int[] colidx = new int[kept];
            double[] a = new double[kept];
            int q = 0;
            for (int r = 0; r < otherRows; r++) {
                rowstr[r] = q;
                for (int k = fr[otherFirst + r]; k < fr[otherFirst + r + 1]; k++) {
                    if (fc[k] >= s) {
                        colidx[q] = fc[k];
                        a[q] = matrix.a[k];
                        q++;
                    }
                }
            }
            rowstr[otherRows] = q;
            return new CgRankPair(world, half, rowstr, colidx, a, s, s);
        }
        long[] info = new long[1 + 3 * otherRows];
        world.recv(Buffer.of(info), 1, TAG_SETUP);
        int s = half == null || info[0] < 0 ? -1 : split(half, info, matrix, otherFirst, otherRows);
        world.send(Buffer.of(new int[] {s}), 1, TAG_SETUP);
        if (s < 0) {
            return null;
        }
        // Rows j < s of A(1, 0) = B^T, whole.
        int from = fr[otherFirst];
        int to = fr[otherFirst + s];
        int[] rowstr = new int[s + 1];
        for (int r = 0; r <= s; r++) {
            rowstr[r] = fr[otherFirst + r] - from;
        }
        int[] colidx = Arrays.copyOfRange(fc, from, to);
        double[] a = Arrays.copyOfRange(matrix.a, from, to);
        return new CgRankPair(world, half, rowstr, colidx, a, cols, cols);
    }

    /**
     * Process 0's choice of s: -1 if process 1's summaries of B's columns differ from those of
     * process 0's rows of B^T (the blocks are not each other's transposes); otherwise the first
     * s at which process 0's elements (its upper half's, B's columns below s) reach process
     * 1's (its upper half's, B's columns from s on), each row counted as 4 elements more for
     * its loop (process 1 loops over all of block 0's rows, process 0 over s of block 1's).
     */
    private static int split(CgUpperHalf half, long[] info, CgMatrix matrix, int otherFirst, int otherRows) {
        int[] fr = matrix.rowstr;
        int[] fc = matrix.colidx;
        long total = 0;
        for (int j = 0; j < otherRows; j++) {
            long count = fr[otherFirst + j + 1] - fr[otherFirst + j];
            long sum = 0;
            long squares = 0;
            for (int k = fr[otherFirst + j]; k < fr[otherFirst + j + 1]; k++) {
                sum += fc[k];
                squares += (long) fc[k] * fc[k];
            }
            if (count != info[1 + 3 * j] || sum != info[2 + 3 * j] || squares != info[3 + 3 * j]) {
                return -1;
            }
            total += count;
        }
        long mine = (long) half.rowstr[half.n] + 4L * half.n;
        long theirs = info[0] + 4L * otherRows + 4L * half.n + total;
        int s = 0;
        while (s < otherRows && mine < theirs) {
            long length = info[1 + 3 * s];
            mine += length + 4;
            theirs -= length;
            s++;
        }
        return s;
    }

    /**
     * target[0 .. cols) = (A v) over the process's columns, v and target in the column
     * distribution (own elements 0 .. cols-1). Exchanges with the other process, which must
     * call it at the same point.
     */
    void multiply(double[] v, double[] target) {
        finishResidualExchange();
        productWhileFetching(v, target);
        share(v, target);
        exchange(sumsOnlyIn, sumsOnlyOut, TAG_SUMS);
        addReceivedSums(target);
    }

    /**
     * CG's product and the dot product that follows it, with one exchange: q[0 .. cols) = (A p)
     * over the process's columns, and p.q over both processes (the same bits on both). With
     * {@code fresh} the other process's elements of p are fetched first, as in
     * {@link #multiply}; otherwise they are the ones {@link #advanceDirection} kept up to date.
     *
     * <p>p.q is summed as each process's own part, p.(the process's q before the other's
     * partial sums are added) plus the other's elements of p times the partial sums this
     * process sends them (the other process's q.p terms that this process computed), and the
     * two parts are added. That needs no value from the other process, so the part travels
     * with the partial sums: one wait instead of cg.f's two (the product's exchange, then the
     * dot product's). The sum runs in another order than cg.f's; the results differ by
     * rounding only.
     */
    double multiplyDot(double[] p, double[] q, boolean fresh) {
        if (fresh) {
            finishResidualExchange();
            productWhileFetching(p, q);
        } else {
            half.multiply(p, q, 0, 0, half.n);
            // The r elements sent at the last r.r have had the diagonal product's time to arrive.
            finishResidualExchange();
            double beta = pendingBeta;
            double[] otherV = this.otherV;
            double[] residualIn = this.residualIn;
            for (int t = 0; t < otherV.length; t++) {
                otherV[t] = residualIn[t] + beta * otherV[t];
            }
        }
        share(p, q);
        double own = 0.0;
        for (int j = 0; j < half.n; j++) {
            own += p[j] * q[j];
        }
        double[] otherV = this.otherV;
        double[] otherSums = this.otherSums;
        double theirs = 0.0;
        for (int t = 0; t < otherV.length; t++) {
            theirs += otherV[t] * otherSums[t + 1];
        }
        double part = own + theirs;
        otherSums[0] = part;
        exchange(receivedSumsIn, otherSumsOut, TAG_SUMS);
        addReceivedSums(q);
        return part + receivedSums[0];
    }

    /**
     * r.r over both processes (the same bits on both), from this process's {@code rr}. It also
     * starts sending this process's r elements [0, sendLength) (straight from {@code r}, which
     * the caller leaves unchanged until the next product) and receiving the other process's
     * that the share reads; the next {@link #multiplyDot} waits for them only after its
     * diagonal block's product, so their transfer hides behind it as cg.f's p exchange does.
     * The wait here is for r.r alone, where cg.f also needs a second wait for p.
     */
    double residualSum(double rr, double[] r) {
        finishResidualExchange();
        residualArriving = world.irecv(residualInBuffer, partner, TAG_RESIDUAL);
        residualLeaving = world.isend(Buffer.of(r, 0, sendLength), partner, TAG_RESIDUAL);
        rhoOut[0] = rr;
        exchange(rhoInBuffer, rhoOutBuffer, TAG_RHO);
        return rr + rhoIn[0];
    }

    /**
     * The beta of the other process's update p = r + beta p, which the next
     * {@link #multiplyDot} applies to its elements of p as it does (the same operations on
     * the same bits, so the same values), with the r elements {@link #residualSum} sent.
     */
    void advanceDirection(double beta) {
        pendingBeta = beta;
    }

    /**
     * Untimed: the messages of {@code rounds} CG iterations without their arithmetic, so that
     * the JIT compiles the message path (requests, matching, the shm device's rings) to its
     * final tier before the timed part. Each round sends what an iteration sends, from the
     * same buffers: the fetch of v's elements (as the first product of a solve), the partial
     * sums with p.q, r's elements and r.r; every other round sends them before their receives
     * are posted ({@link #sentBeforeReceived}). Only receive buffers change (the other process's
     * v elements, partial sums, r elements and r.r), and each is written by its receive
     * before it is next read; the next product must be a fresh one ({@link #multiplyDot}
     * with {@code fresh}, or {@link #multiply}), as at the start of every solve. {@code v} is
     * any vector of the solver (only read). Collective over the two processes.
     *
     * <p>Why: each process's JVM sees half of the iterations' arithmetic but every message,
     * and the message path's methods are called a few times per CG iteration, so after the
     * kernel's warm-up iterations they had not reached the JIT's last tier: C1 and C2
     * compiled them inside the timed part (class A at 2 x 1: 50-70 ms of compiler-thread CPU
     * per process JVM in a 0.5 s timed part, both cores busy with the two ranks), each compile
     * taking a core from a rank that the other then waited for (docs/npb.md, stop 46).
     */
    void warmUpMessages(double[] v, int rounds) {
        finishResidualExchange();
        Buffer vOut = Buffer.of(v, 0, sendLength);
        for (int i = 0; i < rounds; i++) {
            if ((i & 1) == 0) {
                exchange(otherVIn, vOut, TAG_VECTOR);
                exchange(receivedSumsIn, otherSumsOut, TAG_SUMS);
                residualSum(0.0, v);
                finishResidualExchange();
            } else {
                sentBeforeReceived(vOut, v);
            }
        }
    }

    /**
     * Untimed: an iteration's messages in the order a process that runs ahead makes the other
     * see them. Both processes send the vector elements, the partial sums and the r elements
     * first, then exchange r.r, whose wait takes the three in as unexpected messages (none of
     * their receives is posted yet, and the pair's path holds one large message at a time, so
     * the others queue behind it); then the three receives find them there. In the timed part
     * this happens whenever one process falls behind, and without these rounds the paths it
     * takes (unexpected messages, queued sends, the shm device's cells) were first compiled
     * there: C2 compiles of 10-50 ms each inside class A's 0.28 s at 2 x 1 on shm
     * (docs/npb.md, stop 58).
     */
    private void sentBeforeReceived(Buffer vOut, double[] v) {
        Request vSent = world.isend(vOut, partner, TAG_VECTOR);
        Request sumsSent = world.isend(otherSumsOut, partner, TAG_SUMS);
        Request rSent = world.isend(Buffer.of(v, 0, sendLength), partner, TAG_RESIDUAL);
        exchange(rhoInBuffer, rhoOutBuffer, TAG_RHO);
        Request vIn = world.irecv(otherVIn, partner, TAG_VECTOR);
        Request sumsIn = world.irecv(receivedSumsIn, partner, TAG_SUMS);
        Request rIn = world.irecv(residualInBuffer, partner, TAG_RESIDUAL);
        vIn.await();
        sumsIn.await();
        rIn.await();
        vSent.await();
        sumsSent.await();
        rSent.await();
    }

    /** Waits for the r elements {@link #residualSum} sent and received, if any. */
    private void finishResidualExchange() {
        if (residualArriving != null) {
            residualArriving.await();
            residualLeaving.await();
            residualArriving = null;
            residualLeaving = null;
        }
    }

    /**
     * The diagonal block's product into target, while the other process's elements of v that
     * the share reads arrive.
     */
    private void productWhileFetching(double[] v, double[] target) {
        Request vIn = world.irecv(otherVIn, partner, TAG_VECTOR);
        Request vOut = world.isend(Buffer.of(v, 0, sendLength), partner, TAG_VECTOR);
        half.multiply(v, target, 0, 0, half.n);
        vIn.await();
        vOut.await();
    }

    /** Sends {@code out} to the other process and receives {@code in} from it (the same tag both ways). */
    private void exchange(Buffer in, Buffer out, int tag) {
        Request received = world.irecv(in, partner, tag);
        Request sent = world.isend(out, partner, tag);
        received.await();
        sent.await();
    }

    /** target[j] += the other process's partial sum for own column j. */
    private void addReceivedSums(double[] target) {
        double[] received = receivedSums;
        for (int j = 1; j < received.length; j++) {
            target[j - 1] += received[j];
        }
    }

    /**
     * The share's product: row t's sum of a(t, c) v[c] into otherSums[t + 1], and a(t, c)
     * otherV[t] added to target[c].
     */
    private void share(double[] v, double[] target) {
        int[] rowstr = this.rowstr;
        int[] colidx = this.colidx;
        double[] a = this.a;
        double[] otherV = this.otherV;
        double[] otherSums = this.otherSums;
        for (int t = 0; t < otherV.length; t++) {
            double vt = otherV[t];
            double s0 = 0.0;
            double s1 = 0.0;
            int k = rowstr[t];
            int end = rowstr[t + 1];
            for (int last = end - 1; k < last; k += 2) {
                int c0 = colidx[k];
                int c1 = colidx[k + 1];
                double a0 = a[k];
                double a1 = a[k + 1];
                s0 += a0 * v[c0];
                s1 += a1 * v[c1];
                target[c0] += a0 * vt;
                target[c1] += a1 * vt;
            }
            if (k < end) {
                int c0 = colidx[k];
                s0 += a[k] * v[c0];
                target[c0] += a[k] * vt;
            }
            otherSums[t + 1] = s0 + s1;
        }
    }
}
