package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.task.Team;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Class B (16 zones of 76 x 52 x 17, 250 iterations, with the sweeps pipelined over two
 * threads): minutes, so only in the opt-in profile ({@code -Pnpb-full}, tag "full").
 */
@Tag("full")
class LuMzClassBTest {

    @Test
    @Timeout(value = 1200, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void classBVerifiesWithTwoThreads() {
        LuMz bench = new LuMz();
        try (Team team = Team.create(2)) {
            SequentialZones.Result r = new SequentialZones(bench, bench.problem('B')).run(team, -1, true);
            assertTrue(r.verification().verified(), r.verification().detail());
        }
    }
}
