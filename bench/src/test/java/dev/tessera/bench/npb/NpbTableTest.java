package dev.tessera.bench.npb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.bench.sweep.Layout;
import dev.tessera.bench.sweep.RunOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The side-by-side table of {@code tessera bench npb}: shared reference runs, speed-ups, the 1 x 1 goals, CSV, classes. */
class NpbTableTest {

    private static final Layout L11 = new Layout(1, 1);
    private static final Layout L12 = new Layout(1, 2);
    private static final Layout L21 = new Layout(2, 1);

    private static RunOutcome run(double mops) {
        return new RunOutcome(1.0, mops, true, "json");
    }

    /** Class A, kernels cg and mg, layouts 1x1, 1x2, 2x1, with runs filled in. */
    private static NpbTable table() {
        NpbTable t = new NpbTable();
        for (String k : List.of("cg", "mg")) {
            for (Layout l : List.of(L11, L12, L21)) {
                t.add('A', k, l);
            }
        }
        List<NpbTable.Row> rows = t.rows();
        // cg: ours 1000 / 1800 / 1500, reference np=1 {900, 1100, 1000} (median 1000), np=2 1600
        rows.get(0).ours().add(run(1000));
        rows.get(0).reference().addAll(List.of(run(900), run(1100), run(1000)));
        rows.get(1).ours().add(run(1800));
        rows.get(2).ours().add(run(1500));
        rows.get(2).reference().add(run(1600));
        // mg: ours 500 / 1000 / 900, reference np=1 1000, np=2 1900
        rows.get(3).ours().add(run(500));
        rows.get(3).reference().add(run(1000));
        rows.get(4).ours().add(run(1000));
        rows.get(5).ours().add(run(900));
        rows.get(5).reference().add(run(1900));
        return t;
    }

    @Test
    void layoutsWithTheSameRanksShareOneReferenceRunList() {
        NpbTable t = new NpbTable();
        NpbTable.Row a11 = t.add('A', "cg", L11);
        NpbTable.Row a12 = t.add('A', "cg", L12);
        NpbTable.Row a21 = t.add('A', "cg", L21);
        NpbTable.Row b11 = t.add('B', "cg", L11);
        assertSame(a11.reference(), a12.reference());
        assertFalse(a11.reference() == a21.reference());
        assertFalse(a11.reference() == b11.reference());
        assertTrue(t.runsReference(a11));
        assertFalse(t.runsReference(a12), "1x2 reuses 1x1's reference runs (np=1)");
        assertTrue(t.runsReference(a21));
        assertTrue(t.runsReference(b11));
    }

    @Test
    void speedUpsAreOverOurOneByOneAndTheReferencesOneProcess() {
        List<NpbTable.SpeedUp> s = table().speedUps();
        assertEquals(4, s.size());
        NpbTable.SpeedUp cg12 = s.get(0);
        assertEquals("cg", cg12.kernel());
        assertEquals(L12, cg12.layout());
        assertEquals(1.8, cg12.ours(), 1e-12);
        assertEquals(1.6, cg12.reference(), 1e-12, "median of the np=1 runs (1000), not their mean or first");
        assertTrue(cg12.met());
        NpbTable.SpeedUp cg21 = s.get(1);
        assertEquals(1.5, cg21.ours(), 1e-12);
        assertFalse(cg21.met());
        NpbTable.SpeedUp mg12 = s.get(2);
        assertEquals(2.0, mg12.ours(), 1e-12);
        assertEquals(1.9, mg12.reference(), 1e-12);
        assertTrue(mg12.met());
        assertFalse(s.get(3).met());
    }

    @Test
    void aMissingReferenceRunIsNotMeasuredRatherThanMet() {
        NpbTable t = new NpbTable();
        NpbTable.Row one = t.add('A', "ep", L11);
        NpbTable.Row two = t.add('A', "ep", L12);
        one.ours().add(run(30));
        one.reference().add(run(30));
        two.ours().add(run(60));
        NpbTable.SpeedUp u = t.speedUps().get(0);
        assertFalse(u.known(), "no layout ran the reference on 2 processes");
        assertFalse(u.met());
        assertTrue(t.format("h").contains("not measured"));
    }

    @Test
    void oneByOneGoalsAreTheGeometricMeanAndTheLowestKernel() {
        NpbTable.OneCore c = table().oneCore().get(0);
        assertEquals(Math.sqrt(1.0 * 0.5), c.geomean(), 1e-12);
        assertEquals("mg", c.lowestKernel());
        assertEquals(0.5, c.lowest(), 1e-12);
        assertFalse(c.met());
        NpbTable t = new NpbTable();
        NpbTable.Row r = t.add('B', "ft", L11);
        r.ours().add(run(95));
        r.reference().add(run(100));
        assertTrue(t.oneCore().get(0).met());
    }

