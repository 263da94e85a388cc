package dev.tessera.npb.ft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import dev.tessera.npb.KernelResult;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FtKernelTest {

    @ParameterizedTest(name = "class S on {0} ranks x {1} threads verifies")
    @CsvSource({"1, 1", "1, 2", "2, 1", "2, 2", "4, 1", "4, 2"})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void classSVerifies(int ranks, int threads) {
        AtomicReference<KernelResult> result = new AtomicReference<>();
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, Duration.ofSeconds(100), session -> {
            KernelResult r = new FtKernel().run(session.world(), session.team(), 'S');
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        KernelResult r = result.get();
        assertTrue(r.verified(), r.verificationDetail());
        assertEquals("FT", r.name());
        assertEquals("64x64x64", r.size());
        assertEquals(6, r.iterations());
        assertTrue(r.mops() > 0);
    }

    @Test
    @Timeout(10)
    void checkRefusesRankCountsThatAreNotPowersOfTwo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FtKernel().check('S', 3));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void checkRefusesMoreRanksThanThePencilLayoutCanSplitOver() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FtKernel().check('W', 2048));
        assertTrue(e.getMessage().contains("2D"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void checkRefusesUnknownClassLetters() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FtKernel().check('Q', 1));
        assertTrue(e.getMessage().contains("'Q'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FtKernel().check('D', 1));
    }

    @Test
    @Timeout(10)
    void checkAcceptsWhatTheReferenceRuns() {
        new FtKernel().check('S', 1);
        new FtKernel().check('a', 8);
        new FtKernel().check('W', 32);
        new FtKernel().check('W', 1024);
    }
    @Test
    @Timeout(10)
    void heapFootprintOfClassBAtOneRankIsItsArraysAndFitsInFourGiB() {
        double gib = new FtKernel().heapBytesPerRank('B', 1, 1) / (double) (1L << 30);
        assertTrue(gib > 1.2 && gib < 1.8, "class B footprint " + gib + " GiB");
        assertTrue(new FtKernel().heapBytesPerRank('B', 4, 1) < new FtKernel().heapBytesPerRank('B', 1, 1) * 0.6);
    }

}
