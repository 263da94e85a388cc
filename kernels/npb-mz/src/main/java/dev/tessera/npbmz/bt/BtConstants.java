package dev.tessera.npbmz.bt;

import dev.tessera.npbmz.FlowConstants;
import dev.tessera.npbmz.MzProblem;

/**
 * The constants of the BT solver for one problem class (the reference's set_constants.f,
 * NPB3.4-MZ BT-MZ): those it shares with SP-MZ in {@link FlowConstants}, plus dx1..dx5,
 * dy1..dy5 and dz1..dz5 as arrays for the line solves.
 */
final class BtConstants extends FlowConstants {

    /** dx1..dx5, dy1..dy5, dz1..dz5 as arrays, for the line solves. */
    final double[] dxs = {dx1, dx2, dx3, dx4, dx5}, dys = {dy1, dy2, dy3, dy4, dy5}, dzs = {dz1, dz2, dz3, dz4, dz5};

    BtConstants(MzProblem p) {
        super(p);
    }
}
