package mpi;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every datatype through every send mode, probes, wildcards, Sendrecv, on 1 to 5 ranks. */
@Timeout(120)
class PointToPointTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void everyTypeInEveryMode(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.PointToPoint");
    }
}
