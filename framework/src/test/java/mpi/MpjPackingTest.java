package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPJ Express's {@code mpjbuf.Buffer} packing ({@code mpi.programs.MpjPacking}) on smp, on
 * shm processes and, where Open MPI is installed, on the mpi device.
 */
@Timeout(180)
class MpjPackingTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 4, 8})
    void packingOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.MpjPacking");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void packingOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.MpjPacking");
        assertTrue(out.contains("MpjPacking ok on " + ranks + " ranks"), out);
    }

    @Test
    void packingOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        String out = MpiJobs.processes("mpi", 4, "mpi.programs.MpjPacking");
        assertTrue(out.contains("MpjPacking ok on 4 ranks"), out);
    }
}
