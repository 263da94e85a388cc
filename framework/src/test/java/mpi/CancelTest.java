package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cancel and Test_cancelled ({@code mpi.programs.Cancel}) on smp, where unmatched
 * synchronous sends must be cancelled, and on shm processes, where a send cancel may fail
 * (MPI allows it; the program then receives the message).
 */
@Timeout(180)
class CancelTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void cancelReceivesAndSendsOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Cancel", "sends-cancel");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void cancelReceivesAndSendsOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.Cancel");
        assertTrue(out.contains("Cancel ok"), out);
    }

    /** On the mpi device under mpirun, where a send cancel may fail as on shm; skipped without Open MPI. */
    @Test
    void cancelReceivesAndSendsOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        String out = MpiJobs.processes("mpi", 4, "mpi.programs.Cancel");
        assertTrue(out.contains("Cancel ok"), out);
    }
}
