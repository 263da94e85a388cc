package dev.tessera.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class AffinityTest {

    @Test
    void slotsAreDisjointRunsOfTheAllowedCores() {
        int[] allowed = {0, 1, 2, 3, 4, 5, 6, 7};
        assertArrayEquals(new int[] {0}, Affinity.slot(allowed, 0, 2, 1));
        assertArrayEquals(new int[] {1}, Affinity.slot(allowed, 1, 2, 1));
        assertArrayEquals(new int[] {4, 5, 6, 7}, Affinity.slot(allowed, 1, 2, 4));
        assertArrayEquals(new int[] {6, 7}, Affinity.slot(allowed, 3, 4, 2));
        // allowed sets with gaps (a cgroup or an outer launcher restricted us)
        assertArrayEquals(new int[] {9}, Affinity.slot(new int[] {3, 9}, 1, 2, 1));
    }

    @Test
    void oversubscribedNodesAreNotBound() {
        int[] allowed = {0, 1};
        assertEquals(0, Affinity.slot(allowed, 0, 3, 1).length);
        assertEquals(0, Affinity.slot(allowed, 1, 2, 2).length);
        assertEquals(0, Affinity.slot(new int[0], 0, 1, 1).length);
    }

    @Test
    void nothingIsBoundUnlessAsked() {
        assertEquals(0, Affinity.bindFromEnvironment(Map.of(), 0, 1).length);
        assertEquals(0, Affinity.bindFromEnvironment(Map.of("TESSERA_BIND", "none"), 0, 1).length);
    }

    @Test
    void bindsTheCallingThreadOnly() throws Exception {
        int[] allowed = Affinity.allowedCpus();
        assumeTrue(allowed.length > 0, "sched_getaffinity is not available here");
        AtomicReference<int[]> bound = new AtomicReference<>();
        AtomicReference<int[]> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            bound.set(Affinity.bindFromEnvironment(Map.of("TESSERA_BIND", "core", "TESSERA_THREADS", "1"),
                    allowed.length - 1, allowed.length));
            seen.set(Affinity.allowedCpus());
        });
        t.start();
        t.join();
        assertArrayEquals(new int[] {allowed[allowed.length - 1]}, bound.get());
        assertArrayEquals(bound.get(), seen.get());
        assertArrayEquals(allowed, Affinity.allowedCpus(), "other threads keep their cores");
        assertTrue(Affinity.bindCurrentThread(new int[0]) == false);
    }
}
