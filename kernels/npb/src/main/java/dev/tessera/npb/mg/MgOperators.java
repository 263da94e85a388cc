package dev.tessera.npb.mg;

import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * The four grid operators of NPB MG (NPB3.4-MPI/MG/mg.f {@code resid}, {@code psinv},
 * {@code rprj3}, {@code interp}) and the norm, on one rank's block of one level.
 *
 * <p>Layout: a level's block is {@code m1 x m2 x m3} doubles with one ghost layer on
 * every side ({@code m = interior + 2}), index {@code (i3 * m2 + i2) * m1 + i1}, i1
 * fastest (the reference's Fortran order); interior indices run from 1 to m-2. Each
 * operator writes only interior points (interp also writes ghosts, as the reference
 * does) and leaves the ghost exchange to the caller.
 *
 * <p>Arithmetic: every formula is the reference's, term for term and in the same order,
 * including the partial sums the reference keeps in line buffers (u1/u2 in resid, r1/r2
 * in psinv, x1/y1 in rprj3, z1/z2/z3 in interp), so results agree with the reference to
 * the last bits up to the order of the final norm's reduction. Here those partial sums
 * live in registers and slide along i1 (each computed once, as with the buffers). C2
 * (JDK 25) vectorises neither form: stores to one double[] and loads from another at
 * different loop-invariant offsets might alias as far as it can prove; the sliding form
 * saves the buffers' stores and reloads (resid 25% and psinv 33% faster than the
 * two-loop form at 258^3 on one core). resid and psinv go over two x lines (i2, i2 + 1) in one
 * pass: the two lines' 27-point neighbourhoods overlap in eight lines, so each value is
 * loaded once for both (resid 14 loads per two points instead of 20, psinv 14 instead of
 * 24; resid 1.2x and psinv 1.25x faster at 258^3 on one core); a plane with an odd number
 * of interior lines does its last line alone.
 *
 * <p>Threads: every operator is split over i3 planes (coarse planes for rprj3 and
 * interp) with the static schedule; different planes write disjoint memory.
 *
 * <p>JIT: the work on one x line is a small static method ({@code residRow}, ...), called
 * once per line, and the loop over the lines of one plane another ({@code residPlane},
 * ...), called once per plane. The untimed V-cycles call them hundreds to thousands of
 * times, so C2 compiles them whole before the timer starts. The per-member lambdas, run a
 * handful of times per V-cycle, keep only the loop over planes: with the loop over lines
 * inside them too, C2 compiled resid's and psinv's lambdas only during the timed part, and
 * restrict's and interp's even after six untimed V-cycles at 2 x 1, where each rank's JVM
 * counts only its half of the iterations (class A, -Xlog:jit+compilation).
 *
 * <p>Vectors: with {@code vector} on (and the module {@code jdk.incubator.vector} in the JVM,
 * {@link MgVector}), resid and psinv run as {@link MgVectorKernels}' lanewise loops instead,
 * the reference's line-buffer form, one line at a time; the same bits.
 */
final class MgOperators {

    private final Team team;
    /** Blocks of at most this many doubles (ghosts included) are worked on by the calling thread alone. */
    private final int serialPoints;
    /** resid and psinv in {@link MgVectorKernels}' form (only where {@link MgVector#available()}). */
    private final boolean vector;
    /** Team regions started by this object's operators so far (counted by the calling thread). */
    private long regions;

    /** Scalar operators over {@code team}, every block split over its members. */
    MgOperators(Team team) {
        this(team, 0, false);
    }

    /** Scalar operators over {@code team}, blocks of at most {@code serialPoints} doubles on the caller alone. */
    MgOperators(Team team, int serialPoints) {
        this(team, serialPoints, false);
    }

    /**
     * Operators over {@code team}; an operator whose block (the larger of its two, ghosts
     * included) has at most {@code serialPoints} doubles runs on the calling thread alone,
     * with no team region. The planes are the same and each is computed the same way, so
     * the results are the same bits. {@code vector}: resid and psinv with the Vector API
     * where the JVM has it ({@link MgVector#available()}), the scalar loops otherwise.
     */
    MgOperators(Team team, int serialPoints, boolean vector) {
        this.team = team;
        this.serialPoints = serialPoints;
        this.vector = vector && MgVector.available();
    }

    /** Whether resid and psinv run in their vector form. */
    boolean vector() {
        return vector;
    }

    /** Team regions per round of {@link #warmTeam}: resid, psinv, rprj3, interp (zeroing, then adding), the norm. */
    static final int WARM_REGIONS_PER_ROUND = 6;

