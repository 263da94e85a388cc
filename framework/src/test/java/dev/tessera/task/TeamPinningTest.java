package dev.tessera.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The opt-in pinning of team members ({@code tessera.team.pin}, {@link TeamPinning}). */
@Timeout(60)
class TeamPinningTest {

    /** A sum whose bits depend on the order of its adds: each member sums its static block. */
    private static double blockSums(Team team, double[] x) {
        return team.reduceDouble(0, x.length, 0.0, i -> x[i] * 1.000000119 + 1e-7 * i, Double::sum);
    }

    private static double[] data() {
        double[] x = new double[200_003];
        long s = 12345;
        for (int i = 0; i < x.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            x[i] = (s >>> 11) * 0x1.0p-53 - 0.5;
        }
        return x;
    }

    @Test
    void pinnedMembersRunOnACpuEachAndGiveTheUnpinnedBits() throws Exception {
        int[] allowed = TeamPinning.allowedCpus();
        assumeTrue(allowed.length >= 2, "needs sched_getaffinity and two allowed CPUs, has " + allowed.length);
        double[] x = data();
        double unpinned;
        try (Team team = Team.create(2, false)) {
            unpinned = blockSums(team, x);
            assertArrayEquals(new int[] {-1, -1}, team.pinnedCpus(), "pinning is opt-in");
        }
        // a fresh thread as member 0, so that this test's thread keeps its CPUs whatever happens
        AtomicReference<Object> result = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try (Team team = Team.create(2, true)) {
                int[][] seen = new int[2][];
                team.region(ctx -> seen[ctx.id()] = TeamPinning.allowedCpus());
                double pinned = blockSums(team, x);
                int[] cpus = team.pinnedCpus();
                team.close();
                result.set(new Object[] {seen, pinned, cpus, TeamPinning.allowedCpus()});
            } catch (Throwable t) {
                result.set(t);
            }
        });
        caller.start();
        caller.join();
        if (result.get() instanceof Throwable t) {
            throw new AssertionError(t);
        }
        Object[] r = (Object[]) result.get();
        int[][] seen = (int[][]) r[0];
        assertArrayEquals(new int[] {allowed[0], allowed[1]}, (int[]) r[2], "member m on allowed CPU m");
        assertArrayEquals(new int[] {allowed[0]}, seen[0], "member 0 (the caller) bound to one CPU");
        assertArrayEquals(new int[] {allowed[1]}, seen[1], "member 1 (the worker) bound to another");
        assertEquals(Double.doubleToRawLongBits(unpinned), Double.doubleToRawLongBits((double) r[1]),
                "pinning changes where members run, not what they compute");
        assertArrayEquals(allowed, (int[]) r[3], "the caller gets its CPUs back when it closes the team");
        assertArrayEquals(allowed, TeamPinning.allowedCpus(), "other threads keep their CPUs");
    }

    @Test
    void fewerAllowedCpusThanMembersLeavesTheTeamUnpinnedAndWorking() throws Exception {
        int[] allowed = TeamPinning.allowedCpus();
        assumeTrue(allowed.length >= 1, "needs sched_getaffinity");
        double[] x = data();
        double unpinned;
        try (Team team = Team.create(3, false)) {
            unpinned = blockSums(team, x);
        }
        AtomicReference<Object> result = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                // a caller restricted to one CPU (as a rank bound by its launcher) asks for 3 pinned members
                assertTrue(TeamPinning.bindCurrentThread(allowed[0]));
                try (Team team = Team.create(3, true)) {
                    int[][] seen = new int[3][];
                    team.region(ctx -> seen[ctx.id()] = TeamPinning.allowedCpus());
                    result.set(new Object[] {seen, blockSums(team, x), team.pinnedCpus()});
                }
            } catch (Throwable t) {
                result.set(t);
            }
        });
        caller.start();
        caller.join();
        if (result.get() instanceof Throwable t) {
            throw new AssertionError(t);
        }
        Object[] r = (Object[]) result.get();
        assertArrayEquals(new int[] {-1, -1, -1}, (int[]) r[2], "nothing pinned");
        for (int[] seen : (int[][]) r[0]) {
            assertArrayEquals(new int[] {allowed[0]}, seen, "members keep the caller's CPUs");
        }
        assertEquals(Double.doubleToRawLongBits(unpinned), Double.doubleToRawLongBits((double) r[1]));
    }

    @Test
    void thePlanGivesMemberMTheMthAllowedCpuOrNothing() {
        assertArrayEquals(new int[] {3, 9}, TeamPinning.plan(new int[] {3, 9, 12}, 2));
        assertArrayEquals(new int[] {0, 1, 2, 3}, TeamPinning.plan(new int[] {0, 1, 2, 3}, 4));
        assertEquals(0, TeamPinning.plan(new int[] {0, 1}, 3).length, "fewer CPUs than members");
        assertEquals(0, TeamPinning.plan(new int[0], 2).length, "affinity unknown");
        assertEquals(0, TeamPinning.plan(new int[] {0, 1}, 1).length, "one member: nothing to spread");
    }

    @Test
    void theSwitchIsOffUnlessAskedAndThePropertyWins() {
        assertFalse(TeamPinning.parse(null, null));
        assertFalse(TeamPinning.parse("", " "));
        assertTrue(TeamPinning.parse("true", null));
        assertTrue(TeamPinning.parse(null, "ON"));
        assertTrue(TeamPinning.parse(" 1 ", "false"));
        assertFalse(TeamPinning.parse("false", "true"));
        assertFalse(TeamPinning.parse(null, "off"));
    }

    @Test
    void aBadValueIsRefusedNamingTheSettingAndTheValue() {
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> TeamPinning.parse("maybe", null));
        assertTrue(p.getMessage().contains("-Dtessera.team.pin") && p.getMessage().contains("'maybe'"), p.getMessage());
        IllegalArgumentException v = assertThrows(IllegalArgumentException.class,
                () -> TeamPinning.parse(null, "2"));
        assertTrue(v.getMessage().contains("TESSERA_TEAM_PIN") && v.getMessage().contains("'2'"), v.getMessage());
        String old = System.getProperty(TeamPinning.PROPERTY);
        System.setProperty(TeamPinning.PROPERTY, "sometimes");
        try {
            IllegalArgumentException c = assertThrows(IllegalArgumentException.class, () -> Team.create(2).close());
            assertTrue(c.getMessage().startsWith("Team.create: -Dtessera.team.pin must be true or false"),
                    c.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(TeamPinning.PROPERTY);
            } else {
                System.setProperty(TeamPinning.PROPERTY, old);
            }
        }
        assertTrue(Arrays.stream(TeamPinning.allowedCpus()).allMatch(c -> c >= 0));
    }
}
