package mpi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole programs written against mpi.*: a Java Grande-style ping-pong and a 2D Jacobi
 * solver, on smp (ranks as threads) and, with real processes, on the shm and tcp devices;
 * and two of the API test programs on shm and tcp.
 */
@Timeout(180)
class ApplicationsTest {

    @Test
    void pingPongOnSmp() {
        MpiJobs.smp(2, "mpi.programs.PingPong");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 4, 6})
    void jacobiOnSmp(int ranks) {
        MpiJobs.smp(ranks, "mpi.programs.Jacobi2D");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void pingPongWithProcesses(String device) throws Exception {
        String out = MpiJobs.processes(device, 2, "mpi.programs.PingPong", "5");
        assertTrue(out.contains("PingPong ok"), out);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void jacobiWithProcesses(String device) throws Exception {
        String out = MpiJobs.processes(device, 4, "mpi.programs.Jacobi2D", "32", "40");
        assertTrue(out.contains("Jacobi2D ok"), out);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void pointToPointAndRequestsWithProcesses(String device) throws Exception {
        MpiJobs.processes(device, 3, "mpi.programs.PointToPoint");
        MpiJobs.processes(device, 3, "mpi.programs.Requests");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    void collectivesAndDerivedTypesWithProcesses(String device) throws Exception {
        MpiJobs.processes(device, 4, "mpi.programs.Collectives");
        MpiJobs.processes(device, 4, "mpi.programs.DerivedTypes");
    }

    /** The same programs on the system's MPI library (mpi device under mpirun), when Open MPI is installed. */
    @Test
    void programsOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "mpirun and mpicc on PATH");
        assertTrue(MpiJobs.processes("mpi", 2, "mpi.programs.PingPong", "5").contains("PingPong ok"));
        assertTrue(MpiJobs.processes("mpi", 4, "mpi.programs.Jacobi2D", "32", "40").contains("Jacobi2D ok"));
        MpiJobs.processes("mpi", 3, "mpi.programs.PointToPoint");
        MpiJobs.processes("mpi", 4, "mpi.programs.Collectives");
    }

    /** Persistent requests (Send_init, Recv_init, Startall, Ssend_init, Bsend_init) and the wait and test families on the mpi device. */
    @Test
    void persistentRequestsOnTheMpiDevice() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "mpirun and mpicc on PATH");
        MpiJobs.processes("mpi", 3, "mpi.programs.Requests");
    }

    /** Init_thread(THREAD_MULTIPLE) with 4 threads per rank exchanging messages at once, with processes. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp", "mpi"})
    void threadMultipleWithProcesses(String device) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(!device.equals("mpi") || dev.tessera.conformance.MpirunJobRunner.available(),
                "mpirun and mpicc on PATH");
        MpiJobs.processes(device, 3, "mpi.programs.Threads");
    }

    @Test
    void abortStopsAProcessJobNamingTheRank() throws Exception {
        MpiJobs.Outcome o = MpiJobs.processOutcome("shm", 3, "mpi.programs.Aborter");
        assertTrue(o.status() != 0 && o.output().contains("rank 1") && o.output().contains("error code 3"), o.output());
    }
}
