package dev.tessera.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.bench.osu.Bench;
import dev.tessera.bench.osu.Suite;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchCommandTest {

    @Test
    void quickDefaults() {
        Bench.Config c = BenchCommand.config(Suite.LATENCY, 2, "smp", null, null, null, null, null, 64, true);
        assertEquals(List.of(1, 1024, 65536), c.sizes());
        assertEquals(200, c.iters());
        assertEquals(5, c.blocks());
        assertEquals(1, c.warmup());
    }

    @Test
    void reductionsDropSizesBelowOneFloat() {
        Bench.Config c = BenchCommand.config(Suite.ALLREDUCE, 2, "shm", "1:16", null, null, null, null, 64, false);
        assertEquals(List.of(4, 8, 16), c.sizes());
        assertEquals(List.of(0), BenchCommand.config(Suite.BARRIER, 3, "tcp", null, null, null, null, null, 64, false).sizes());
    }

    @Test
    void badInputIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BenchCommand.config(Suite.LATENCY, 2, "gpu", null, null, null, null, null, 64, false));
        assertTrue(e.getMessage().contains("unknown device"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> BenchCommand.config(Suite.BW, 1, "smp", null, null, null, null, null, 64, false));
        assertThrows(IllegalArgumentException.class,
                () -> BenchCommand.config(Suite.LATENCY, 2, "smp", "1:x", null, null, null, null, 64, false));
        assertThrows(IllegalArgumentException.class,
                () -> BenchCommand.config(Suite.LATENCY, 2, "smp", null, 0, null, null, null, 64, false));
        assertThrows(IllegalArgumentException.class,
                () -> BenchCommand.config(Suite.ALLTOALL, 16, "smp", "256M", null, null, null, null, 64, false));
    }
}