    /** Team regions this object's operators have started (a block worked on serially starts none). */
    long regions() {
        return regions;
    }

    /**
     * Runs every operator's team region {@code rounds} times on scratch blocks of 16^3 and 8^3
     * interior points (lines of 18 doubles: the same length modulo 8 lanes as class A's 258),
     * with a team of two or more members, and returns the number of team regions it ran (0 with
     * one member). Why: a V-cycle starts about 30 team regions, so the six untimed V-cycles call
     * the team's dispatch path (the members' lambdas, the plane loops {@code residPlanes} and
     * its kind, {@code Team.run}, the barrier) about 200 times, and C1 compiled it only inside
     * the timed part (class A at 1 x 2, -Xlog:jit+compilation: about 35 compilations after the
     * timer started), its compiler thread taking a core from one member while the other waited
     * at the join (docs/npb.md, stop 46). The blocks are split over the members whatever
     * {@link #serialPoints} says (a rank that works its coarse levels serially still splits its
     * finest). Touches nothing but its own scratch arrays: every later result is the same bits.
     * {@link MgKernel#TEAM_WARM_ROUNDS} says how many rounds the kernel runs.
     */
    long warmTeam(int rounds, double[] a, double[] c) {
        if (team.size() == 1 || rounds <= 0) {
            return 0;
        }
        MgOperators split = new MgOperators(team, 0, vector);
        int m = 18;
        int mc = 10;
        double[] u = new double[m * m * m];
        double[] v = new double[m * m * m];
        double[] r = new double[m * m * m];
        double[] coarse = new double[mc * mc * mc];
        double[] fine = new double[m * m * m];
        for (int i = 0; i < v.length; i++) {
            v[i] = ((i * 37) % 11 - 5) * 0.125;
        }
        for (int w = 0; w < rounds; w++) {
            java.util.Arrays.fill(u, 0.0);
            split.resid(u, v, r, m, m, m, a, 3);
            split.psinv(r, u, m, m, m, c, 3);
            split.restrict(r, m, m, m, coarse, mc, mc, mc, 3);
            split.zeroInterpolate(coarse, mc, mc, mc, fine, m, m, m);
            split.interpolate(coarse, mc, mc, mc, fine, m, m, m);
            split.localNorms(r, m, m, m);
        }
        return split.regions;
    }

    /** Whether a block of {@code points} doubles is worked on by the caller alone. */
    boolean serial(long points) {
        return team.size() == 1 || points <= serialPoints;
    }

    /**
     * The ghosts of plane {@code i3} of an m1 x m2 x m3 block along its first {@code axes}
     * axes (0: none; 1: x; 2: x, then y; 3: x, y, then z), periodic within the block: what
     * {@link GhostExchange}'s in-place copies write for this plane, in the same order. x and
     * y read only plane i3 (its interior, then its x ghosts), so the thread that has just
     * computed the plane fills them, while the plane is in its cache; along z, the plane
     * m3 - 2 is copied whole to ghost plane 0 and plane 1 to ghost plane m3 - 1, after their
     * own x and y ghosts. No operator reads the ghosts of the block it writes.
     */
    static void fillPlaneGhosts(double[] u, int i3, int m1, int m2, int m3, int axes) {
        if (axes >= 1) {
            for (int i2 = 1; i2 < m2 - 1; i2++) {
                int row = (i3 * m2 + i2) * m1;
                u[row] = u[row + m1 - 2];
                u[row + m1 - 1] = u[row + 1];
            }
        }
        if (axes >= 2) {
            int plane = i3 * m2 * m1;
            System.arraycopy(u, plane + (m2 - 2) * m1, u, plane, m1);
            System.arraycopy(u, plane + m1, u, plane + (m2 - 1) * m1, m1);
        }
        if (axes >= 3) {
            int plane = m1 * m2;
            if (i3 == m3 - 2) {
                System.arraycopy(u, i3 * plane, u, 0, plane);
            }
            if (i3 == 1) {
                System.arraycopy(u, plane, u, (m3 - 1) * plane, plane);
            }
        }
    }

    /** r = v - A u on the interior (resid). {@code v} and {@code r} may be the same array. */
    void resid(double[] u, double[] v, double[] r, int m1, int m2, int m3, double[] a) {
        resid(u, v, r, m1, m2, m3, a, 0);
    }

    /** resid, then r's ghosts along its first {@code ghostAxes} axes ({@link #fillPlaneGhosts}). */
    void resid(double[] u, double[] v, double[] r, int m1, int m2, int m3, double[] a, int ghostAxes) {
        resid(u, v, r, m1, m2, m3, a, ghostAxes, 1, m3 - 1);
    }

