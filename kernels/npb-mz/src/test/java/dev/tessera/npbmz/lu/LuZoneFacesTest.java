package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** packFace / unpackFace do what exch_qbc.f's copy_x_face / copy_y_face of LU-MZ do. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class LuZoneFacesTest {

    private final MzProblem problem = new LuMz().problem('S');

    /** A zone after initialize() whose face boundary points then get distinct values (seed + 1000 (face + 1) + n) through unpackFace. */
    private LuZone zone(int nx, int ny, int nz, double seed) {
        LuZone z = new LuZone(problem, nx, ny, nz);
        z.initialize();
        for (Face f : Face.values()) {
            double[] buf = new double[z.faceLength(f)];
            for (int n = 0; n < buf.length; n++) {
                buf[n] = seed + 1000 * (f.ordinal() + 1) + n;
            }
            z.unpackFace(f, buf, 0);
        }
        return z;
    }

    @Test
    void faceLengthsCountTheInteriorPointsOfTheFaceTimesFive() {
        LuZone z = new LuZone(problem, 7, 9, 6);
        assertEquals(5 * 7 * 4, z.faceLength(Face.WEST));
        assertEquals(5 * 7 * 4, z.faceLength(Face.EAST));
        assertEquals(5 * 5 * 4, z.faceLength(Face.SOUTH));
        assertEquals(5 * 5 * 4, z.faceLength(Face.NORTH));
    }

    @Test
    void eachFaceGivesItsFirstOrLastInteriorPlane() {
        LuZone z = zone(7, 9, 6, 0);
        for (Face f : Face.values()) {
            double[] buf = new double[z.faceLength(f)];
            z.packFace(f, buf, 0);
            int n = 0;
            for (int k = 1; k < 5; k++) {
                int along = f == Face.WEST || f == Face.EAST ? 9 : 7;
                for (int a = 1; a < along - 1; a++) {
                    for (int m = 0; m < 5; m++, n++) {
                        double expected = switch (f) {
                            case WEST -> z.solution(m, 1, a, k);
                            case EAST -> z.solution(m, 5, a, k);
                            case SOUTH -> z.solution(m, a, 1, k);
                            case NORTH -> z.solution(m, a, 7, k);
                        };
                        assertEquals(expected, buf[n], 0.0, f + " m=" + m + " a=" + a + " k=" + k);
                    }
                }
            }
        }
    }

    @Test
    void whatAZonePacksEastArrivesInItsEastNeighboursWestBoundaryAndNowhereElse() {
        LuZone west = zone(6, 8, 6, 0);
        LuZone east = zone(6, 8, 6, 50_000);
        LuZone before = zone(6, 8, 6, 50_000);
        double[] buf = new double[west.faceLength(Face.EAST)];
        west.packFace(Face.EAST, buf, 0);
        east.unpackFace(Face.WEST, buf, 0);
        for (int k = 0; k < 6; k++) {
            for (int j = 0; j < 8; j++) {
                for (int i = 0; i < 6; i++) {
                    for (int m = 0; m < 5; m++) {
                        boolean received = i == 0 && j >= 1 && j <= 6 && k >= 1 && k <= 4;
                        double expected = received ? west.solution(m, 4, j, k) : before.solution(m, i, j, k);
                        assertEquals(expected, east.solution(m, i, j, k), 0.0, "i=" + i + " j=" + j + " k=" + k);
                    }
                }
            }
        }
    }

    @Test
    void northToSouthRoundTripThroughAnOffsetBuffer() {
        LuZone south = zone(7, 6, 5, 0);
        LuZone north = zone(7, 6, 5, 9_000);
        int len = south.faceLength(Face.NORTH);
        double[] buf = new double[len + 10];
        Arrays.fill(buf, -1.0);
        south.packFace(Face.NORTH, buf, 7);
        assertEquals(-1.0, buf[6], 0.0, "pack wrote before its offset");
        assertEquals(-1.0, buf[7 + len], 0.0, "pack wrote past its length");
        north.unpackFace(Face.SOUTH, buf, 7);
        // what north now holds at j = 0 is what south had at j = ny-2
        for (int k = 1; k < 4; k++) {
            for (int i = 1; i < 6; i++) {
                for (int m = 0; m < 5; m++) {
                    assertEquals(south.solution(m, i, 4, k), north.solution(m, i, 0, k), 0.0);
                }
            }
        }
    }

    @Test
    void aBufferTooShortIsOneClearError() {
        LuZone z = new LuZone(problem, 6, 6, 6);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> z.packFace(Face.EAST, new double[z.faceLength(Face.EAST)], 1));
        assertTrue(e.getMessage().contains("packFace(EAST)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> z.unpackFace(Face.SOUTH, new double[3], 0));
    }

    @Test
    void zonesSmallerThanLuAllowsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new LuZone(problem, 4, 6, 6));
        assertTrue(e.getMessage().contains("4 x 6 x 6"), e.getMessage());
    }
}
