package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Error handlers ({@code mpi.programs.ErrorHandlers}, {@code mpi.programs.FatalError}) on smp
 * and on shm processes: ERRORS_RETURN makes errors catchable exceptions; under the default
 * ERRORS_ARE_FATAL an error in one rank ends the whole job, naming the rank and the error.
 */
@Timeout(180)
class ErrorHandlerTest {

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void handlersOnSmp(int ranks) {
        assertTrue(MpiJobs.smp(ranks, "mpi.programs.ErrorHandlers") != null);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void handlersOnShm(int ranks) throws Exception {
        String out = MpiJobs.processes("shm", ranks, "mpi.programs.ErrorHandlers");
        assertTrue(out.contains("ErrorHandlers ok"), out);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void fatalErrorEndsTheSmpJobWithTheCause(int ranks) {
        MpiJobs.Outcome o = MpiJobs.smpOutcome(ranks, "mpi.programs.FatalError");
        assertEquals(1, o.status(), o.output());
        assertFatalCause(o, ranks);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void fatalErrorEndsTheShmJobWithTheCause(int ranks) throws Exception {
        MpiJobs.Outcome o = MpiJobs.processOutcome("shm", ranks, "mpi.programs.FatalError");
        assertNotEquals(0, o.status(), o.output());
        assertFatalCause(o, ranks);
    }

    private static void assertFatalCause(MpiJobs.Outcome o, int ranks) {
        String cause = "rank " + (ranks - 1) + ": Send: invalid destination rank " + (ranks + 5);
        assertTrue(o.output().contains(cause) && o.output().contains("ERRORS_ARE_FATAL"), o.output());
        assertFalse(o.output().contains("went on after the error"), "no rank may go on after the error:\n" + o.output());
    }

    /** Both programs on the mpi device under mpirun; skipped without Open MPI. */
    @Test
    void handlersAndFatalErrorsOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun and mpicc) not on PATH");
        String out = MpiJobs.processes("mpi", 4, "mpi.programs.ErrorHandlers");
        assertTrue(out.contains("ErrorHandlers ok"), out);
        MpiJobs.Outcome o = MpiJobs.processOutcome("mpi", 4, "mpi.programs.FatalError");
        assertNotEquals(0, o.status(), o.output());
        assertFatalCause(o, 4);
    }
}
