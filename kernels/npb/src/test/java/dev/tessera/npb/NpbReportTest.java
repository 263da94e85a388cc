package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The report's lines have the columns of NPB3.4-MPI/common/print_results.f: a 19-character
 * label, then (12x, i12 / f12.2 / a12), a24 for the operation type, and the three size forms.
 */
class NpbReportTest {

    private static final NpbReport.RunInfo RUN = new NpbReport.RunInfo(2, 3, "shm", "OpenJDK 25", "-Xmx1g", "0.1.0", "2026-11-24");

    private static String[] lines(KernelResult r) {
        return NpbReport.text(r, RUN).split("\n", -1);
    }

    @Test
    void linesHaveTheReferenceColumns() {
        KernelResult r = new KernelResult("CG", 'A', "14000", 15, 1.2345, 1234.5678, "          floating point", true, "");
        String[] l = lines(r);
        assertEquals("", l[0]);
        assertEquals("", l[1]);
        assertEquals(" CG Benchmark Completed.", l[2]);
        assertEquals(" Class           =                        A", l[3]);
        assertEquals(" Size            =                    14000", l[4]);
        assertEquals(" Iterations      =                       15", l[5]);
        assertEquals(" Time in seconds =                     1.23", l[6]);
        assertEquals(" Total processes =                        2", l[7]);
        assertEquals(" Active procs    =                        2", l[8]);
        assertEquals(" Threads/process =                        3", l[9]);
        assertEquals(" Mop/s total     =                  1234.57", l[10]);
        assertEquals(" Mop/s/process   =                   617.28", l[11]);
        assertEquals(" Operation type  =           floating point", l[12]);
        assertEquals(" Verification    =               SUCCESSFUL", l[13]);
        assertEquals(" Version         =                      3.4", l[14]);
        assertEquals(" Compile date    =               2026-11-24", l[15]);
        for (int i = 3; i <= 15; i++) {
            assertEquals(43, l[i].length(), "line " + i + " ends in column 43 like the reference's: '" + l[i] + "'");
        }
        assertEquals(" Compile options:", l[17]);
        assertTrue(l[21].contains("shm"), l[21]);
    }

    @Test
    void failedVerificationSaysUnsuccessful() {
        KernelResult r = new KernelResult("IS", 'S', "65536", 10, 0.5, 10, "keys ranked", false, "");
        assertTrue(NpbReport.text(r, RUN).contains(" Verification    =             UNSUCCESSFUL\n"));
        assertTrue(NpbReport.text(r, RUN).contains(" Operation type  =              keys ranked\n"));
    }

    @Test
    void sizeLinesTakeTheReferenceThreeForms() {
        // print_results.f formats 42 (9x, a15), 4 (two blanks, 9x, i4 'x' i4 'x' i4) and 44 (12x, i12).
        assertEquals(" Size            = " + " ".repeat(9) + " ".repeat(7) + "33554432", NpbReport.sizeLine("EP", "33554432"));
        assertEquals(" Size            =  " + " ".repeat(9) + " 256x 256x 128", NpbReport.sizeLine("FT", "256x256x128"));
        assertEquals(" Size            = " + " ".repeat(12) + " ".repeat(5) + "8388608", NpbReport.sizeLine("IS", "8388608"));
    }

    @Test
    void jsonIsOneLineWithEscapedStrings() {
        KernelResult r = new KernelResult("EP", 'W', "67108864", 0, 2.5, 26.8, "Random numbers generated", true, "x");
        String json = NpbReport.json(r, new NpbReport.RunInfo(4, 1, "sm\"p", "J", "", "v", "d"));
        assertEquals(-1, json.indexOf('\n'));
        assertTrue(json.contains("\"name\":\"EP\""), json);
        assertTrue(json.contains("\"np\":4"), json);
        assertTrue(json.contains("\"mops\":26.8"), json);
        assertTrue(json.contains("\"mops_per_process\":6.7"), json);
        assertTrue(json.contains("\"device\":\"sm\\\"p\""), json);
        assertTrue(json.contains("\"verified\":true"), json);
        assertTrue(json.contains("\"operation_type\":\"Random numbers generated\""), json);
    }

    @Test
    void untimedWarmUpIsPrintedUnderTheOptionsAndInTheJson() {
        KernelResult r = new KernelResult("CG", 'A', "14000", 15, 1.2345, 1234.5678, "          floating point", true, "",
                "12 iterations untimed (reference: 1)");
        String[] l = lines(r);
        assertEquals("    RAND         = randdp", l[22]);
        assertEquals("    WARM-UP      = 12 iterations untimed (reference: 1)", l[23]);
        assertTrue(NpbReport.json(r, RUN).contains("\"warm_up\":\"12 iterations untimed (reference: 1)\""),
                NpbReport.json(r, RUN));
        KernelResult none = new KernelResult("CG", 'A', "14000", 15, 1.2345, 1234.5678, "          floating point", true, "");
        assertTrue(!NpbReport.text(none, RUN).contains("WARM-UP"), "no warm-up line when the kernel does not describe one");
    }

    @Test
    void progressLineEstimatesTheTimeLeft() {
        assertEquals("CG.B: iteration 30 of 75, 12.0 s elapsed, about 18.0 s left", Progress.line("CG.B", 30, 75, 12.0));
    }
}