    /**
     * resid on the planes [{@code first}, {@code end}) alone, each with its ghosts along the first
     * {@code ghostAxes} axes (along z only if the range holds plane 1 or m3 - 2, which it copies);
     * a range of one plane is worked on by the caller alone.
     */
    void resid(double[] u, double[] v, double[] r, int m1, int m2, int m3, double[] a, int ghostAxes, int first,
            int end) {
        double a0 = a[0];
        double a2 = a[2];
        double a3 = a[3];
        int plane = m1 * m2;
        if (end - first <= 1 || serial((long) plane * m3)) {
            residPlanes(u, v, r, first, end, m1, m2, m3, plane, a0, a2, a3, ghostAxes, vector);
            return;
        }
        boolean vec = vector;
        regions++;
        team.region(ctx -> {
            ctx.parallelForRange(first, end, Schedule.STATIC, (from, to) ->
                    residPlanes(u, v, r, from, to, m1, m2, m3, plane, a0, a2, a3, ghostAxes, vec));
        });
    }

    /** resid on planes [from, to), each followed by its ghosts; {@code vector}: {@link MgVectorKernels}' form. */
    private static void residPlanes(double[] u, double[] v, double[] r, int from, int to, int m1, int m2, int m3,
            int plane, double a0, double a2, double a3, int ghostAxes, boolean vector) {
        if (vector) {
            double[] u1 = new double[m1];
            double[] u2 = new double[m1];
            for (int i3 = from; i3 < to; i3++) {
                MgVectorKernels.residPlane(u, v, r, i3, m1, m2, plane, a0, a2, a3, u1, u2);
                fillPlaneGhosts(r, i3, m1, m2, m3, ghostAxes);
            }
            return;
        }
        for (int i3 = from; i3 < to; i3++) {
            residPlane(u, v, r, i3, m1, m2, plane, a0, a2, a3);
            fillPlaneGhosts(r, i3, m1, m2, m3, ghostAxes);
        }
    }

    /** resid on the interior lines of plane i3. */
    private static void residPlane(double[] u, double[] v, double[] r, int i3, int m1, int m2, int plane, double a0,
            double a2, double a3) {
        int i2 = 1;
        for (; i2 + 1 < m2 - 1; i2 += 2) {
            residTwoRows(u, v, r, (i3 * m2 + i2) * m1, m1, plane, a0, a2, a3);
        }
        if (i2 < m2 - 1) {
            residRow(u, v, r, (i3 * m2 + i2) * m1, m1, plane, a0, a2, a3);
        }
    }

    /** One x line of resid: the interior of the line starting at {@code c}. */
    private static void residRow(double[] u, double[] v, double[] r, int c, int m1, int plane, double a0, double a2,
            double a3) {
        int s = c - m1;
        int n = c + m1;
        int b = c - plane;
        int t = c + plane;
        int sb = s - plane;
        int nb = n - plane;
        int st = s + plane;
        int nt = n + plane;
        // Sliding window over i1: u1/u2 at i1-1, i1, i1+1 (the reference's line buffers) in registers.
        double u1m = u[s] + u[n] + u[b] + u[t];
        double u2m = u[sb] + u[nb] + u[st] + u[nt];
        double u1c = u[s + 1] + u[n + 1] + u[b + 1] + u[t + 1];
        double u2c = u[sb + 1] + u[nb + 1] + u[st + 1] + u[nt + 1];
        for (int i1 = 1; i1 < m1 - 1; i1++) {
            int q = i1 + 1;
            double u1p = u[s + q] + u[n + q] + u[b + q] + u[t + q];
            double u2p = u[sb + q] + u[nb + q] + u[st + q] + u[nt + q];
            r[c + i1] = v[c + i1] - a0 * u[c + i1]
                    - a2 * (u2c + u1m + u1p)
                    - a3 * (u2m + u2p);
            u1m = u1c;
            u1c = u1p;
            u2m = u2c;
            u2c = u2p;
        }
    }

