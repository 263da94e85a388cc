package dev.tessera.npbmz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
        assertNotEquals(0, o.status(), o.output());
        assertTrue(o.json().contains("\"verified\":false"), o.output());
        assertTrue(o.output().contains("SP-MZ class S: verification failed (3 iterations, dt 0.015)"), o.output());
    }
}
