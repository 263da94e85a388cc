package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Classes W and A of every benchmark in the build, at 1x1, 2x1 and 1x2 on smp: minutes, so only
 * in the opt-in profile ({@code mvn -pl kernels/npb-mz install -Pnpb-full}).
 */
@Tag("full")
@Timeout(1800)
class FullClassesTest {

    @ParameterizedTest(name = "{0} class {1}")
    @CsvSource({"sp-mz, W", "sp-mz, A", "bt-mz, W", "bt-mz, A", "lu-mz, W", "lu-mz, A"})
    void verifiesAt1x1And2x1And1x2WithTheSameNorms(String name, char c) {
        Optional<ZoneBenchmark> b = ZoneBenchmarks.find(name);
        assumeTrue(b.isPresent(), name + " is not in this build");
        MzResult serial = MzJobs.smp(b.get(), c, 1, 1, false, Duration.ofMinutes(10));
        assertTrue(serial.verified(), serial.verification());
        MzResult ranks = MzJobs.smp(b.get(), c, 2, 1, false, Duration.ofMinutes(10));
        assertTrue(ranks.verified(), ranks.verification());
        assertArrayEquals(serial.norms(), ranks.norms());
        MzResult threads = MzJobs.smp(b.get(), c, 1, 2, false, Duration.ofMinutes(10));
        assertTrue(threads.verified(), threads.verification());
    }

    @ParameterizedTest(name = "{0} class W")
    @CsvSource({"sp-mz", "bt-mz", "lu-mz"})
    void classWVerifiesOnTwoShmProcesses(String name) throws Exception {
        assumeTrue(ZoneBenchmarks.find(name).isPresent(), name + " is not in this build");
        MzJobs.Outcome o = MzJobs.launch("shm", 2, 1, Duration.ofMinutes(10), name, "--class", "W", "--json");
        assertTrue(o.status() == 0 && o.json().contains("\"verified\":true"), o.output());
    }
}