    /**
     * Lines {@code c} and {@code c + m1} of resid in one pass: the two lines' neighbour sums
     * share eight of their sixteen neighbour lines (and each line is the other's neighbour),
     * so each point is loaded once for both: 14 loads per two points instead of 20. Every
     * sum is formed in the reference's order, so the results are those of {@link #residRow}.
     */
    private static void residTwoRows(double[] u, double[] v, double[] r, int c, int m1, int plane, double a0,
            double a2, double a3) {
        int d = c + m1;
        int s = c - m1;
        int b = c - plane;
        int t = c + plane;
        int sb = s - plane;
        int st = s + plane;
        int nb = d - plane;
        int nt = d + plane;
        int nn = d + m1;
        int nnb = nn - plane;
        int nnt = nn + plane;
        // Line c: u1 = s + d + b + t, u2 = sb + nb + st + nt (the reference's s, n, b, t order).
        // Line d: u1 = c + nn + nb + nt, u2 = b + nnb + t + nnt.
        double cU1m = u[s] + u[d] + u[b] + u[t];
        double cU2m = u[sb] + u[nb] + u[st] + u[nt];
        double cU1c = u[s + 1] + u[d + 1] + u[b + 1] + u[t + 1];
        double cU2c = u[sb + 1] + u[nb + 1] + u[st + 1] + u[nt + 1];
        double dU1m = u[c] + u[nn] + u[nb] + u[nt];
        double dU2m = u[b] + u[nnb] + u[t] + u[nnt];
        double dU1c = u[c + 1] + u[nn + 1] + u[nb + 1] + u[nt + 1];
        double dU2c = u[b + 1] + u[nnb + 1] + u[t + 1] + u[nnt + 1];
        double centreC = u[c + 1];
        double centreD = u[d + 1];
        for (int i1 = 1; i1 < m1 - 1; i1++) {
            int q = i1 + 1;
            double xs = u[s + q];
            double xc = u[c + q];
            double xd = u[d + q];
            double xnn = u[nn + q];
            double xb = u[b + q];
            double xt = u[t + q];
            double xnb = u[nb + q];
            double xnt = u[nt + q];
            double cU1p = xs + xd + xb + xt;
            double cU2p = u[sb + q] + xnb + u[st + q] + xnt;
            double dU1p = xc + xnn + xnb + xnt;
            double dU2p = xb + u[nnb + q] + xt + u[nnt + q];
            double rc = v[c + i1] - a0 * centreC
                    - a2 * (cU2c + cU1m + cU1p)
                    - a3 * (cU2m + cU2p);
            double rd = v[d + i1] - a0 * centreD
                    - a2 * (dU2c + dU1m + dU1p)
                    - a3 * (dU2m + dU2p);
            r[c + i1] = rc;
            r[d + i1] = rd;
            centreC = xc;
            centreD = xd;
            cU1m = cU1c;
            cU1c = cU1p;
            cU2m = cU2c;
            cU2c = cU2p;
            dU1m = dU1c;
            dU1c = dU1p;
            dU2m = dU2c;
            dU2c = dU2p;
        }
    }

    /** u = u + C r on the interior (psinv, the smoother). */
    void psinv(double[] r, double[] u, int m1, int m2, int m3, double[] c) {
        psinv(r, u, m1, m2, m3, c, 0);
    }

    /** psinv, then u's ghosts along its first {@code ghostAxes} axes ({@link #fillPlaneGhosts}). */
    void psinv(double[] r, double[] u, int m1, int m2, int m3, double[] c, int ghostAxes) {
        psinv(r, u, m1, m2, m3, c, ghostAxes, 1, m3 - 1);
    }

    /** psinv on the planes [{@code first}, {@code end}) alone, as {@link #resid(double[], double[], double[], int, int, int, double[], int, int, int)}. */
    void psinv(double[] r, double[] u, int m1, int m2, int m3, double[] c, int ghostAxes, int first, int end) {
        double c0 = c[0];
        double c1 = c[1];
        double c2 = c[2];
        int plane = m1 * m2;
        if (end - first <= 1 || serial((long) plane * m3)) {
            psinvPlanes(r, u, first, end, m1, m2, m3, plane, c0, c1, c2, ghostAxes, vector);
            return;
        }
        boolean vec = vector;
        regions++;
        team.region(ctx -> {
            ctx.parallelForRange(first, end, Schedule.STATIC, (from, to) ->
                    psinvPlanes(r, u, from, to, m1, m2, m3, plane, c0, c1, c2, ghostAxes, vec));
        });
    }

    /** psinv on planes [from, to), each followed by its ghosts; {@code vector}: {@link MgVectorKernels}' form. */
    private static void psinvPlanes(double[] r, double[] u, int from, int to, int m1, int m2, int m3, int plane,
            double c0, double c1, double c2, int ghostAxes, boolean vector) {
        if (vector) {
            double[] r1 = new double[m1];
            for (int i3 = from; i3 < to; i3++) {
                MgVectorKernels.psinvPlane(r, u, i3, m1, m2, plane, c0, c1, c2, r1);
                fillPlaneGhosts(u, i3, m1, m2, m3, ghostAxes);
            }
            return;
        }
        for (int i3 = from; i3 < to; i3++) {
            psinvPlane(r, u, i3, m1, m2, plane, c0, c1, c2);
            fillPlaneGhosts(u, i3, m1, m2, m3, ghostAxes);
        }
    }