    @Test
    void formatAndCsvCarryTheSpeedUps() {
        NpbTable t = table();
        String text = t.format("header");
        assertTrue(text.startsWith("header\n"));
        assertTrue(text.contains("A     MG     2x1          1.80        1.90 not met"), text);
        assertTrue(text.contains("A     CG     1x2          1.80        1.60 met"), text);
        assertTrue(text.contains("Class A at 1x1: geometric mean 0.71 x the reference (goal 0.9), lowest MG 0.50 x (goal 0.7): not met"),
                text);
        String csv = t.csv('A');
        assertTrue(csv.contains("cg,A,1,1,1000.00,yes,1000.00,1.0000,,\n"), csv);
        assertTrue(csv.contains("cg,A,1,2,1800.00,yes,1000.00,1.8000,1.8000,1.6000\n"), csv);
        assertTrue(csv.contains("mg,A,2,1,900.00,yes,1900.00,0.4737,1.8000,1.9000\n"), csv);
        assertEquals("kernel,class,ranks,threads,tessera_mops,verified,reference_mops,ratio,tessera_speedup,reference_speedup\n",
                t.csv('B'));
    }

    @Test
    void aRowWithAFailedOrMissingRunIsNotVerified() {
        NpbTable t = new NpbTable();
        NpbTable.Row r = t.add('S', "is", L11);
        assertEquals("NO", r.verified());
        r.ours().add(run(1));
        assertEquals("yes", r.verified());
        r.ours().add(new RunOutcome(1, 1, false, "json"));
        assertEquals("NO", r.verified());
    }

    @Test
    void classesAreLettersGivenOnceInOrder() {
        assertEquals(List.of('A', 'B'), NpbCompareCommand.parseClasses(List.of("a", "B", "A")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NpbCompareCommand.parseClasses(List.of("A", "E")));
        assertTrue(e.getMessage().contains("'E' is not a class letter"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NpbCompareCommand.parseClasses(List.of("AB")));
    }

    /**
     * A machine that runs twice as fast in the second round: the ratio of the medians mixes rounds,
     * the per-round speed-ups pair the runs of one round.
     */
    @Test
    void speedUpsWithinRoundsPairTheRunsOfOneRound() {
        NpbTable t = new NpbTable();
        NpbTable.Row one = t.add('A', "is", L11);
        NpbTable.Row two = t.add('A', "is", L21);
        double[] speed = {1, 2, 1};
        for (int round = 0; round < 3; round++) {
            t.record(one, round, run(400 * speed[round]));
            t.recordReference(one, round, run(100 * speed[round]));
            t.record(two, round, run(600 * speed[round]));
            t.recordReference(two, round, run(190 * speed[round]));
        }
        NpbTable.SpeedUp u = t.speedUps().get(0);
        assertEquals(1.5, u.ours(), 1e-12);
        assertArrayEquals(new double[] {1.5, 1.5, 1.5}, u.oursByRound(), 1e-12);
        assertArrayEquals(new double[] {1.9, 1.9, 1.9}, u.referenceByRound(), 1e-12);
        assertTrue(t.format("h").contains("A     IS     2x1          1.50        1.90 not met; per round 1.50 (1.50-1.50) / 1.90 (1.90-1.90)"),
                t.format("h"));
        // a round whose 1x1 run failed pairs nothing; the reference's rounds still pair
        NpbTable u2 = new NpbTable();
        NpbTable.Row a = u2.add('A', "is", L11);
        NpbTable.Row b = u2.add('A', "is", L21);
        u2.recordReference(a, 0, run(100));   // round 0: our 1x1 run failed
        u2.record(b, 0, run(2000));
        u2.recordReference(b, 0, run(180));
        u2.record(a, 1, run(400));
        u2.recordReference(a, 1, run(200));
        u2.record(b, 1, run(500));
        u2.recordReference(b, 1, run(400));
        NpbTable.SpeedUp v = u2.speedUps().get(0);
        assertArrayEquals(new double[] {1.25}, v.oursByRound(), 1e-12, "round 1's pair only");
        assertArrayEquals(new double[] {1.8, 2.0}, v.referenceByRound(), 1e-12);
        assertTrue(u2.format("h").contains("per round 1.25 (1.25-1.25) / 1.90 (1.80-2.00)"), u2.format("h"));
        // runs added without rounds (as before) print no per-round part
        assertFalse(table().format("h").contains("per round"));
    }
}
