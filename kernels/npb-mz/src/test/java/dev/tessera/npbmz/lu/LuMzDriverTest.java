package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npbmz.MzDriver;
import dev.tessera.npbmz.MzResult;
import dev.tessera.task.Team;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * LU-MZ class S through the multi-zone driver (one smp rank), threads inside the zones and
 * threads over zones, against this package's own sequential harness.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LuMzDriverTest {

    private final LuMz bench = new LuMz();

    private MzResult driver(int threads, boolean zoneThreads) {
        AtomicReference<MzResult> result = new AtomicReference<>();
        MzDriver.Settings settings = new MzDriver.Settings(0, true, zoneThreads, false, null, null);
        SmpJob.run(1, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100),
                session -> result.set(MzDriver.run(session, bench, bench.problem('S'), settings)));
        return result.get();
    }

    private static double[] harnessNorms() {
        try (Team team = Team.create(1)) {
            return new SequentialZones(new LuMz(), new LuMz().problem('S')).run(team, -1, true).norms();
        }
    }

    private static void assertSameNorms(double[] expected, double[] actual) {
        assertEquals(expected.length, actual.length);
        for (int m = 0; m < expected.length; m++) {
            // the driver may add the 16 zones' terms in another order: last bits only
            assertEquals(expected[m], actual[m], 1e-13 * Math.abs(expected[m]), "norm " + m);
        }
    }

    @Test
    void classSThroughTheDriverAtOneRankOneThread() {
        MzResult r = driver(1, false);
        assertTrue(r.verified(), r.verification());
        assertEquals("LU-MZ", r.name());
        assertEquals(1, r.threads());
        assertSameNorms(harnessNorms(), r.norms());
    }

    @Test
    void classSThroughTheDriverAtOneRankTwoThreadsInsideZones() {
        MzResult r = driver(2, false);
        assertTrue(r.verified(), r.verification());
        assertEquals(2, r.threads());
        assertSameNorms(harnessNorms(), r.norms());
    }

    @Test
    void classSThroughTheDriverAtOneRankTwoThreadsOverZones() {
        MzResult r = driver(2, true);
        assertTrue(r.verified(), r.verification());
        assertTrue(r.zoneThreads());
        assertSameNorms(harnessNorms(), r.norms());
    }
}