    /** psinv on the interior lines of plane i3. */
    private static void psinvPlane(double[] r, double[] u, int i3, int m1, int m2, int plane, double c0, double c1,
            double c2) {
        int i2 = 1;
        for (; i2 + 1 < m2 - 1; i2 += 2) {
            psinvTwoRows(r, u, (i3 * m2 + i2) * m1, m1, plane, c0, c1, c2);
        }
        if (i2 < m2 - 1) {
            psinvRow(r, u, (i3 * m2 + i2) * m1, m1, plane, c0, c1, c2);
        }
    }

    /** One x line of psinv: the interior of the line starting at {@code o}. */
    private static void psinvRow(double[] r, double[] u, int o, int m1, int plane, double c0, double c1, double c2) {
        int s = o - m1;
        int n = o + m1;
        int b = o - plane;
        int t = o + plane;
        int sb = s - plane;
        int nb = n - plane;
        int st = s + plane;
        int nt = n + plane;
        double r1m = r[s] + r[n] + r[b] + r[t];
        double r1c = r[s + 1] + r[n + 1] + r[b + 1] + r[t + 1];
        for (int i1 = 1; i1 < m1 - 1; i1++) {
            int q = i1 + 1;
            double r1p = r[s + q] + r[n + q] + r[b + q] + r[t + q];
            double r2c = r[sb + i1] + r[nb + i1] + r[st + i1] + r[nt + i1];
            u[o + i1] = u[o + i1]
                    + c0 * r[o + i1]
                    + c1 * (r[o + i1 - 1] + r[o + i1 + 1] + r1c)
                    + c2 * (r2c + r1m + r1p);
            r1m = r1c;
            r1c = r1p;
        }
    }

    /**
     * Lines {@code o} and {@code o + m1} of psinv in one pass, as {@link #residTwoRows}: 14
     * loads of r per two points instead of 24 (the neighbour lines the two share, and the
     * values at i1 carried from the previous step's loads at i1 + 1). Sums in the reference's
     * order, so the results are those of {@link #psinvRow}.
     */
    private static void psinvTwoRows(double[] r, double[] u, int o, int m1, int plane, double c0, double c1,
            double c2) {
        int d = o + m1;
        int s = o - m1;
        int b = o - plane;
        int t = o + plane;
        int sb = s - plane;
        int st = s + plane;
        int nb = d - plane;
        int nt = d + plane;
        int nn = d + m1;
        int nnb = nn - plane;
        int nnt = nn + plane;
        // Line o: r1 = s + d + b + t, r2 = sb + nb + st + nt. Line d: r1 = o + nn + nb + nt, r2 = b + nnb + t + nnt.
        double oR1m = r[s] + r[d] + r[b] + r[t];
        double oR1c = r[s + 1] + r[d + 1] + r[b + 1] + r[t + 1];
        double dR1m = r[o] + r[nn] + r[nb] + r[nt];
        double dR1c = r[o + 1] + r[nn + 1] + r[nb + 1] + r[nt + 1];
        double oM = r[o];
        double oC = r[o + 1];
        double dM = r[d];
        double dC = r[d + 1];
        double bC = r[b + 1];
        double tC = r[t + 1];
        double nbC = r[nb + 1];
        double ntC = r[nt + 1];
        for (int i1 = 1; i1 < m1 - 1; i1++) {
            int q = i1 + 1;
            double xs = r[s + q];
            double xo = r[o + q];
            double xd = r[d + q];
            double xnn = r[nn + q];
            double xb = r[b + q];
            double xt = r[t + q];
            double xnb = r[nb + q];
            double xnt = r[nt + q];
            double oR1p = xs + xd + xb + xt;
            double dR1p = xo + xnn + xnb + xnt;
            double oR2c = r[sb + i1] + nbC + r[st + i1] + ntC;
            double dR2c = bC + r[nnb + i1] + tC + r[nnt + i1];
            u[o + i1] = u[o + i1]
                    + c0 * oC
                    + c1 * (oM + xo + oR1c)
                    + c2 * (oR2c + oR1m + oR1p);
            u[d + i1] = u[d + i1]
                    + c0 * dC
                    + c1 * (dM + xd + dR1c)
                    + c2 * (dR2c + dR1m + dR1p);
            oM = oC;
            oC = xo;
            dM = dC;
            dC = xd;
            bC = xb;
            tC = xt;
            nbC = xnb;
            ntC = xnt;
            oR1m = oR1c;
            oR1c = oR1p;
            dR1m = dR1c;
            dR1c = dR1p;
        }
    }

