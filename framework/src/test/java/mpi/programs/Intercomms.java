package mpi.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Inter-communicators between the even and the odd ranks of COMM_WORLD: Create_intercomm,
 * Test_inter, local and remote sizes and groups, point-to-point across the groups (ranks
 * name remote members; statuses name the sender's remote rank; buffers and objects, named
 * and ANY_SOURCE), errors, and Merge in both orders.
 */
public class Intercomms {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.Errhandler_set(MPI.ERRORS_RETURN);
        int me = w.Rank();
        int p = w.Size();
        Check.that(p >= 2, "needs at least 2 ranks");
        int color = me % 2;
        Intracomm half = w.Split(color, me);
        Intercomm inter = w.Create_intercomm(half, 0, color == 0 ? 1 : 0, 17);

        int evens = (p + 1) / 2;
        int odds = p / 2;
        int localSize = color == 0 ? evens : odds;
        int remoteSize = color == 0 ? odds : evens;
        Check.that(inter.Test_inter() && !half.Test_inter() && !w.Test_inter(), "Test_inter");
        Check.equal(localSize, inter.Size(), "local size");
        Check.equal(remoteSize, inter.Remote_size(), "remote size");
        Check.equal(me / 2, inter.Rank(), "rank in the local group");
        Check.equal(MPI.ERRORS_RETURN, inter.Errhandler_get(), "the handler is inherited from the local communicator");
        int[] remoteRanks = new int[remoteSize];
        for (int q = 0; q < remoteSize; q++) {
            remoteRanks[q] = q;
        }
        int[] inWorld = mpi.Group.Translate_ranks(inter.Remote_group(), remoteRanks, w.Group());
        for (int q = 0; q < remoteSize; q++) {
            Check.equal(worldOf(q, 1 - color), inWorld[q], "remote group member " + q + " in COMM_WORLD");
        }
        Check.equal(localSize, inter.Group().Size(), "local group size");

        // every rank sends to every remote rank and receives from each by name
        Request[] sends = new Request[remoteSize];
        for (int q = 0; q < remoteSize; q++) {
            sends[q] = inter.Isend(new int[] {me, q}, 0, 2, MPI.INT, q, 5);
        }
        for (int q = 0; q < remoteSize; q++) {
            int[] got = new int[2];
            Status s = inter.Recv(got, 0, 2, MPI.INT, q, 5);
            Check.that(s.source == q && s.tag == 5 && s.Get_count(MPI.INT) == 2, "status of a message from remote " + q + ": " + s);
            Check.that(got[0] == worldOf(q, 1 - color) && got[1] == me / 2, "message from remote rank " + q);
        }
        Request.Waitall(sends);

        // every rank sends to remote rank 0, which receives them all with ANY_SOURCE
        Request toLeader = inter.Isend(new double[] {me + 0.5}, 0, 1, MPI.DOUBLE, 0, 6);
        if (inter.Rank() == 0) {
            boolean[] seen = new boolean[remoteSize];
            for (int i = 0; i < remoteSize; i++) {
                double[] d = new double[1];
                Status s = inter.Recv(d, 0, 1, MPI.DOUBLE, MPI.ANY_SOURCE, 6);
                Check.that(s.source >= 0 && s.source < remoteSize && !seen[s.source], "ANY_SOURCE status " + s);
                seen[s.source] = true;
                Check.equal(worldOf(s.source, 1 - color) + 0.5, d[0], "ANY_SOURCE message from remote " + s.source);
            }
        }
        toLeader.Wait();

        // objects between the leaders, and the world communicator is unaffected
        if (inter.Rank() == 0) {
            Object[] out = {"group " + color};
            Object[] in = new Object[1];
            inter.Sendrecv(out, 0, 1, MPI.OBJECT, 0, 7, in, 0, 1, MPI.OBJECT, 0, 7);
            Check.equal("group " + (1 - color), in[0], "object across the groups");
        }
        Check.fails(MPI.ERR_RANK, "Send", () -> inter.Send(new int[1], 0, 1, MPI.INT, remoteSize, 0));

        // a duplicate has the same groups and its own message space
        Intercomm copy = (Intercomm) inter.clone();
        Check.that(copy.Test_inter() && copy.Remote_size() == remoteSize && copy.Rank() == inter.Rank(), "clone of an intercomm");
        Check.equal(MPI.ERRORS_RETURN, copy.Errhandler_get(), "a clone inherits the handler");
        if (inter.Rank() == 0) {
            Request a = inter.Isend(new int[] {1}, 0, 1, MPI.INT, 0, 9);
            Request b = copy.Isend(new int[] {2}, 0, 1, MPI.INT, 0, 9);
            int[] x = new int[1];
            copy.Recv(x, 0, 1, MPI.INT, 0, 9);
            Check.equal(2, x[0], "message on the clone");
            inter.Recv(x, 0, 1, MPI.INT, 0, 9);
            Check.equal(1, x[0], "message on the original");
            Request.Waitall(new Request[] {a, b});
        }
        w.Barrier();

        // Merge: the group passing high == false first
        Intracomm lowEvens = inter.Merge(color == 1);
        Check.equal(p, lowEvens.Size(), "merged size");
        Check.equal(color == 0 ? me / 2 : evens + me / 2, lowEvens.Rank(), "rank in the merge with evens first");
        Intracomm lowOdds = inter.Merge(color == 0);
        Check.equal(color == 1 ? me / 2 : odds + me / 2, lowOdds.Rank(), "rank in the merge with odds first");
        Intracomm tie = inter.Merge(false);
        Check.equal(lowEvens.Rank(), tie.Rank(), "with equal high, the group of world rank 0 first");
        int[] sum = new int[1];
        lowOdds.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(p * (p - 1) / 2, sum[0], "Allreduce over the merged communicator");
        int[] token = {lowEvens.Rank() == 0 ? 42 : 0};
        lowEvens.Bcast(token, 0, 1, MPI.INT, 0);
        Check.equal(42, token[0], "Bcast over the merged communicator");

        w.Barrier();
        if (me == 0) {
            System.out.println("Intercomms ok");
        }
        MPI.Finalize();
    }

    /** World rank of rank q of the even (0) or odd (1) group. */
    private static int worldOf(int q, int color) {
        return 2 * q + color;
    }
}
