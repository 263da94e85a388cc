package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** BtMz's classes, zone sizes, verification and operation count against the reference's tables. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BtMzTest {

    private final BtMz bench = new BtMz();

    @Test
    void classesAreTheReferenceSetparamsValues() {
        assertEquals(new MzProblem('A', 128, 128, 16, 4, 4, 200, 0.0008), bench.problem('A'));
        assertEquals(new MzProblem('C', 480, 320, 28, 16, 16, 200, 0.0001), bench.problem('c'));
        assertEquals(3.0, bench.zoneRatio(bench.problem('S')));
        assertEquals(4.5, bench.zoneRatio(bench.problem('B')));
        assertTrue(bench.unevenZones());
    }

    @Test
    void unknownClassNamesTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bench.problem('D'));
        assertEquals("BT-MZ has classes S, W, A, B, C; got 'D'", e.getMessage());
    }

    @Test
    void aZoneTooSmallForTheStencilsIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> bench.newZone(bench.problem('S'), 6, 4, 6));
        assertEquals("BT-MZ newZone: a zone needs at least 5 points per direction, got 6 x 4 x 6", e.getMessage());
    }

    @Test
    void zoneWidthsGrowByTheRatioAndCoverTheGrid() {
        // class A, x: 128 points in 4 zones growing by 4.5 from first to last (zone_setup.f)
        int[] w = BtMz.zoneWidths(128, 4, 4.5);
        assertArrayEquals(new int[] {13, 21, 36, 58}, w);
        assertArrayEquals(new int[] {6, 18}, BtMz.zoneWidths(24, 2, 3.0));
        assertArrayEquals(new int[] {8, 8, 8, 8}, BtMz.zoneWidths(32, 4, 1.0));
    }

    @Test
    void verificationPassesOnTheReferenceNormsAndFailsOneUlpOfTolerancePast() {
        MzProblem s = bench.problem('S');
        double[] ref = {1047.687395830, 94.19911314792, 212.4737403068, 142.2173591794, 1135.441572375,
            177.5416062982, 18.75540250835, 38.63334844506, 26.34713890362, 196.5566269675};
        ZoneBenchmark.Verification ok = bench.verify(s, ref);
        assertTrue(ok.verified(), ok.detail());
        double[] off = ref.clone();
        off[7] *= 1.0 + 2.0e-8;
        ZoneBenchmark.Verification bad = bench.verify(s, off);
        assertFalse(bad.verified());
        assertTrue(bad.detail().contains("FAILURE:  3"), bad.detail());
        MzProblem wrongDt = new MzProblem('S', 24, 24, 6, 2, 2, 60, 0.02);
        assertFalse(bench.verify(wrongDt, ref).verified());
        assertThrows(IllegalArgumentException.class, () -> bench.verify(s, new double[5]));
    }

    @Test
    void mopsIsTheReferenceOperationCount() {
        // bt.f for class A printed 16.48 s and 8873.23 Mop/s (gfortran -O3 build of NPB3.4-MZ, 1 x 1);
        // the time is printed rounded to 0.005 s, worth 2.7 Mop/s here
        assertEquals(8873.23, bench.mops(bench.problem('A'), 16.48), 3.0);
        assertEquals(2.0 * bench.mops(bench.problem('A'), 16.48), bench.mops(bench.problem('A'), 8.24), 1e-9);
        assertEquals(0.0, bench.mops(bench.problem('A'), 0.0));
    }
}
