package dev.tessera.npbmz.bt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npbmz.MzDriver;
import dev.tessera.npbmz.MzResult;
import dev.tessera.npbmz.ZoneBenchmark;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** BT-MZ class S through the multi-zone driver (zone mapping, exchange, timing) on the smp device. */
class BtMzDriverTest {

    private final ZoneBenchmark bench = new BtMz();

    private MzResult run(int ranks, int threads) {
        ConcurrentHashMap<Integer, MzResult> results = new ConcurrentHashMap<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(90),
                session -> results.put(session.rank(),
                        MzDriver.run(session, bench, bench.problem('S'), MzDriver.Settings.quiet())));
        assertEquals(ranks, results.size());
        return results.get(0);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesOnOneRankOneThread() {
        MzResult r = run(1, 1);
        assertTrue(r.verified(), r.verification());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesOnOneRankTwoThreads() {
        MzResult r = run(1, 2);
        assertTrue(r.verified(), r.verification());
        assertEquals(2, r.threads());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifiesOnTwoRanksOneThread() {
        MzResult r = run(2, 1);
        assertTrue(r.verified(), r.verification());
        assertEquals(2, r.ranks());
    }
}
