package mpi.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/** Bad arguments fail with the right MPI error class and a message naming the rank and the call. */
public class Errors {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_RETURN);     // the checks below catch the errors they provoke
        mpi.Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int p = w.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;
        double[] d = new double[4];
        Check.fails(MPI.ERR_COUNT, "Send", () -> w.Send(d, 0, -1, MPI.DOUBLE, right, 0));
        Check.fails(MPI.ERR_RANK, "Send", () -> w.Send(d, 0, 1, MPI.DOUBLE, p, 0));
        Check.fails(MPI.ERR_RANK, "Recv", () -> w.Recv(d, 0, 1, MPI.DOUBLE, -5, 0));
        Check.fails(MPI.ERR_TAG, "isend", () -> w.Send(d, 0, 1, MPI.DOUBLE, right, -3));
        Check.fails(MPI.ERR_TYPE, "Send", () -> w.Send(new int[4], 0, 1, MPI.DOUBLE, right, 0));
        Check.fails(MPI.ERR_BUFFER, "Send", () -> w.Send(d, 2, 3, MPI.DOUBLE, right, 0));
        Check.fails(MPI.ERR_BUFFER, "Isend", () -> w.Isend(d, -1, 1, MPI.DOUBLE, right, 0));
        Check.fails(MPI.ERR_BUFFER, "Recv", () -> w.Recv(null, 0, 1, MPI.DOUBLE, left, 0));
        Check.fails(MPI.ERR_ROOT, "Bcast", () -> w.Bcast(d, 0, 1, MPI.DOUBLE, p));
        Check.fails(MPI.ERR_ROOT, "Reduce", () -> w.Reduce(d, 0, d, 0, 1, MPI.DOUBLE, MPI.SUM, -1));
        Check.fails(MPI.ERR_BUFFER, "Bsend", () -> w.Bsend(d, 0, 1, MPI.DOUBLE, right, 0));
        MPI.Buffer_attach(new byte[100]);
        Check.fails(MPI.ERR_BUFFER, "Bsend", () -> w.Bsend(new double[100], 0, 100, MPI.DOUBLE, right, 0));
        Check.fails(MPI.ERR_BUFFER, "Buffer_attach", () -> MPI.Buffer_attach(new byte[10]));
        MPI.Buffer_detach();
        // the default thread level is FUNNELED: another thread may not communicate
        MPIException[] fromThread = new MPIException[1];
        Thread t = new Thread(() -> {
            try {
                w.Send(d, 0, 1, MPI.DOUBLE, right, 0);
            } catch (MPIException e) {
                fromThread[0] = e;
            }
        });
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        Check.that(fromThread[0] != null && fromThread[0].getErrorClass() == MPI.ERR_OTHER,
                "a second thread under FUNNELED fails: " + fromThread[0]);
        Check.equal(MPI.THREAD_FUNNELED, MPI.Query_thread(), "default thread level");
        Check.fails(MPI.ERR_OP, "Allreduce", () -> w.Allreduce(new Object[1], 0, new Object[1], 0, 1, MPI.OBJECT, MPI.SUM));
        Check.fails(MPI.ERR_COUNT, "Datatype.Vector", () -> Datatype.Vector(-1, 1, 1, MPI.INT));
        Check.fails(MPI.ERR_DIMS, "dimsCreate", () -> mpi.Cartcomm.Dims_create(p, new int[] {p + 1, 0}));
        Check.fails(MPI.ERR_RANK, "Group.incl", () -> w.Group().Incl(new int[] {p}));
        Check.fails(MPI.ERR_OTHER, "Init", () -> MPI.Init(new String[0]));
        // truncation: a message longer than the receive buffer
        mpi.Request big = w.Isend(new double[] {1, 2, 3}, 0, 3, MPI.DOUBLE, right, 1);
        Check.fails(MPI.ERR_TRUNCATE, "recv", () -> w.Recv(d, 0, 2, MPI.DOUBLE, left, 1));
        big.Wait();
        mpi.Request objs = w.Isend(new Object[] {"a", "b"}, 0, 2, MPI.OBJECT, right, 2);
        Check.fails(MPI.ERR_TRUNCATE, "Recv", () -> w.Recv(new Object[1], 0, 1, MPI.OBJECT, left, 2));
        objs.Wait();
        try {
            w.Send(d, 0, -1, MPI.DOUBLE, right, 0);
        } catch (MPIException e) {
            Check.equal("rank " + me + ": Send: count -1 is negative", e.getMessage(), "message text");
        }
        w.Barrier();
        MPI.Finalize();
    }
}
