package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SP-MZ through the launcher's command line with one real process per rank on the shm device:
 * what {@code bin/tessera npb-mz} runs.
 */
@Timeout(180)
class ProcessJobTest {

    @Test
    void spMzClassSVerifiesOnTwoShmProcesses() throws Exception {
        MzJobs.Outcome o = MzJobs.launch("shm", 2, 1, Duration.ofSeconds(150), "sp-mz", "--class", "S", "--json");
        assertEquals(0, o.status(), o.output());
        String json = o.json();
        assertTrue(json.contains("\"np\":2,\"threads\":2,"), json);
        assertTrue(json.contains("\"verified\":true"), json);
        assertTrue(json.contains("\"device\":\"shm\""), json);
    }

    @Test
    void aFailedVerificationEndsTheJobWithANonZeroStatusAndOneLine() throws Exception {
        MzJobs.Outcome o = MzJobs.launch("shm", 2, 1, Duration.ofSeconds(150), "sp-mz", "--class", "S",
                "--iterations", "3", "--json");
        assertEquals(NpbMzMain.UNVERIFIED, o.status(), o.output());
        assertTrue(o.json().contains("\"verified\":false"), o.output());
        String line = "SP-MZ class S: verification failed (3 iterations, dt 0.015)";
        assertEquals(1, o.output().lines().filter(l -> l.contains(line)).count(), o.output());
        // the launcher's word on it: one line for the job, not a failure of rank 0 with its exception
        assertTrue(o.output().contains("tessera: every rank exited with status 1"), o.output());
        assertFalse(o.output().contains("failed:"), o.output());
    }

    @Test
    void aRefusedClassIsOneLineAndStatusTwoOnSmp() throws Exception {
        MzJobs.Outcome o = MzJobs.launch("smp", 2, 1, Duration.ofSeconds(100), "bt-mz", "--class", "Q");
        assertEquals(NpbMzMain.REFUSED, o.status(), o.output());
        assertEquals(List.of("npb-mz: BT-MZ has classes S, W, A, B, C; got 'Q'"),
                o.output().lines().filter(l -> !l.startsWith("WARNING")).toList(), o.output());
    }
}
