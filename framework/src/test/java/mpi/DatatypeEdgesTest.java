package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
