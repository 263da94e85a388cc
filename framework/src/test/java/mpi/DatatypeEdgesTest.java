package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Derived datatypes at the edges ({@code mpi.programs.DatatypeEdges}) on smp and on shm processes. */
@Timeout(180)
class DatatypeEdgesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void edgeDatatypesOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.DatatypeEdges");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void edgeDatatypesOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.DatatypeEdges");
        assertTrue(out.contains("DatatypeEdges ok"), out);
    }

    /** On the mpi device under mpirun; skipped without Open MPI. */
    @Test
    void edgeDatatypesOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        String out = MpiJobs.processes("mpi", 4, "mpi.programs.DatatypeEdges");
        assertTrue(out.contains("DatatypeEdges ok"), out);
    }
}
