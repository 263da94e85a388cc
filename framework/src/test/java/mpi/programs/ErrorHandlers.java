package mpi.programs;

import mpi.Datatype;
import mpi.Errhandler;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Error handlers: the default ERRORS_ARE_FATAL, switching to ERRORS_RETURN (errors are
 * then exceptions the program catches, and the job goes on), inheritance by new
 * communicators, handlers per communicator, and which handler gets the errors of requests
 * and of calls on no communicator.
 */
public class ErrorHandlers {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int p = w.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;

        Check.that(w.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "COMM_WORLD starts with ERRORS_ARE_FATAL: " + w.Errhandler_get());
        Check.that(MPI.COMM_SELF.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "COMM_SELF starts with ERRORS_ARE_FATAL");
        Check.that(MPI.Errorhandler_get() == MPI.ERRORS_ARE_FATAL, "MPI.Errorhandler_get is COMM_WORLD's");
        Intracomm before = w.Dup();                                // made while world is FATAL: stays FATAL

        w.Errhandler_set(MPI.ERRORS_RETURN);
        Errhandler h = w.Errhandler_get();
        Check.that(h == MPI.ERRORS_RETURN, "Errhandler_get after Errhandler_set(ERRORS_RETURN): " + h);
        Check.that(before.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "a communicator keeps the handler it had");

        // under ERRORS_RETURN an error is an exception the program may catch; the job goes on
        Check.fails(MPI.ERR_RANK, "Send", () -> w.Send(new int[1], 0, 1, MPI.INT, p + 3, 0));
        Check.fails(MPI.ERR_TAG, "recv", () -> w.Recv(new int[1], 0, 1, MPI.INT, left, -7));
        Check.fails(MPI.ERR_ARG, "Errhandler_set", () -> w.Errhandler_set(null));
        // calls on no communicator (datatype arithmetic) use COMM_WORLD's handler
        Check.fails(MPI.ERR_COUNT, "Datatype.Contiguous", () -> Datatype.Contiguous(-2, MPI.INT));
        ring(w, me, right, left, 1);

        // new communicators inherit the handler; each then has its own
        Intracomm dup = w.Dup();
        Intracomm half = w.Split(me % 2, me);
        Check.that(dup.Errhandler_get() == MPI.ERRORS_RETURN, "Dup inherits ERRORS_RETURN");
        Check.that(half.Errhandler_get() == MPI.ERRORS_RETURN, "Split inherits ERRORS_RETURN");
        Check.fails(MPI.ERR_ROOT, "Bcast", () -> half.Bcast(new int[1], 0, 1, MPI.INT, half.Size()));
        dup.Errhandler_set(MPI.ERRORS_ARE_FATAL);
        Check.that(w.Errhandler_get() == MPI.ERRORS_RETURN && dup.Errhandler_get() == MPI.ERRORS_ARE_FATAL,
                "setting the dup's handler leaves COMM_WORLD's");
        dup.Errhandler_set(MPI.ERRORS_RETURN);

        // an error found when a request completes goes to the request's communicator
        Request big = dup.Isend(new long[] {1, 2, 3}, 0, 3, MPI.LONG, right, 5);
        Request small = dup.Irecv(new long[2], 0, 2, MPI.LONG, left, 5);
        Check.fails(MPI.ERR_TRUNCATE, "", small::Wait);
        big.Wait();
        Request[] pair = {dup.Isend(new int[] {4, 5}, 0, 2, MPI.INT, right, 6), dup.Irecv(new int[1], 0, 1, MPI.INT, left, 6)};
        Check.fails(MPI.ERR_TRUNCATE, "", () -> Request.Waitall(pair));

        // MPJ Express's static names act on COMM_WORLD
        MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);
        Check.that(w.Errhandler_get() == MPI.ERRORS_ARE_FATAL, "MPI.Errorhandler_set sets COMM_WORLD's handler");
        MPI.Errorhandler_set(MPI.ERRORS_RETURN);
        ring(w, me, right, left, 2);
        Check.equal("MPI.ERRORS_RETURN", MPI.ERRORS_RETURN.toString(), "handler name");
        w.Barrier();
        if (me == 0) {
            System.out.println("ErrorHandlers ok");
        }
        MPI.Finalize();
    }

    /** Passes a token around the ring: communication still works after caught errors. */
    private static void ring(Intracomm w, int me, int right, int left, int round) throws MPIException {
        int[] got = new int[1];
        Request r = w.Irecv(got, 0, 1, MPI.INT, left, 40 + round);
        w.Send(new int[] {me * 10 + round}, 0, 1, MPI.INT, right, 40 + round);
        r.Wait();
        Check.equal(left * 10 + round, got[0], "ring token " + round);
    }
}
