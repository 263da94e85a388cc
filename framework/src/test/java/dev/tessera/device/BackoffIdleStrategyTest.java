package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The waiting policy's phases. The default goes from spinning straight to parking: a yield
 * phase made a 56 KB shm exchange take milliseconds whenever any other task was runnable
 * (see the class comment of {@link BackoffIdleStrategy}).
 */
class BackoffIdleStrategyTest {

    @Test
    void theDefaultSpinsThenParksWithoutAYieldPhase() {
        int spins = Integer.getInteger("tessera.idle.spins", 2_000);
        assertFalse(BackoffIdleStrategy.DEFAULT.parks(spins - 1), "still spinning before the spin budget is used");
        assertTrue(BackoffIdleStrategy.DEFAULT.parks(spins), "parks right after spinning, with no yields in between");
    }

    @Test
    void aConfiguredYieldPhaseSitsBetweenSpinningAndParking() {
        BackoffIdleStrategy s = new BackoffIdleStrategy(10, 5, 1_000, 200_000);
        assertFalse(s.parks(14));
        assertTrue(s.parks(15));
        s.idle(12); // a yield: returns
    }

    @Test
    void badThresholdsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(-1, 0, 1_000, 200_000));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(1, 0, 1_000, 10));
    }
}
