package mpi.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The predefined attributes (TAG_UB, HOST, IO, WTIME_IS_GLOBAL) through Attr_get, on
 * COMM_WORLD and on communicators made from it; and, where WTIME_IS_GLOBAL says 1,
 * Wtime values taken on different ranks in causal order: a token carries its sender's
 * time around the ring and every receiver's clock must read at least that time. With the
 * argument {@code one-node} the job is known to run on one node and WTIME_IS_GLOBAL must be 1.
 */
public class Attributes {

    public static void main(String[] args) throws MPIException {
        String[] rest = MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.Errhandler_set(MPI.ERRORS_RETURN);
        int me = w.Rank();
        int p = w.Size();
        boolean oneNode = rest.length > 0 && rest[0].equals("one-node");

        int tagUb = (Integer) w.Attr_get(MPI.TAG_UB);
        Check.that(tagUb >= 32767, "TAG_UB is at least 32767 as MPI requires: " + tagUb);
        Check.equal(MPI.TAG_UB, tagUb, "TAG_UB attribute");
        Check.equal(MPI.PROC_NULL, w.Attr_get(MPI.HOST), "HOST attribute (no host process)");
        int io = (Integer) w.Attr_get(MPI.IO);
        Check.that(io == me || io == MPI.ANY_SOURCE, "IO attribute names this rank or every rank: " + io);
        int global = (Integer) w.Attr_get(MPI.WTIME_IS_GLOBAL);
        Check.that(global == 0 || global == 1, "WTIME_IS_GLOBAL is 0 or 1: " + global);
        if (oneNode) {
            Check.equal(1, global, "WTIME_IS_GLOBAL on one node");
        }
        int[] g = {global};
        int[] min = new int[1];
        int[] max = new int[1];
        w.Allreduce(g, 0, min, 0, 1, MPI.INT, MPI.MIN);
        w.Allreduce(g, 0, max, 0, 1, MPI.INT, MPI.MAX);
        Check.that(min[0] == max[0], "every rank sees the same WTIME_IS_GLOBAL");
        Check.that(w.Attr_get(12345) == null, "a key without attribute gives null");

        // communicators made from COMM_WORLD give the same predefined attributes
        Intracomm half = w.Split(me % 2, -me);
        Check.equal(tagUb, half.Attr_get(MPI.TAG_UB), "TAG_UB on a split communicator");
        Check.equal(half.Rank(), half.Attr_get(MPI.IO), "IO on a split communicator");
        Check.equal(global, MPI.COMM_SELF.Attr_get(MPI.WTIME_IS_GLOBAL), "WTIME_IS_GLOBAL on COMM_SELF");
        Check.fails(MPI.ERR_ARG, "Attr_delete", () -> w.Attr_delete(MPI.TAG_UB));
        w.Attr_delete(12345);

        // the largest tag is a valid tag
        int[] got = new int[1];
        mpi.Request r = w.Irecv(got, 0, 1, MPI.INT, (me + p - 1) % p, tagUb);
        w.Send(new int[] {me}, 0, 1, MPI.INT, (me + 1) % p, tagUb);
        mpi.Status s = r.Wait();
        Check.equal(tagUb, s.tag, "status tag of a message sent with TAG_UB");
        Check.equal((me + p - 1) % p, got[0], "message sent with TAG_UB");
        Check.fails(MPI.ERR_TAG, "isend", () -> w.Send(new int[1], 0, 1, MPI.INT, me, tagUb + 1));

        Check.that(MPI.Wtick() > 0 && MPI.Wtick() <= 1e-3, "Wtick is a positive resolution: " + MPI.Wtick());
        if (global == 1) {
            causalRing(w, me, p);
        }
        w.Barrier();
        if (me == 0) {
            System.out.println("Attributes ok (WTIME_IS_GLOBAL " + global + ")");
        }
        MPI.Finalize();
    }

    /** Twice around the ring: each rank's Wtime after receiving is at least the sender's before sending. */
    private static void causalRing(Intracomm w, int me, int p) throws MPIException {
        double[] t = new double[1];
        for (int round = 0; round < 2; round++) {
            if (me == 0) {
                t[0] = MPI.Wtime();
                w.Send(t, 0, 1, MPI.DOUBLE, 1 % p, 7);
                w.Recv(t, 0, 1, MPI.DOUBLE, p - 1, 7);
            } else {
                w.Recv(t, 0, 1, MPI.DOUBLE, me - 1, 7);
            }
            double now = MPI.Wtime();
            Check.that(now >= t[0], "Wtime on rank " + me + " (" + now + ") is not before the sender's (" + t[0] + ")");
            if (me != 0) {
                t[0] = now;
                w.Send(t, 0, 1, MPI.DOUBLE, (me + 1) % p, 7);
            }
        }
    }
}
