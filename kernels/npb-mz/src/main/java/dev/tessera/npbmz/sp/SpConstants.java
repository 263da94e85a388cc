package dev.tessera.npbmz.sp;

import dev.tessera.npbmz.FlowConstants;
import dev.tessera.npbmz.MzProblem;

/**
 * The constants of the SP solver for one problem (the reference's set_constants.f,
 * NPB3.4-MZ-MPI/SP-MZ): those it shares with BT-MZ in {@link FlowConstants}, plus the ones
 * only SP's scalar penta-diagonal solver uses (bt, the dissipation maxima and multiples, the
 * c2dtt and comz families, c2iv).
 */
final class SpConstants extends FlowConstants {

    final double bt = Math.sqrt(0.5);
    final double dxmax;
    final double dymax;
    final double dzmax;
    final double c4dssp;
    final double c5dssp;
    final double c2dttx1;
    final double c2dtty1;
    final double c2dttz1;
    final double dtdssp;
    final double comz1;
    final double comz4;
    final double comz5;
    final double comz6;
    final double c2iv = 2.5;

    SpConstants(MzProblem p) {
        super(p);
        dxmax = Math.max(dx3, dx4);
        dymax = Math.max(dy2, dy4);
        dzmax = Math.max(dz2, dz3);
        c4dssp = 4.0 * dssp;
        c5dssp = 5.0 * dssp;
        c2dttx1 = 2.0 * dttx1;
        c2dtty1 = 2.0 * dtty1;
        c2dttz1 = 2.0 * dttz1;
        dtdssp = dt * dssp;
        comz1 = dtdssp;
        comz4 = 4.0 * dtdssp;
        comz5 = 5.0 * dtdssp;
        comz6 = 6.0 * dtdssp;
    }
}
