package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Inter-communicators ({@code mpi.programs.Intercomms}) and their collectives
 * ({@code mpi.programs.IntercommCollectives}) on smp, on shm processes and, where Open MPI
 * is installed, on the mpi device.
 */
@Timeout(180)
class IntercommTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    void intercommunicatorsOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Intercomms");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void intercommunicatorsOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.Intercomms");
        assertTrue(out.contains("Intercomms ok"), out);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    void collectivesOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.IntercommCollectives");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void collectivesOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.IntercommCollectives");
        assertTrue(out.contains("IntercommCollectives ok on " + ranks + " ranks"), out);
    }

    @Test
    void intercommunicatorsAndTheirCollectivesOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        assertTrue(MpiJobs.processes("mpi", 4, "mpi.programs.Intercomms").contains("Intercomms ok"));
        assertTrue(MpiJobs.processes("mpi", 3, "mpi.programs.IntercommCollectives").contains("IntercommCollectives ok on 3 ranks"));
    }
}
