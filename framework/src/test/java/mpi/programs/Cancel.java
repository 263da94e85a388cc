package mpi.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Cancel of nonblocking receives and sends, and Test_cancelled, as MPI defines them: a
 * cancelled operation completes (Wait or Test return) with a status whose Test_cancelled is
 * true and moves no data; a cancel that comes too late has no effect and the operation
 * completes normally. A send cancel may fail (MPI allows it), so the sender tells the
 * receiver whether its send was cancelled, and the receiver receives it if it was not. With
 * the argument {@code sends-cancel} the device is known to cancel unmatched synchronous
 * sends, and the program checks that they are cancelled.
 */
public class Cancel {

    public static void main(String[] args) throws MPIException {
        String[] rest = MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int p = w.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;
        boolean sendsCancel = rest.length > 0 && rest[0].equals("sends-cancel");

        // a receive that nothing matches: cancelled, completed by Wait, no data
        int[] buf = {-1, -1};
        Request r = w.Irecv(buf, 0, 2, MPI.INT, left, 99);
        r.Cancel();
        Status s = r.Wait();
        Check.that(s.Test_cancelled(), "cancelled receive: Test_cancelled");
        Check.that(r.Is_null(), "a cancelled request completed by Wait is null");
        Check.that(buf[0] == -1 && buf[1] == -1, "a cancelled receive moves no data");

        // completed by Test, and with ANY_SOURCE / ANY_TAG
        Request any = w.Irecv(buf, 0, 2, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        any.Cancel();
        Status t = null;
        for (int i = 0; t == null; i++) {
            t = any.Test();
            Check.that(i < 1_000_000, "a cancelled receive completes");
        }
        Check.that(t.Test_cancelled(), "cancelled wildcard receive: Test_cancelled");

        // a message that arrives after its receive was cancelled goes to the next receive
        w.Barrier();                                                // every rank's receive is cancelled before any send
        w.Send(new int[] {me, 99}, 0, 2, MPI.INT, right, 99);
        Status got = w.Recv(buf, 0, 2, MPI.INT, left, 99);
        Check.that(!got.Test_cancelled(), "a normal receive is not cancelled");
        Check.that(buf[0] == left && buf[1] == 99 && got.source == left && got.Get_count(MPI.INT) == 2,
                "the message after a cancelled receive");

        // objects
        Object[] objs = new Object[1];
        Request o = w.Irecv(objs, 0, 1, MPI.OBJECT, left, 98);
        o.Cancel();
        Check.that(o.Wait().Test_cancelled() && objs[0] == null, "cancelled object receive");
        w.Barrier();
        w.Send(new Object[] {"from " + me}, 0, 1, MPI.OBJECT, right, 98);
        Request o2 = w.Irecv(objs, 0, 1, MPI.OBJECT, left, 98);
        Check.that(!o2.Wait().Test_cancelled(), "object receive after a cancelled one");
        Check.equal("from " + left, objs[0], "object after a cancelled object receive");

        // a cancel after completion has no effect
        int[] late = new int[1];
        Request done = w.Irecv(late, 0, 1, MPI.INT, left, 97);
        w.Send(new int[] {left * 0 + me + 1000}, 0, 1, MPI.INT, right, 97);
        w.Barrier();
        Status ls = null;
        while (ls == null) {
            ls = done.Test();
        }
        Check.that(!ls.Test_cancelled() && late[0] == left + 1000, "a completed receive is not cancelled");
        done.Cancel();                                               // a null request: nothing to cancel

        // a persistent receive: a cancelled start, then a start that receives
        int[] pbuf = new int[1];
        Prequest pr = w.Recv_init(pbuf, 0, 1, MPI.INT, left, 96);
        pr.Start();
        pr.Cancel();
        Check.that(pr.Wait().Test_cancelled() && !pr.Is_null(), "cancelled persistent receive stays usable");
        w.Barrier();
        pr.Start();
        w.Send(new int[] {me + 2000}, 0, 1, MPI.INT, right, 96);
        Check.that(!pr.Wait().Test_cancelled() && pbuf[0] == left + 2000, "persistent receive after a cancel");
        pr.Free();

        // sends: cancelled, or else received
        for (int round = 0; round < 3; round++) {
            int n = round == 2 ? 100_000 : 4;
            double[] data = new double[n];
            for (int i = 0; i < n; i++) {
                data[i] = me * 1e6 + i + round;
            }
            Request send = round == 1 ? w.Isend(data, 0, n, MPI.DOUBLE, right, 95) : w.Issend(data, 0, n, MPI.DOUBLE, right, 95);
            send.Cancel();
            Status ss = send.Test();                 // a cancel that succeeded completes the send at once
            boolean cancelled = ss != null && ss.Test_cancelled();
            if (sendsCancel && round != 1) {
                Check.that(cancelled, "unmatched synchronous send of " + n + " doubles is cancelled");
            }
            boolean[] flag = {cancelled};
            boolean[] peer = new boolean[1];
            w.Sendrecv(flag, 0, 1, MPI.BOOLEAN, right, 94, peer, 0, 1, MPI.BOOLEAN, left, 94);
            if (!peer[0]) {
                double[] in = new double[n];
                w.Recv(in, 0, n, MPI.DOUBLE, left, 95);
                for (int i = 0; i < n; i++) {
                    Check.that(in[i] == left * 1e6 + i + round, "uncancelled send's data [" + i + "]");
                }
            }
            if (!cancelled) {
                Check.that(!send.Wait().Test_cancelled(), "a send that was not cancelled completes normally");
            }
            w.Barrier();
            Check.that(w.Iprobe(left, 95) == null, "a cancelled send never arrives");
            w.Barrier();                                            // no rank's next send before every probe
        }
        w.Barrier();
        if (me == 0) {
            System.out.println("Cancel ok");
        }
        MPI.Finalize();
    }
}
