package dev.tessera.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Team waiters spin, then park; by default they never yield (see {@link TeamIdle}). */
class TeamIdleTest {

    @Test
    void waitersParkRightAfterSpinningByDefault() {
        assertEquals(0, TeamIdle.YIELDS, "no yield phase unless tessera.team.yields asks for one");
        assertFalse(TeamIdle.parks(TeamIdle.SPINS - 1));
        assertTrue(TeamIdle.parks(TeamIdle.SPINS));
    }

    @Test
    void idleCountsUp() {
        assertEquals(1, TeamIdle.idle(0));
        assertEquals(TeamIdle.SPINS + 1, TeamIdle.idle(TeamIdle.SPINS)); // one short park
    }
}
