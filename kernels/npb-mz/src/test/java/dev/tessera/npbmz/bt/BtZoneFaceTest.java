package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tessera.npbmz.Face;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** packFace/unpackFace do what exch_qbc.f's copy_x_face/copy_y_face do, on this layout. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BtZoneFaceTest {

    private static final int NX = 8, NY = 7, NZ = 6;

    /** A zone whose u holds a distinct value per (m, i, j, k). */
    private static BtZone numbered() {
        BtZone z = new BtZone(new BtMz().problem('S'), NX, NY, NZ);
        for (int k = 0; k < NZ; k++) {
            for (int j = 0; j < NY; j++) {
                for (int i = 0; i < NX; i++) {
                    for (int m = 0; m < 5; m++) {
                        z.u[z.index(i, j, k) * 5 + m] = code(m, i, j, k);
                    }
                }
            }
        }
        return z;
    }

    private static double code(int m, int i, int j, int k) {
        return m + 10 * i + 1000 * j + 100000 * k;
    }

    @Test
    void faceLengthsCountTheInteriorPointsOfTheFace() {
        BtZone z = numbered();
        assertEquals(5 * (NY - 2) * (NZ - 2), z.faceLength(Face.WEST));
        assertEquals(5 * (NY - 2) * (NZ - 2), z.faceLength(Face.EAST));
        assertEquals(5 * (NX - 2) * (NZ - 2), z.faceLength(Face.SOUTH));
        assertEquals(5 * (NX - 2) * (NZ - 2), z.faceLength(Face.NORTH));
    }

    @Test
    void packSendsTheFirstAndLastInteriorColumnsAndRowsInQbcOrder() {
        BtZone z = numbered();
        int[] sendI = {1, NX - 2};
        Face[] xFaces = {Face.WEST, Face.EAST};
        for (int f = 0; f < 2; f++) {
            double[] buf = new double[z.faceLength(xFaces[f]) + 3];
            z.packFace(xFaces[f], buf, 3);
            int o = 3;
            for (int k = 1; k < NZ - 1; k++) {
                for (int j = 1; j < NY - 1; j++) {
                    for (int m = 0; m < 5; m++) {
                        assertEquals(code(m, sendI[f], j, k), buf[o++], xFaces[f] + " m=" + m + " j=" + j + " k=" + k);
                    }
                }
            }
        }
        int[] sendJ = {1, NY - 2};
        Face[] yFaces = {Face.SOUTH, Face.NORTH};
        for (int f = 0; f < 2; f++) {
            double[] buf = new double[z.faceLength(yFaces[f])];
            z.packFace(yFaces[f], buf, 0);
            int o = 0;
            for (int k = 1; k < NZ - 1; k++) {
                for (int i = 1; i < NX - 1; i++) {
                    for (int m = 0; m < 5; m++) {
                        assertEquals(code(m, i, sendJ[f], k), buf[o++], yFaces[f] + " m=" + m + " i=" + i + " k=" + k);
                    }
                }
            }
        }
    }

    @Test
    void unpackFillsOnlyTheBoundaryFaceInteriorAndPackOfTheNeighbourRoundTrips() {
        Face[] faces = Face.values();
        int[][] recv = {{0, -1}, {NX - 1, -1}, {-1, 0}, {-1, NY - 1}};
        for (int f = 0; f < 4; f++) {
            BtZone from = numbered();
            BtZone to = numbered();
            double[] before = to.u.clone();
            double[] buf = new double[from.faceLength(faces[f])];
            // the neighbour across face f of 'to' sends its opposite face
            Face opposite = faces[f ^ 1];
            from.packFace(opposite, buf, 0);
            to.unpackFace(faces[f], buf, 0);
            double[] again = new double[buf.length];
            int o = 0;
            for (int k = 1; k < NZ - 1; k++) {
                for (int s = 1; s < (f < 2 ? NY : NX) - 1; s++) {
                    int i = f < 2 ? recv[f][0] : s, j = f < 2 ? s : recv[f][1];
                    for (int m = 0; m < 5; m++) {
                        again[o++] = to.u[to.index(i, j, k) * 5 + m];
                        before[to.index(i, j, k) * 5 + m] = to.u[to.index(i, j, k) * 5 + m];
                    }
                }
            }
            assertArrayEquals(buf, again, 0.0, faces[f] + ": unpacked values are not the packed ones");
            assertArrayEquals(before, to.u, 0.0, faces[f] + ": unpack wrote outside the face's interior points");
        }
    }

    @Test
    void aBufferTooShortIsRejectedWithItsSizes() {
        BtZone z = numbered();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> z.packFace(Face.NORTH, new double[10], 0));
        assertEquals("BT-MZ packFace(NORTH): face buffer of 10 doubles has no room for " + z.faceLength(Face.NORTH) + " at offset 0",
                e.getMessage());
    }
}
