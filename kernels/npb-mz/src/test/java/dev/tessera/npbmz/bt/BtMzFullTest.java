package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npbmz.MzDriver;
import dev.tessera.npbmz.MzResult;
import dev.tessera.npbmz.ZoneBenchmark;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** BT-MZ classes W and A through the driver (opt-in: the npb-full profile runs the "full" tag; minutes). */
@Tag("full")
class BtMzFullTest {

    private final ZoneBenchmark bench = new BtMz();

    private MzResult run(char c, int ranks, int threads) {
        ConcurrentHashMap<Integer, MzResult> results = new ConcurrentHashMap<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofMinutes(9),
                session -> results.put(session.rank(),
                        MzDriver.run(session, bench, bench.problem(c), MzDriver.Settings.quiet())));
        return results.get(0);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void classWVerifiesOnTwoRanks() {
        MzResult r = run('W', 2, 1);
        assertTrue(r.verified(), r.verification());
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void classAVerifiesWithTwoThreads() {
        MzResult r = run('A', 1, 2);
        assertTrue(r.verified(), r.verification());
    }
}
