package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** zone_setup: zone sizes and periodic neighbours as the reference computes them. */
class ZoneLayoutTest {

    private static int[] xWidths(ZoneLayout l) {
        return java.util.stream.IntStream.range(0, l.xZones()).map(l::nx).toArray();
    }

    private static int[] yWidths(ZoneLayout l) {
        return java.util.stream.IntStream.range(0, l.yZones()).map(j -> l.ny(j * l.xZones())).toArray();
    }

    @Test
    void equalZonesOfSpMzClassAAre32By32By16() {
        ZoneLayout l = ZoneLayout.of(new MzProblem('A', 128, 128, 16, 4, 4, 400, 0.0015), 1.0);
        assertEquals(16, l.zones());
        for (int z = 0; z < 16; z++) {
            assertEquals(32, l.nx(z));
            assertEquals(32, l.ny(z));
            assertEquals(16, l.nz(z));
        }
    }

    @Test
    void equalZonesRoundLikeTheReferenceWhenTheGridDoesNotDivide() {
        // SP-MZ class B: 304 x 208 in 8 x 8 zones: 38 x 26 each; class C 480 x 320 in 16 x 16: 30 x 20
        ZoneLayout b = ZoneLayout.of(new MzProblem('B', 304, 208, 17, 8, 8, 400, 0.001), 1.0);
        assertArrayEquals(new int[] {38, 38, 38, 38, 38, 38, 38, 38}, xWidths(b));
        assertArrayEquals(new int[] {26, 26, 26, 26, 26, 26, 26, 26}, yWidths(b));
        assertArrayEquals(new int[] {7, 7, 8, 7, 7, 8, 7, 8}, ZoneLayout.widths(59, 8, 1.0));
    }

    @Test
    void unevenZonesOfBtMzGrowByTheReferenceRatio() {
        // printed by the reference bt-mz.A.x with NPB_VERBOSE=2: 13, 21, 36, 58 in x and y
        ZoneLayout a = ZoneLayout.of(new MzProblem('A', 128, 128, 16, 4, 4, 200, 0.0008), 4.5);
        assertArrayEquals(new int[] {13, 21, 36, 58}, xWidths(a));
        assertArrayEquals(new int[] {13, 21, 36, 58}, yWidths(a));
        // bt-mz.S.x: 6 and 18 (ratio 3.0)
        ZoneLayout s = ZoneLayout.of(new MzProblem('S', 24, 24, 6, 2, 2, 60, 0.010), 3.0);
        assertArrayEquals(new int[] {6, 18}, xWidths(s));
        for (int[] w : new int[][] {xWidths(a), yWidths(a)}) {
            assertEquals(128, Arrays.stream(w).sum());
        }
    }

    @Test
    void neighboursArePeriodicInXAndY() {
        ZoneLayout l = ZoneLayout.of(new MzProblem('W', 64, 64, 8, 4, 4, 400, 0.0015), 1.0);
        assertEquals(3, l.neighbour(0, Face.WEST));
        assertEquals(1, l.neighbour(0, Face.EAST));
        assertEquals(12, l.neighbour(0, Face.SOUTH));
        assertEquals(4, l.neighbour(0, Face.NORTH));
        assertEquals(12, l.neighbour(15, Face.EAST));
        assertEquals(3, l.neighbour(15, Face.NORTH));
        for (int z = 0; z < l.zones(); z++) {
            for (Face f : Face.values()) {
                assertEquals(z, l.neighbour(l.neighbour(z, f), ZoneLayout.opposite(f)), "zone " + z + " " + f);
            }
        }
    }

    @Test
    void zonesTooThinForTheSolverAreRefusedWithTheClassNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZoneLayout.of(new MzProblem('X', 8, 8, 4, 4, 4, 1, 0.1), 1.0));
        assertEquals("zone_setup: a zone of class X would be 2 points wide in x (at least 3 are needed)", e.getMessage());
    }
}
