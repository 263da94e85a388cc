package dev.tessera.bench.osu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.smp.SmpFabric;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every suite's kernel runs on 3 smp ranks (threads) and rank 0 prints well-formed results; no timing checked. */
class OsuRankTest {

    @ParameterizedTest
    @EnumSource(Suite.class)
    void everySuiteRunsAndReports(Suite suite) throws Exception {
        int ranks = suite == Suite.MULTI_LAT || suite == Suite.MBW_MR ? 4 : 3;
        int[] sizes = suite.sizeless() ? new int[] {0} : new int[] {4, 1024, 40000};
        SmpFabric fabric = new SmpFabric(ranks);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ExecutorService pool = Executors.newFixedThreadPool(ranks);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                Comm world = dev.tessera.internal.CommAccess.get().createWorld(fabric.device(r), ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
                done.add(pool.submit(() -> OsuRank.run(world, suite, sizes, 3, 1, 0, 2, 4, out)));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        ResultParser parser = new ResultParser();
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(2 * sizes.length, lines.size(), lines.toString());
        lines.forEach(l -> assertTrue(ResultParser.isProtocol(l), l));
        lines.forEach(parser::accept);
        assertEquals(sizes.length, parser.points().size());
        for (Series.Point p : parser.points()) {
            assertEquals(2, p.time().count());
            assertTrue(p.time().min() > 0, p.toString());
            assertEquals(suite.isBandwidth(), p.bytesPerOp() > 0, p.toString());
        }
    }
}
