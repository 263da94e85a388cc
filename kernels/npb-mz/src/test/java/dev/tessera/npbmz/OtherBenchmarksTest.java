package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * BT-MZ and LU-MZ class S through the same driver, on the layouts SP-MZ is tested on: 1x1,
 * 2x1 and 1x2 on smp and 2x1 on shm processes. Skipped, with the reason, in a build that does
 * not contain the benchmark's class yet.
 */
@Timeout(240)
class OtherBenchmarksTest {

    private static ZoneBenchmark present(String name) {
        Optional<ZoneBenchmark> b = ZoneBenchmarks.find(name);
        assumeTrue(b.isPresent(), name + ": class " + ZoneBenchmarks.CLASSES.get(name) + " is not in this build");
        return b.get();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bt-mz", "lu-mz"})
    void classSVerifiesOnSmpAt1x1And2x1And1x2WithTheSameNorms(String name) {
        ZoneBenchmark bench = present(name);
        MzResult serial = MzJobs.smp(bench, 'S', 1, 1, false, Duration.ofSeconds(100));
        assertTrue(serial.verified(), serial.verification());
        MzResult twoRanks = MzJobs.smp(bench, 'S', 2, 1, false, Duration.ofSeconds(100));
        assertTrue(twoRanks.verified(), twoRanks.verification());
        assertEquals(2, twoRanks.ranks());
        MzResult twoThreads = MzJobs.smp(bench, 'S', 1, 2, false, Duration.ofSeconds(100));
        assertTrue(twoThreads.verified(), twoThreads.verification());
        assertEquals(2, twoThreads.threads());
        assertArrayEquals(serial.norms(), twoRanks.norms(), "2x1 against 1x1");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"bt-mz", "lu-mz"})
    void classSVerifiesOnTwoShmProcesses(String name) throws Exception {
        present(name);
        MzJobs.Outcome o = MzJobs.launch("shm", 2, 1, Duration.ofSeconds(200), name, "--class", "S", "--json");
        assertEquals(0, o.status(), o.output());
        assertTrue(o.json().contains("\"verified\":true"), o.output());
        assertTrue(o.json().contains("\"np\":2,"), o.output());
    }
}
