package mpi;

import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** In an smp job every rank has its own copy of the mpi.* classes, so MPI.COMM_WORLD is per rank. */
@Timeout(60)
class RankIdentityTest {

    @Test
    void twoSmpRanksSeeDifferentWorldRanks() {
        MpiJobs.smp(2, "mpi.programs.RankIdentity", "alpha", "beta");
    }

    @Test
    void eightSmpRanksEachInitOnce() {
        MpiJobs.smp(8, "mpi.programs.RankIdentity");
    }

    /** The same path as {@code bin/tessera run -np 3 -cp <classes> mpi.programs.RankIdentity x}. */
    @Test
    void runsThroughTheTesseraCommand() throws Exception {
        String classes = java.nio.file.Path.of(RankIdentityTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        picocli.CommandLine cli = new picocli.CommandLine(new dev.tessera.launch.TesseraCommand());
        cli.setStopAtPositional(true);
        int code = cli.execute("run", "-np", "3", "--device", "smp", "-cp", classes, "mpi.programs.RankIdentity", "x");
        org.junit.jupiter.api.Assertions.assertEquals(0, code);
    }

    @Test
    void theSharedCopyOfMpiIsUntouchedByTheRanks() {
        MpiJobs.smp(3, "mpi.programs.RankIdentity");
        assertNull(MPI.COMM_WORLD, "ranks must not initialise the application loader's copy of mpi.MPI");
    }
}
