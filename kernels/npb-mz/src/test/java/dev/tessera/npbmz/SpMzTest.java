package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npbmz.sp.SpMz;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** SP-MZ class S verifies on every layout, and the layout does not change a bit of the result. */
@Timeout(120)
class SpMzTest {

    private static final SpMz SP = new SpMz();
    private static MzResult serial;

    @BeforeAll
    static void runSerial() {
        serial = MzJobs.smp(SP, 'S', 1, 1, false, Duration.ofSeconds(100));
    }

    @Test
    void classSVerifiesOnOneRankOfOneThread() {
        assertTrue(serial.verified(), serial.verification());
        assertEquals(1, serial.ranks());
        assertEquals(1, serial.threads());
        assertEquals(100, serial.problem().iterations());
        // verify.f's reference values, met to far better than the 1e-8 tolerance
        assertEquals(0.7698876173566e+01, serial.norms()[0], 1e-11);
        assertEquals(0.7776038881521e+01, serial.norms()[9], 1e-11);
        assertTrue(serial.mops() > 0);
    }

    @Test
    void twoRanksOfOneThreadGiveTheSameNormsBitForBit() {
        MzResult r = MzJobs.smp(SP, 'S', 2, 1, false, Duration.ofSeconds(100));
        assertTrue(r.verified(), r.verification());
        assertEquals(2, r.ranks());
        assertEquals(2, r.threads());
        assertArrayEquals(serial.norms(), r.norms());
    }

    @Test
    void oneRankOfTwoThreadsGivesTheSameNormsBitForBit() {
        MzResult r = MzJobs.smp(SP, 'S', 1, 2, false, Duration.ofSeconds(100));
        assertTrue(r.verified(), r.verification());
        assertEquals(2, r.threads());
        assertArrayEquals(serial.norms(), r.norms());
    }

    @Test
    void threadsOverZonesGiveTheSameNormsBitForBit() {
        MzResult r = MzJobs.smp(SP, 'S', 1, 2, true, Duration.ofSeconds(100));
        assertTrue(r.zoneThreads());
        assertArrayEquals(serial.norms(), r.norms());
    }

    @Test
    void threeRanksWithUnequalZoneCountsVerify() {
        MzResult r = MzJobs.smp(SP, 'S', 3, 1, false, Duration.ofSeconds(100));
        assertArrayEquals(serial.norms(), r.norms());
        // 4 equal zones on 3 ranks: loads 2, 1, 1 zones, the largest 1.5 times the mean
        assertEquals(1.5, r.imbalance(), 1e-12);
    }

    @Test
    void theWrongNumberOfIterationsFailsVerificationWithANonNullFailureLine() {
        AtomicReference<String> failure = new AtomicReference<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session -> {
            String f = NpbMzMain.execute(session, new String[] {"sp-mz", "--class", "S", "--iterations", "10"}, out, out);
            if (session.rank() == 0) {
                failure.set(f);
            } else {
                assertEquals("SP-MZ class S: verification failed (10 iterations, dt 0.015)", f, "every rank knows");
            }
        });
        assertEquals("SP-MZ class S: verification failed (10 iterations, dt 0.015)", failure.get());
        String report = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains(" NITER does not match the reference value of   100"), report);
        assertTrue(report.contains(" Verification    =             UNSUCCESSFUL"), report);
    }

    @Test
    void theReportHasTheReferenceLayout() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AtomicReference<String> failure = new AtomicReference<>("not run");
        SmpJob.run(1, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session ->
                failure.set(NpbMzMain.execute(session, new String[] {"sp-mz", "--class", "S"}, out, out)));
        assertNull(failure.get());
        String report = bytes.toString(StandardCharsets.UTF_8);
        for (String line : new String[] {
            " SP-MZ Benchmark Completed.",
            " Class           =                        S",
            " Size            =             24x   24x  6",
            " Iterations      =                      100",
            " Total processes =                        1",
            " Total threads   =                        1",
            " Operation type  =           floating point",
            " Verification    =               SUCCESSFUL",
            " Number of zones:   2 x   2",
            " Time step  100",
            " Verification Successful"}) {
            assertTrue(report.lines().anyMatch(line::equals), "missing line '" + line + "' in\n" + report);
        }
        assertTrue(report.lines().anyMatch(l -> l.matches(" Mop/s total     = {12} *[0-9]+\\.[0-9]{2}")), report);
        assertTrue(report.lines().anyMatch(l -> l.matches(" Mop/s/thread    = {12} *[0-9]+\\.[0-9]{2}")), report);
    }

    @Test
    void jsonIsOneLineWithTheStableFields() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(100), session ->
                NpbMzMain.execute(session, new String[] {"sp-mz", "--class", "S", "--json"}, out, out));
        String text = bytes.toString(StandardCharsets.UTF_8).strip();
        assertEquals(1, text.lines().count(), text);
        assertTrue(text.startsWith("{\"name\":\"SP-MZ\",\"class\":\"S\",\"size\":\"24x24x6\",\"zones\":\"2x2\","
                + "\"iterations\":100,\"np\":2,\"threads\":2,\"seconds\":"), text);
        assertTrue(text.contains("\"verified\":true"), text);
        assertTrue(text.matches(".*\"mops\":[0-9]+\\.[0-9]{2},\"mops_per_thread\":[0-9]+\\.[0-9]{2},.*"), text);
        assertFalse(text.contains("Benchmark Completed"), text);
    }
}
