package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mpiJava test programs of {@code mpi.programs}, each run as an smp job of 1 to 8
 * ranks through the launcher. The programs check their own results and throw on a
 * mismatch, which fails the job naming the rank.
 */
@Timeout(120)
class MpiProgramsTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 5})
    void pointToPointEveryTypeInEveryMode(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.PointToPoint");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void derivedDatatypesWithStridesAndGaps(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.DerivedTypes");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 7, 8})
    void everyCollectiveWithVariantsAndUserOps(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Collectives");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 6, 8})
    void groupsSplitCreateCartAndGraph(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Communicators");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4})
    void objectsPersistentRequestsAndWaitTestFamilies(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Requests");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void badArgumentsGiveErrorClasses(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Errors");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void threadMultipleLetsEveryThreadCommunicate(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Threads");
    }

    @Test
    void abortStopsTheJobNamingTheRank() {
        MpiJobs.Outcome o = MpiJobs.smpOutcome(3, "mpi.programs.Aborter");
        assertEquals(1, o.status(), o.output());
        assertTrue(o.output().contains("rank 1 failed") && o.output().contains("error code 3"), o.output());
    }
}
