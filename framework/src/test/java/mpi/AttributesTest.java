package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The predefined attributes and a node-global Wtime ({@code mpi.programs.Attributes}) on smp
 * ranks (threads of one JVM) and on shm processes (one JVM per rank, one node): both are
 * one node, so WTIME_IS_GLOBAL must be 1 and times taken on different ranks causally ordered.
 */
@Timeout(180)
class AttributesTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void predefinedAttributesOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Attributes", "one-node");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void predefinedAttributesAndGlobalWtimeOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.Attributes", "one-node");
        assertTrue(out.contains("Attributes ok (WTIME_IS_GLOBAL 1)"), out);
    }

    /** On the mpi device under mpirun (one node here, so Wtime is global too); skipped without Open MPI. */
    @Test
    void predefinedAttributesAndGlobalWtimeOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        String out = MpiJobs.processes("mpi", 4, "mpi.programs.Attributes", "one-node");
        assertTrue(out.contains("Attributes ok (WTIME_IS_GLOBAL 1)"), out);
    }
}