    /**
     * s = P r (rprj3): restriction of fine block r (k1, k2, k3) to coarse block s (j1, j2, j3).
     * Coarse point J sits on fine point 2J (0-based, ghost at 0). Requires every fine
     * interior extent to be at least 2 (the reference's d = 1 case).
     */
    void restrict(double[] r, int k1, int k2, int k3, double[] s, int j1, int j2, int j3) {
        restrict(r, k1, k2, k3, s, j1, j2, j3, 0);
    }

    /** rprj3, then s's ghosts along its first {@code ghostAxes} axes ({@link #fillPlaneGhosts}). */
    void restrict(double[] r, int k1, int k2, int k3, double[] s, int j1, int j2, int j3, int ghostAxes) {
        restrict(r, k1, k2, k3, s, j1, j2, j3, ghostAxes, 1, j3 - 1);
    }

    /** rprj3 on the coarse planes [{@code first}, {@code end}) alone, as {@link #resid(double[], double[], double[], int, int, int, double[], int, int, int)}. */
    void restrict(double[] r, int k1, int k2, int k3, double[] s, int j1, int j2, int j3, int ghostAxes, int first,
            int end) {
        int plane = k1 * k2;
        if (end - first <= 1 || serial((long) plane * k3)) {
            restrictPlanes(r, first, end, k1, k2, plane, s, j1, j2, j3, ghostAxes);
            return;
        }
        regions++;
        team.region(ctx -> {
            ctx.parallelForRange(first, end, Schedule.STATIC, (from, to) ->
                    restrictPlanes(r, from, to, k1, k2, plane, s, j1, j2, j3, ghostAxes));
        });
    }

    /** rprj3 on coarse planes [from, to), each followed by its ghosts. */
    private static void restrictPlanes(double[] r, int from, int to, int k1, int k2, int plane, double[] s, int j1,
            int j2, int j3, int ghostAxes) {
        for (int c3 = from; c3 < to; c3++) {
            restrictPlane(r, c3, k1, k2, plane, s, j1, j2);
            fillPlaneGhosts(s, c3, j1, j2, j3, ghostAxes);
        }
    }

    /** rprj3 on the interior lines of coarse plane c3. */
    private static void restrictPlane(double[] r, int c3, int k1, int k2, int plane, double[] s, int j1, int j2) {
        for (int c2 = 1; c2 < j2 - 1; c2++) {
            restrictRow(r, (2 * c3 * k2 + 2 * c2) * k1, k1, plane, s, (c3 * j2 + c2) * j1, j1);
        }
    }

    /** One coarse x line of rprj3: fine line {@code o}, coarse line {@code out}. */
    private static void restrictRow(double[] r, int o, int k1, int plane, double[] s, int out, int j1) {
        int s0 = o - k1;
        int n0 = o + k1;
        int b0 = o - plane;
        int t0 = o + plane;
        int sb = s0 - plane;
        int st = s0 + plane;
        int nb = n0 - plane;
        int nt = n0 + plane;
        // x1/y1 (the reference's line buffers) at the odd fine points f-1 and f+1 around
        // the coarse point's fine point f = 2 c1, kept in registers and slid by two.
        double x1m = r[s0 + 1] + r[n0 + 1] + r[b0 + 1] + r[t0 + 1];
        double y1m = r[sb + 1] + r[st + 1] + r[nb + 1] + r[nt + 1];
        for (int c1 = 1; c1 < j1 - 1; c1++) {
            int f = 2 * c1;
            int g = f + 1;
            double x1p = r[s0 + g] + r[n0 + g] + r[b0 + g] + r[t0 + g];
            double y1p = r[sb + g] + r[st + g] + r[nb + g] + r[nt + g];
            double y2 = r[sb + f] + r[st + f] + r[nb + f] + r[nt + f];
            double x2 = r[s0 + f] + r[n0 + f] + r[b0 + f] + r[t0 + f];
            s[out + c1] = 0.5 * r[o + f]
                    + 0.25 * (r[o + f - 1] + r[o + f + 1] + x2)
                    + 0.125 * (x1m + x1p + y2)
                    + 0.0625 * (y1m + y1p);
            x1m = x1p;
            y1m = y1p;
        }
    }

