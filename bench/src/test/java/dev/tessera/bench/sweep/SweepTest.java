package dev.tessera.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The layout advisor's parts: layouts, reading a run's output, medians, the best layout, costs and CSV. */
class SweepTest {

    @Test
    void layoutsFillTheCoresExactly() {
        assertEquals(List.of(new Layout(1, 2), new Layout(2, 1)), Layout.filling(2));
        assertEquals(List.of("1x16", "2x8", "4x4", "8x2", "16x1"), Layout.filling(16).stream().map(Layout::toString).toList());
        assertEquals(new Layout(4, 2), Layout.parse(" 4X2 "));
        assertThrows(IllegalArgumentException.class, () -> Layout.parse("4by2"));
        assertThrows(IllegalArgumentException.class, () -> Layout.parse("0x2"));
    }

    @Test
    void outcomesAreReadFromJsonTheNpbReportOrTheExamples() {
        RunOutcome json = RunOutcome.parse("{\"name\":\"SP-MZ\",\"seconds\":1.250000,\"mops\":2703.50,\"verified\":true}", null, 9);
        assertEquals(1.25, json.seconds());
        assertEquals(2703.5, json.mops());
        assertEquals(Boolean.TRUE, json.verified());
        RunOutcome npb = RunOutcome.parse(" BT-MZ Benchmark Completed.\n Time in seconds =                    12.34\n"
                + " Mop/s total     =                  2301.12\n Verification    =               UNSUCCESSFUL\n", null, 20);
        assertEquals(12.34, npb.seconds());
        assertEquals(2301.12, npb.mops());
        assertEquals(Boolean.FALSE, npb.verified());
        RunOutcome heat = RunOutcome.parse("  time             0.055 s (104.9 Mcell-updates/s)\n  verification     SUCCESSFUL\n", null, 3);
        assertEquals(0.055, heat.seconds());
        assertTrue(Double.isNaN(heat.mops()));
        assertEquals("program", heat.timeFrom());
        RunOutcome silent = RunOutcome.parse("hello\n", null, 3.5);
        assertEquals(3.5, silent.seconds());
        assertEquals("wall clock", silent.timeFrom());
        assertNull(silent.verified());
        RunOutcome user = RunOutcome.parse("solve took 7.5 seconds\n", Pattern.compile("took ([0-9.]+) seconds"), 9);
        assertEquals(7.5, user.seconds());
    }

    @Test
    void theBestLayoutHasTheHighestMopsAndTheCostFollowsTheMedian(@TempDir Path dir) throws Exception {
        LayoutResult a = new LayoutResult(new Layout(1, 2));
        LayoutResult b = new LayoutResult(new Layout(2, 1));
        for (double t : new double[] {4, 2, 3}) {
            a.add(new RunOutcome(t, 100 / t, true, "program"));
        }
        for (double t : new double[] {1, 5}) {
            b.add(new RunOutcome(t, 100 / t, true, "program"));
        }
        assertEquals(3.0, a.medianSeconds());
        assertEquals(3.0, b.medianSeconds());
        assertEquals(100 / 3.0, a.medianMops(), 1e-12);
        assertEquals((100.0 + 20.0) / 2, b.medianMops(), 1e-12);
        List<SweepReport.Row> rows = SweepReport.rows("m", List.of(a, b), 3.6);
        assertEquals(1, SweepReport.best(rows));
        assertEquals(3.0 / 3600 * 3.6, a.costPerRun(3.6), 1e-15);
        Path csv = dir.resolve("s.csv");
        SweepReport.writeCsv(csv, rows);
        List<SweepReport.Row> back = SweepReport.readCsv(csv, 7.2);
        assertEquals(2, back.size());
        assertEquals("2x1", back.get(1).layout());
        assertEquals(3.0, back.get(1).medianSeconds(), 1e-9);
        assertEquals(7.2, back.get(1).pricePerHour());
        assertThrows(java.io.IOException.class, () -> SweepReport.readCsv(dir.resolve("not.csv"), 1));
    }
}
