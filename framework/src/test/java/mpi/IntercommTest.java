package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Inter-communicators between even and odd ranks ({@code mpi.programs.Intercomms}) on smp and on shm processes. */
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
}
