package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wait for idle JIT compilers at the end of a kernel's warm-up. */
class JitSettleTest {

    @Test
    @Timeout(30)
    void compilerClockGrowsWhileTheJitCompiles() throws InterruptedException {
        JitSettle.CompilerClock clock = JitSettle.CompilerClock.open();
        assumeTrue(clock.fromProc(), "needs /proc/self/task (Linux)");
        long before = clock.read();
        // A method of its own, run until the JIT has compiled it (C1 after a few hundred calls, C2 later).
        long sink = 0;
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (clock.read() <= before && System.nanoTime() < deadline) {
            for (int i = 0; i < 50_000; i++) {
                sink += freshHotMethod(i);
            }
            Thread.sleep(5);
        }
        assertTrue(clock.read() > before, "the compiler threads' CPU time did not grow (sink " + sink + ")");
    }

    private static long freshHotMethod(int i) {
        long h = i * 0x9E3779B97F4A7C15L;
        return (h ^ (h >>> 29)) & 0xff;
    }

    @Test
    @Timeout(30)
    void sleepsAtLeastTheQuietWindowAndSettles() {
        JitSettle.Outcome o = JitSettle.await(50, 10_000);
        assertTrue(o.settled(), o.toString());
        assertTrue(o.waitedMillis() >= 50, o.toString());
    }

    @Test
    @Timeout(30)
    void givesUpAtTheLimit() {
        JitSettle.Outcome o = JitSettle.await(5_000, 100);
        assertFalse(o.settled(), o.toString());
        assertTrue(o.waitedMillis() >= 100 && o.waitedMillis() < 5_000, o.toString());
    }

    @Test
    void thePropertyTurnsItOffAndTheReportSaysWhetherItRan() {
        String old = System.getProperty(JitSettle.PROPERTY);
        System.setProperty(JitSettle.PROPERTY, "false");
        try {
            assertNull(JitSettle.afterWarmUp());
        } finally {
            if (old == null) {
                System.clearProperty(JitSettle.PROPERTY);
            } else {
                System.setProperty(JitSettle.PROPERTY, old);
            }
        }
        assertEquals("6 V-cycles", JitSettle.describe("6 V-cycles", null));
        assertEquals("6 V-cycles, then slept until the JIT compilers were idle (at most 2 s)",
                JitSettle.describe("6 V-cycles", new JitSettle.Outcome(60, true)));
    }
}
