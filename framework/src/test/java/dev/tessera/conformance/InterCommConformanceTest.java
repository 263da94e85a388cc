package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.InterComm;
import dev.tessera.comm.Op;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MPI-2's intercommunicator collectives on {@link InterComm}, between the even and the odd
 * ranks of the world (group sizes differ at odd rank counts), on every runner.
 */
@Timeout(180)
class InterCommConformanceTest {

    static Stream<Arguments> runnersAndRanks() {
        return Runners.all().stream().flatMap(r -> Stream.of(2, 3, 5).filter(r::runs).map(n -> Arguments.of(r, n)));
    }

    /** World rank of rank q of group {@code color} (0: evens, 1: odds). */
    private static int worldOf(int q, int color) {
        return 2 * q + color;
    }

    @ParameterizedTest(name = "{0}: {1} ranks")
    @MethodSource("runnersAndRanks")
    void collectivesFlowBetweenTheTwoGroups(JobRunner runner, int ranks) {
        runner.run(ranks, world -> {
            int me = world.rank();
            int p = world.size();
            int color = me % 2;
            Comm half = world.split(color, me);
            InterComm inter = half.createIntercomm(0, world, 1 - color, 30);
            int local = inter.rank();
            int rsize = inter.remoteSize();
            int remoteSum = 0;
            for (int q = 0; q < rsize; q++) {
                remoteSum += worldOf(q, 1 - color);
            }
            inter.barrier();

            // bcast from rank 0 of the odds: ROOT there, PROC_NULL for the other odds
            int[] b = color == 1 && local == 0 ? new int[] {me, 5} : new int[2];
            int root = color == 1 ? (local == 0 ? Comm.ROOT : Comm.PROC_NULL) : 0;
            inter.bcast(Buffer.of(b), root);
            if (color == 0) {
                assertArrayEquals(new int[] {1, 5}, b, "bcast from the odds' rank 0");
            }

            // reduce to the evens' last rank
            int evens = (p + 1) / 2;
            int evenRoot = evens - 1;
            int rootArg = color == 0 ? (local == evenRoot ? Comm.ROOT : Comm.PROC_NULL) : evenRoot;
            long[] sum = new long[2];
            inter.reduce(Buffer.of(new long[] {me, 1}), Buffer.of(sum), Op.SUM, rootArg);
            if (color == 0 && local == evenRoot) {
                assertArrayEquals(new long[] {remoteSum, rsize}, sum, "reduce over the odds");
            }

            // gather at and scatter from the odds' rank 0
            int[] gathered = new int[rsize];
            inter.gather(Buffer.of(new int[] {me}), Buffer.of(gathered), root);
            if (color == 1 && local == 0) {
                for (int q = 0; q < rsize; q++) {
                    assertEquals(worldOf(q, 0), gathered[q], "gathered block " + q);
                }
            }
            int[] toScatter = new int[rsize];
            for (int q = 0; q < rsize; q++) {
                toScatter[q] = 100 + q;
            }
            int[] piece = {-1};
            inter.scatter(Buffer.of(toScatter), Buffer.of(piece), root);
            if (color == 0) {
                assertEquals(100 + local, piece[0], "scattered block");
            }

            // allreduce (buffers, in place, scalar), allgather, alltoall
            int[] r = new int[1];
            inter.allreduce(Buffer.of(new int[] {me}), Buffer.of(r), Op.SUM);
            assertEquals(remoteSum, r[0], "allreduce is over the remote group");
            assertEquals(remoteSum, inter.allreduce(me, Op.SUM), "scalar allreduce");
            double[] all = new double[rsize];
            inter.allgather(Buffer.of(new double[] {me + 0.5}), Buffer.of(all));
            for (int q = 0; q < rsize; q++) {
                assertEquals(worldOf(q, 1 - color) + 0.5, all[q], "allgather block " + q);
            }
            int[] out = new int[2 * rsize];
            for (int q = 0; q < rsize; q++) {
                out[2 * q] = me;
                out[2 * q + 1] = q;
            }
            int[] in = new int[2 * rsize];
            inter.alltoall(Buffer.of(out), Buffer.of(in));
            for (int q = 0; q < rsize; q++) {
                assertEquals(worldOf(q, 1 - color), in[2 * q], "alltoall block " + q + " comes from remote rank " + q);
                assertEquals(local, in[2 * q + 1], "alltoall block " + q + " was meant for this rank");
            }

            // errors: a bad root, and collectives that are not provided
            TesseraException bad = assertThrows(TesseraException.class, () -> inter.bcast(Buffer.of(new int[1]), rsize));
            assertEquals(ErrorClass.ROOT, bad.errorClass());
            assertTrue(bad.getMessage().contains("rank " + me) && bad.getMessage().contains("InterComm.bcast"), bad.getMessage());
            TesseraException none = assertThrows(TesseraException.class,
                    () -> inter.scan(Buffer.of(new int[1]), Buffer.of(new int[1]), Op.SUM));
            assertEquals(ErrorClass.COMM, none.errorClass());
            assertTrue(none.getMessage().contains("merge"), none.getMessage());
            inter.barrier();
        });
    }
}
