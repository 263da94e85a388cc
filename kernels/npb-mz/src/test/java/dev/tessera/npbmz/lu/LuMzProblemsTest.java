package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** LU-MZ's classes (setparams.c), zone split (zone_setup.f), Mop/s (lu.f) and verification (verify.f). */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class LuMzProblemsTest {

    private final LuMz bench = new LuMz();

    @Test
    void classesHaveTheReferenceSizesStepsAndTimeSteps() {
        assertEquals(new MzProblem('S', 24, 24, 6, 4, 4, 50, 0.5), bench.problem('S'));
        assertEquals(new MzProblem('W', 64, 64, 8, 4, 4, 300, 1.5e-3), bench.problem('W'));
        assertEquals(new MzProblem('A', 128, 128, 16, 4, 4, 250, 2.0), bench.problem('a'));
        assertEquals(new MzProblem('B', 304, 208, 17, 4, 4, 250, 2.0), bench.problem('B'));
        assertEquals(new MzProblem('C', 480, 320, 28, 4, 4, 250, 2.0), bench.problem('C'));
        assertEquals("LU-MZ", bench.name());
        assertFalse(bench.unevenZones());
    }

    @Test
    void anUnknownClassNamesTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> bench.problem('Q'));
        assertTrue(e.getMessage().contains("S, W, A, B, C"), e.getMessage());
    }

    @Test
    void zonesSplitTheMeshEquallyAsZoneSetupDoes() {
        int[] widths = new int[4];
        for (int z = 0; z < 4; z++) {
            widths[z] = LuMz.zoneSize(30, 4, z);
        }
        // x_end = i*30/4 = 7, 15, 22, 30
        assertEquals(7, widths[0]);
        assertEquals(8, widths[1]);
        assertEquals(7, widths[2]);
        assertEquals(8, widths[3]);
        assertEquals(76, LuMz.zoneSize(304, 4, 3));
        assertEquals(52, LuMz.zoneSize(208, 4, 0));
    }

    @Test
    void mopsIsLuFsOperationCountOverTheTime() {
        // class A: 16 zones of 32 x 32 x 16, 250 iterations
        double n3 = 32.0 * 32 * 16, navg = (32 + 32 + 16) / 3.0, nsur = (32 * 32 + 32 * 16 + 32 * 16) / 3.0;
        double perZone = 250 * 1.0e-6 * (1984.77 * n3 - 10923.3 * nsur + 27770.9 * navg - 144010.0);
        assertEquals(16 * perZone / 2.0, bench.mops(bench.problem('A'), 2.0), 1e-9 * perZone);
        assertEquals(0.0, bench.mops(bench.problem('A'), 0.0));
    }

    @Test
    void verificationAcceptsTheReferenceValuesAndRejectsAPerturbedOne() {
        MzProblem s = bench.problem('S');
        double[] ref = {
            0.3778579699366e+01, 0.3120418698065e+00, 0.8386213407018e+00, 0.4452165980488e+00, 0.7808656756434e+01,
            0.2429480066305e+02, 0.9072817470024e+01, 0.1032621825644e+02, 0.9256791727838e+01, 0.1639045777714e+02,
            0.4964435445706e+02};
        ZoneBenchmark.Verification ok = bench.verify(s, ref);
        assertTrue(ok.verified(), ok.detail());
        assertTrue(ok.detail().contains("           1   0.3778579699366E+01 0.3778579699366E+01 0.0000000000000E+00"),
                ok.detail());
        double[] off = ref.clone();
        off[10] *= 1 + 2e-8;
        ZoneBenchmark.Verification bad = bench.verify(s, off);
        assertFalse(bad.verified());
        assertTrue(bad.detail().contains(" FAILURE: "), bad.detail());
        double[] nan = ref.clone();
        nan[3] = Double.NaN;
        assertFalse(bench.verify(s, nan).verified());
    }

    @Test
    void aProblemWithOtherStepsThanTheClassFailsVerificationWithTheReason() {
        MzProblem a = bench.problem('A');
        MzProblem shorter = new MzProblem('A', a.gx(), a.gy(), a.gz(), 4, 4, 100, a.dt());
        ZoneBenchmark.Verification v = bench.verify(shorter, new double[11]);
        assertFalse(v.verified());
        assertTrue(v.detail().contains("ITMAX does not match the reference value of   250"), v.detail());
    }

    @Test
    void fortranExponentFormat() {
        assertEquals(" 0.1000000000000E-07", LuVerification.e20(1.0e-8));
        assertEquals("-0.2500000000000E+03", LuVerification.e20(-250.0));
        assertEquals(" 0.0000000000000E+00", LuVerification.e20(0.0));
    }
}