    /**
     * u = u + Q z (interp): trilinear prolongation of coarse block z (mm1, mm2, mm3) added
     * to fine block u (n1, n2, n3); coarse point I feeds fine points 2I and 2I + 1.
     */
    void interpolate(double[] z, int mm1, int mm2, int mm3, double[] u, int n1, int n2, int n3) {
        interpolate(z, mm1, mm2, mm3, u, n1, n2, n3, false);
    }

    /**
     * Whether interp from an mm1 x mm2 x mm3 block writes every point of an n1 x n2 x n3
     * block: coarse points 0 .. mm - 2 feed fine points 0 .. 2 mm - 3 along each axis.
     */
    static boolean interpolationCovers(int mm1, int mm2, int mm3, int n1, int n2, int n3) {
        return n1 == 2 * mm1 - 2 && n2 == 2 * mm2 - 2 && n3 == 2 * mm3 - 2;
    }

    /**
     * zero3(u), then u = u + Q z, in one pass: every point is written {@code 0.0 + (Q z)},
     * the sum the reference forms on the zeroed block, so the bits are those of
     * {@link #zero} followed by {@link #interpolate(double[], int, int, int, double[], int, int, int)}
     * (0.0 + -0.0 is +0.0 in both), without the zeroing pass or the reads of u. Only where
     * the interpolation writes every point ({@link #interpolationCovers}); otherwise the two
     * passes.
     */
    void zeroInterpolate(double[] z, int mm1, int mm2, int mm3, double[] u, int n1, int n2, int n3) {
        if (!interpolationCovers(mm1, mm2, mm3, n1, n2, n3)) {
            zero(u);
            interpolate(z, mm1, mm2, mm3, u, n1, n2, n3);
            return;
        }
        interpolate(z, mm1, mm2, mm3, u, n1, n2, n3, true);
    }

    private void interpolate(double[] z, int mm1, int mm2, int mm3, double[] u, int n1, int n2, int n3,
            boolean overwrite) {
        int zplane = mm1 * mm2;
        int uplane = n1 * n2;
        if (serial((long) uplane * n3)) {
            for (int c3 = 0; c3 < mm3 - 1; c3++) {
                interpolatePlane(z, c3, mm1, mm2, zplane, u, n1, n2, uplane, overwrite);
            }
            return;
        }
        regions++;
        team.region(ctx -> {
            ctx.parallelForRange(0, mm3 - 1, Schedule.STATIC, (from, to) -> {
                for (int c3 = from; c3 < to; c3++) {
                    interpolatePlane(z, c3, mm1, mm2, zplane, u, n1, n2, uplane, overwrite);
                }
            });
        });
    }

    /** interp from coarse plane c3 (its lines 0 .. mm2 - 2) into the fine planes it feeds. */
    private static void interpolatePlane(double[] z, int c3, int mm1, int mm2, int zplane, double[] u, int n1, int n2,
            int uplane, boolean overwrite) {
        for (int c2 = 0; c2 < mm2 - 1; c2++) {
            int zc = (c3 * mm2 + c2) * mm1;
            int u00 = (2 * c3 * n2 + 2 * c2) * n1;
            if (overwrite) {
                interpolateRowOverwrite(z, zc, mm1, zplane, u, u00, n1, uplane);
            } else {
                interpolateRow(z, zc, mm1, zplane, u, u00, n1, uplane);
            }
        }
    }

    /** {@link #interpolateRow} into zeroed lines: each point written 0.0 + its term, without reading u. */
    private static void interpolateRowOverwrite(double[] z, int zc, int mm1, int zplane, double[] u, int u00, int n1,
            int uplane) {
        int zn = zc + mm1;
        int zt = zc + zplane;
        int znt = zn + zplane;
        int u01 = u00 + n1;
        int u10 = u00 + uplane;
        int u11 = u01 + uplane;
        double z0c = z[zc];
        double z1c = z[zn] + z0c;
        double z2c = z[zt] + z0c;
        double z3c = z[znt] + z[zt] + z1c;
        for (int i = 0; i < mm1 - 1; i++) {
            int q = i + 1;
            double z0n = z[zc + q];
            double z1n = z[zn + q] + z0n;
            double z2n = z[zt + q] + z0n;
            double z3n = z[znt + q] + z[zt + q] + z1n;
            int e = 2 * i;
            u[u00 + e] = 0.0 + z0c;
            u[u00 + e + 1] = 0.0 + 0.5 * (z0n + z0c);
            u[u01 + e] = 0.0 + 0.5 * z1c;
            u[u01 + e + 1] = 0.0 + 0.25 * (z1c + z1n);
            u[u10 + e] = 0.0 + 0.5 * z2c;
            u[u10 + e + 1] = 0.0 + 0.25 * (z2c + z2n);
            u[u11 + e] = 0.0 + 0.25 * z3c;
            u[u11 + e + 1] = 0.0 + 0.125 * (z3c + z3n);
            z0c = z0n;
            z1c = z1n;
            z2c = z2n;
            z3c = z3n;
        }
    }

