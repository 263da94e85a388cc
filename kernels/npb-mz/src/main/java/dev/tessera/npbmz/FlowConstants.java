package dev.tessera.npbmz;

import java.util.Objects;

/**
 * The constants BT-MZ and SP-MZ share for one problem class: what both references'
 * set_constants.f compute in the same way (the gas constants c1..c5, the grid spacings, the
 * metric, dissipation and viscous coefficients built from them), and the exact solution of
 * exact_solution.f with its coefficient table ce. The BT and SP solvers subclass this with
 * the few constants only one of them uses.
 *
 * <p>The grid spacings are those of the <em>average</em> zone, not of the zone at hand
 * ({@code dnxm1 = 1 / ((gx - 1) / x_zones)}), exactly as in the references: every zone of a
 * problem shares one set of constants, and a zone's point (i, j, k) sits at
 * {@code xi = i * dnxm1} whatever the zone's own size. Every expression is written in the
 * reference's order, so the results match it to the last bit where the arithmetic allows.
 *
 * <p>The fields are public and final so that the solvers' hot loops in the benchmark packages
 * read them directly, as they would read their own.
 */
public class FlowConstants {

    /** ce(m, 1..13) of set_constants.f: CE[m][c] is the reference's ce(m+1, c+1). */
    private static final double[][] CE = {
        {2.0, 0.0, 0.0, 4.0, 5.0, 3.0, 0.5, 0.02, 0.01, 0.03, 0.5, 0.4, 0.3},
        {1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.01, 0.03, 0.02, 0.4, 0.3, 0.5},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.04, 0.03, 0.05, 0.3, 0.5, 0.4},
        {2.0, 2.0, 0.0, 0.0, 0.0, 2.0, 3.0, 0.03, 0.05, 0.04, 0.2, 0.1, 0.3},
        {5.0, 4.0, 3.0, 2.0, 0.1, 0.4, 0.3, 0.05, 0.04, 0.03, 0.1, 0.3, 0.2},
    };

    public final double dt;
    public final double c1 = 1.4, c2 = 0.4, c3 = 0.1, c4 = 1.0, c5 = 1.4;
    public final double dnxm1, dnym1, dnzm1;
    public final double c1c2, c1c5, c3c4, c1345, conz1;
    public final double tx1, tx2, tx3, ty1, ty2, ty3, tz1, tz2, tz3;
    public final double dx1 = 0.75, dx2 = 0.75, dx3 = 0.75, dx4 = 0.75, dx5 = 0.75;
    public final double dy1 = 0.75, dy2 = 0.75, dy3 = 0.75, dy4 = 0.75, dy5 = 0.75;
    public final double dz1 = 1.0, dz2 = 1.0, dz3 = 1.0, dz4 = 1.0, dz5 = 1.0;
    public final double dssp;
    public final double dttx1, dttx2, dtty1, dtty2, dttz1, dttz2;
    public final double c3c4tx3, c3c4ty3, c3c4tz3;
    public final double dx1tx1, dx2tx1, dx3tx1, dx4tx1, dx5tx1;
    public final double dy1ty1, dy2ty1, dy3ty1, dy4ty1, dy5ty1;
    public final double dz1tz1, dz2tz1, dz3tz1, dz4tz1, dz5tz1;
    public final double con43 = 4.0 / 3.0, con16 = 1.0 / 6.0;
    public final double xxcon1, xxcon2, xxcon3, xxcon4, xxcon5;
    public final double yycon1, yycon2, yycon3, yycon4, yycon5;
    public final double zzcon1, zzcon2, zzcon3, zzcon4, zzcon5;

    protected FlowConstants(MzProblem p) {
        Objects.requireNonNull(p, "problem");
        dt = p.dt();
        dnxm1 = 1.0 / ((double) (p.gx() - 1) / (double) p.xZones());
        dnym1 = 1.0 / ((double) (p.gy() - 1) / (double) p.yZones());
        dnzm1 = 1.0 / (double) (p.gz() - 1);

        c1c2 = c1 * c2;
        c1c5 = c1 * c5;
        c3c4 = c3 * c4;
        c1345 = c1c5 * c3c4;
        conz1 = 1.0 - c1c5;

        tx1 = 1.0 / (dnxm1 * dnxm1);
        tx2 = 1.0 / (2.0 * dnxm1);
        tx3 = 1.0 / dnxm1;
        ty1 = 1.0 / (dnym1 * dnym1);
        ty2 = 1.0 / (2.0 * dnym1);
        ty3 = 1.0 / dnym1;
        tz1 = 1.0 / (dnzm1 * dnzm1);
        tz2 = 1.0 / (2.0 * dnzm1);
        tz3 = 1.0 / dnzm1;

        dssp = 0.25 * Math.max(dx1, Math.max(dy1, dz1));

        dttx1 = dt * tx1;
        dttx2 = dt * tx2;
        dtty1 = dt * ty1;
        dtty2 = dt * ty2;
        dttz1 = dt * tz1;
        dttz2 = dt * tz2;

        c3c4tx3 = c3c4 * tx3;
        c3c4ty3 = c3c4 * ty3;
        c3c4tz3 = c3c4 * tz3;

        dx1tx1 = dx1 * tx1;
        dx2tx1 = dx2 * tx1;
        dx3tx1 = dx3 * tx1;
        dx4tx1 = dx4 * tx1;
        dx5tx1 = dx5 * tx1;
        dy1ty1 = dy1 * ty1;
        dy2ty1 = dy2 * ty1;
        dy3ty1 = dy3 * ty1;
        dy4ty1 = dy4 * ty1;
        dy5ty1 = dy5 * ty1;
        dz1tz1 = dz1 * tz1;
        dz2tz1 = dz2 * tz1;
        dz3tz1 = dz3 * tz1;
        dz4tz1 = dz4 * tz1;
        dz5tz1 = dz5 * tz1;

        xxcon1 = c3c4tx3 * con43 * tx3;
        xxcon2 = c3c4tx3 * tx3;
        xxcon3 = c3c4tx3 * conz1 * tx3;
        xxcon4 = c3c4tx3 * con16 * tx3;
        xxcon5 = c3c4tx3 * c1c5 * tx3;
        yycon1 = c3c4ty3 * con43 * ty3;
        yycon2 = c3c4ty3 * ty3;
        yycon3 = c3c4ty3 * conz1 * ty3;
        yycon4 = c3c4ty3 * con16 * ty3;
        yycon5 = c3c4ty3 * c1c5 * ty3;
        zzcon1 = c3c4tz3 * con43 * tz3;
        zzcon2 = c3c4tz3 * tz3;
        zzcon3 = c3c4tz3 * conz1 * tz3;
        zzcon4 = c3c4tz3 * con16 * tz3;
        zzcon5 = c3c4tz3 * c1c5 * tz3;
    }

    /**
     * The exact solution at (xi, eta, zeta) into {@code out[off .. off+5)} (exact_solution.f).
     * LU-MZ's exact.f evaluates the same polynomials with the same table (its products are
     * written the other way round, which IEEE arithmetic makes no difference to).
     */
    public static void exactSolution(double xi, double eta, double zeta, double[] out, int off) {
        for (int m = 0; m < 5; m++) {
            double[] c = CE[m];
            out[off + m] = c[0]
                    + xi * (c[1] + xi * (c[4] + xi * (c[7] + xi * c[10])))
                    + eta * (c[2] + eta * (c[5] + eta * (c[8] + eta * c[11])))
                    + zeta * (c[3] + zeta * (c[6] + zeta * (c[9] + zeta * c[12])));
        }
    }
}
