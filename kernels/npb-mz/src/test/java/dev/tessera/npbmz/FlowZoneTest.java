package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tessera.npbmz.sp.SpMz;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pieces BT-MZ and SP-MZ share (FlowZone, ZoneFaces, FlowConstants), seen through an
 * SP-MZ zone; BtZoneFaceTest and LuZoneFacesTest check the same faces through BT and LU zones.
 */
@Timeout(60)
class FlowZoneTest {

    private final SpMz sp = new SpMz();
    private final MzProblem s = sp.problem('S');

    @Test
    void aZoneTooSmallIsRejectedWithItsSize() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sp.newZone(s, 4, 6, 6));
        assertEquals("SP-MZ newZone: a zone needs at least 5 points per direction, got 4 x 6 x 6", e.getMessage());
    }

    @Test
    void aFaceBufferTooShortIsRejectedWithTheCallAndItsSizes() {
        ZoneSolver z = sp.newZone(s, 7, 6, 5);
        assertEquals(5 * 4 * 3, z.faceLength(Face.WEST));
        assertEquals(5 * 5 * 3, z.faceLength(Face.NORTH));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> z.unpackFace(Face.WEST, new double[70], 11));
        assertEquals("SP-MZ unpackFace(WEST): face buffer of 70 doubles has no room for 60 at offset 11", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> z.packFace(Face.NORTH, new double[75], -1));
        assertThrows(NullPointerException.class, () -> z.packFace(Face.EAST, null, 0));
    }

    @Test
    void packedFacesLandOnTheNeighboursBoundaryPlane() {
        FlowZone a = (FlowZone) sp.newZone(s, 7, 6, 5);
        FlowZone b = (FlowZone) sp.newZone(s, 7, 6, 5);
        for (int p = 0; p < a.u.length; p++) {
            a.u[p] = p;
        }
        double[] buf = new double[a.faceLength(Face.EAST)];
        a.packFace(Face.EAST, buf, 0);
        b.unpackFace(Face.WEST, buf, 0);
        double[] sent = new double[buf.length];
        double[] received = new double[buf.length];
        int o = 0;
        for (int k = 1; k < 4; k++) {
            for (int j = 1; j < 5; j++) {
                System.arraycopy(a.u, 5 * a.index(5, j, k), sent, o, 5);
                System.arraycopy(b.u, 5 * b.index(0, j, k), received, o, 5);
                o += 5;
            }
        }
        assertArrayEquals(sent, buf, 0.0, "east face: the interior points of i = nx-2 in (m, j, k) order");
        assertArrayEquals(sent, received, 0.0, "west boundary plane i = 0 of the neighbour");
        buf = new double[a.faceLength(Face.SOUTH)];
        a.packFace(Face.SOUTH, buf, 0);
        assertEquals(a.u[5 * a.index(1, 1, 1)], buf[0]);
        assertEquals(a.u[5 * a.index(5, 1, 3) + 4], buf[buf.length - 1]);
    }

    @Test
    void theExactSolutionIsTheReferencePolynomial() {
        double[] at0 = new double[5];
        FlowConstants.exactSolution(0.0, 0.0, 0.0, at0, 0);
        assertArrayEquals(new double[] {2.0, 1.0, 2.0, 2.0, 5.0}, at0, 0.0, "ce(m, 1)");
        double[] at1 = new double[7];
        FlowConstants.exactSolution(1.0, 1.0, 1.0, at1, 2);
        // at xi = eta = zeta = 1 each component is the sum of its 13 coefficients (set_constants.f)
        assertArrayEquals(new double[] {0, 0, 15.76, 8.26, 10.32, 9.72, 15.52}, at1, 1e-12);
    }
}