    /** One coarse x line of interp: coarse line {@code zc} into the four fine lines from {@code u00}. */
    private static void interpolateRow(double[] z, int zc, int mm1, int zplane, double[] u, int u00, int n1, int uplane) {
        int zn = zc + mm1;
        int zt = zc + zplane;
        int znt = zn + zplane;
        int u01 = u00 + n1;
        int u10 = u00 + uplane;
        int u11 = u01 + uplane;
        // z1, z2, z3 (the reference's line buffers) at i and i+1, slid along i.
        double z0c = z[zc];
        double z1c = z[zn] + z0c;
        double z2c = z[zt] + z0c;
        double z3c = z[znt] + z[zt] + z1c;
        for (int i = 0; i < mm1 - 1; i++) {
            int q = i + 1;
            double z0n = z[zc + q];
            double z1n = z[zn + q] + z0n;
            double z2n = z[zt + q] + z0n;
            double z3n = z[znt + q] + z[zt + q] + z1n;
            int e = 2 * i;
            u[u00 + e] += z0c;
            u[u00 + e + 1] += 0.5 * (z0n + z0c);
            u[u01 + e] += 0.5 * z1c;
            u[u01 + e + 1] += 0.25 * (z1c + z1n);
            u[u10 + e] += 0.5 * z2c;
            u[u10 + e + 1] += 0.25 * (z2c + z2n);
            u[u11 + e] += 0.25 * z3c;
            u[u11 + e + 1] += 0.125 * (z3c + z3n);
            z0c = z0n;
            z1c = z1n;
            z2c = z2n;
            z3c = z3n;
        }
    }

    /** Sets every element (ghosts included) to zero (zero3). */
    void zero(double[] x) {
        if (serial(x.length)) {
            java.util.Arrays.fill(x, 0.0);
            return;
        }
        int chunk = 1 << 16;
        int chunks = (x.length + chunk - 1) / chunk;
        regions++;
        team.parallelForRange(0, chunks, Schedule.STATIC, (from, to) ->
                java.util.Arrays.fill(x, from * chunk, Math.min(x.length, to * chunk), 0.0));
    }

    /**
     * This rank's part of norm2u3: {sum of squares, max |x|} over the interior. Partials
     * are combined in member order, so the result does not depend on thread timing.
     */
    double[] localNorms(double[] x, int m1, int m2, int m3) {
        double[][] partial = new double[team.size()][2];
        regions++;
        team.region(ctx -> {
            double[] mine = partial[ctx.id()];
            ctx.parallelForRange(1, m3 - 1, Schedule.STATIC, (from, to) -> {
                double[] acc = new double[2];
                for (int i3 = from; i3 < to; i3++) {
                    normPlane(x, i3, m1, m2, acc);
                }
                mine[0] += acc[0];
                mine[1] = Math.max(mine[1], acc[1]);
            });
        });
        double[] total = new double[2];
        for (double[] p : partial) {
            total[0] += p[0];
            total[1] = Math.max(total[1], p[1]);
        }
        return total;
    }

    /**
     * The squares of plane i3's interior added to {@code acc[0]} in the reference's order, and
     * the largest |x| kept in {@code acc[1]}. A static method called once per plane, so C2
     * compiles it whole: as a loop inside the per-member lambda (run a few times per run), the
     * norm was compiled only on stack replacement and took 1.8-2x the reference's norm2u3
     * (class A, 1 x 1, perf, stop 44).
     */
    private static void normPlane(double[] x, int i3, int m1, int m2, double[] acc) {
        double sum = acc[0];
        double max = acc[1];
        for (int i2 = 1; i2 < m2 - 1; i2++) {
            int o = (i3 * m2 + i2) * m1;
            for (int i1 = 1; i1 < m1 - 1; i1++) {
                double e = x[o + i1];
                sum += e * e;
                double a = Math.abs(e);
                // A branch, not Math.max: the running maximum rarely changes, and Math.max's
                // NaN and -0.0 handling would make it a second dependency chain (a NaN is
                // kept as Math.max keeps it).
                if (a > max || a != a) {
                    max = a;
                }
            }
        }
        acc[0] = sum;
        acc[1] = max;
    }
}
