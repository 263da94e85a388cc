package mpi.programs;

import java.io.Serializable;
import java.util.HashSet;
import java.util.Set;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Object messages (of a class of the program's own), persistent requests, the Wait/Test
 * families (Waitany, Waitall, Waitsome, Testany, Testall, Testsome) and Cancel.
 * Rank 0 is the hub; every other rank talks to it. Nothing depends on timing.
 */
public class Requests {

    /** A message class that exists only in the program (loaded per rank under smp). */
    record Particle(int id, double[] position) implements Serializable {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_RETURN);     // the checks below catch the errors they provoke
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;

        // objects of a program class, blocking and nonblocking, with an offset
        Object[] out = {null, new Particle(me, new double[] {me, 2.0 * me}), "tail"};
        Object[] in = new Object[4];
        Request r = MPI.COMM_WORLD.Irecv(in, 1, 3, MPI.OBJECT, left, 1);
        MPI.COMM_WORLD.Send(out, 1, 2, MPI.OBJECT, right, 1);
        Status st = r.Wait();
        Check.equal(2, st.Get_count(MPI.OBJECT), "object count");
        Check.equal(left, ((Particle) in[1]).id(), "object from the left");
        Check.equal(2.0 * left, ((Particle) in[1]).position()[1], "object payload");
        Check.equal("tail", in[2], "second object");
        Check.equal(null, in[0], "nothing before the offset");
        // object receives posted in order match messages in order, even when the later one is waited for first
        for (int round = 0; round < 30; round++) {
            Object[] first = new Object[1], second = new Object[1];
            boolean wild = round % 2 == 1;
            Request r1 = MPI.COMM_WORLD.Irecv(first, 0, 1, MPI.OBJECT, wild ? MPI.ANY_SOURCE : left, wild ? MPI.ANY_TAG : 2);
            Request r2 = MPI.COMM_WORLD.Irecv(second, 0, 1, MPI.OBJECT, left, 2);
            MPI.COMM_WORLD.Isend(new Object[] {"one"}, 0, 1, MPI.OBJECT, right, wild ? 3 : 2).Wait();
            MPI.COMM_WORLD.Isend(new Object[] {"two"}, 0, 1, MPI.OBJECT, right, 2).Wait();
            r2.Wait();
            r1.Wait();
            Check.equal("one", first[0], "round " + round + ": first posted object receive gets the first message");
            Check.equal("two", second[0], "round " + round + ": second object receive");
        }

        // persistent requests: five rounds around the ring
        double[] sendBuf = new double[3];
        double[] recvBuf = new double[3];
        Prequest ps = MPI.COMM_WORLD.Send_init(sendBuf, 0, 3, MPI.DOUBLE, right, 3);
        Prequest pr = MPI.COMM_WORLD.Recv_init(recvBuf, 0, 3, MPI.DOUBLE, left, 3);
        for (int round = 0; round < 5; round++) {
            sendBuf[0] = me * 10 + round;
            Prequest.Startall(new Prequest[] {pr, ps});
            Request.Waitall(new Request[] {pr, ps});
            Check.equal((double) (left * 10 + round), recvBuf[0], "persistent round " + round);
            Check.that(!pr.Is_null(), "inactive persistent request is not null");
        }
        Prequest pss = MPI.COMM_WORLD.Ssend_init(sendBuf, 0, 1, MPI.DOUBLE, right, 4);
        Prequest prs = MPI.COMM_WORLD.Recv_init(recvBuf, 0, 1, MPI.DOUBLE, left, 4);
        prs.Start();
        pss.Start();
        Check.fails(MPI.ERR_REQUEST, "Start", pss::Start);
        prs.Wait();
        pss.Wait();
        MPI.Buffer_attach(new byte[4096]);
        Prequest pbs = MPI.COMM_WORLD.Bsend_init(new int[] {me}, 0, 1, MPI.INT, right, 5);
        Prequest prr = MPI.COMM_WORLD.Rsend_init(new int[] {me}, 0, 1, MPI.INT, right, 6);
        int[] b5 = new int[1], b6 = new int[1];
        Request q5 = MPI.COMM_WORLD.Irecv(b5, 0, 1, MPI.INT, left, 5);
        Request q6 = MPI.COMM_WORLD.Irecv(b6, 0, 1, MPI.INT, left, 6);
        MPI.COMM_WORLD.Barrier();
        pbs.Start();
        prr.Start();
        Request.Waitall(new Request[] {pbs, prr, q5, q6});
        Check.equal(left, b5[0], "Bsend_init");
        Check.equal(left, b6[0], "Rsend_init");
        MPI.Buffer_detach();
        ps.Free();
        Check.that(ps.Is_null(), "freed persistent request");

        // hub: rank 0 receives one message from every other rank with Waitany, Testsome and Waitsome
        if (me == 0) {
            for (String how : new String[] {"Waitany", "Testsome", "Waitsome", "Testany"}) {
                Request[] reqs = new Request[p + 1];     // reqs[0] and reqs[p] stay null
                int[][] boxes = new int[p][1];
                for (int i = 1; i < p; i++) {
                    reqs[i] = MPI.COMM_WORLD.Irecv(boxes[i], 0, 1, MPI.INT, i, 7);
                }
                Set<Integer> seen = new HashSet<>();
                while (seen.size() < p - 1) {
                    Status[] done;
                    switch (how) {
                        case "Waitany" -> done = new Status[] {Request.Waitany(reqs)};
                        case "Waitsome" -> done = Request.Waitsome(reqs);
                        case "Testany" -> {
                            Status s = Request.Testany(reqs);
                            done = s == null ? new Status[0] : new Status[] {s};
                        }
                        default -> done = Request.Testsome(reqs);
                    }
                    for (Status s : done) {
                        Check.that(seen.add(s.index), how + " reports index " + s.index + " once");
                        Check.equal(s.index, s.source, how + ": request i receives from rank i");
                        Check.equal(s.index * 3, boxes[s.index][0], how + " data");
                        Check.that(reqs[s.index].Is_null(), how + ": completed request becomes null");
                    }
                }
                Status none = Request.Waitany(reqs);
                Check.equal(MPI.UNDEFINED, none.index, how + ": Waitany over null requests");
                Check.equal(0, Request.Waitsome(reqs).length, how + ": Waitsome over null requests");
                Check.equal(0, Request.Testsome(reqs).length, how + ": Testsome over null requests");
                Check.that(MPI.REQUEST_NULL.Is_null() && MPI.REQUEST_NULL.Wait() != null, "REQUEST_NULL");
                MPI.COMM_WORLD.Barrier();
            }
        } else {
            for (int k = 0; k < 4; k++) {
                MPI.COMM_WORLD.Send(new int[] {me * 3}, 0, 1, MPI.INT, 0, 7);
                MPI.COMM_WORLD.Barrier();
            }
        }

        // Testall: false until the matching sends happen; Cancel of a receive that never matches
        int[] x = new int[1];
        Request pending = MPI.COMM_WORLD.Irecv(x, 0, 1, MPI.INT, left, 8);
        Check.equal(null, Request.Testall(new Request[] {pending}), "Testall before the send");
        Check.equal(null, pending.Test(), "Test before the send");
        MPI.COMM_WORLD.Barrier();
        MPI.COMM_WORLD.Send(new int[] {42}, 0, 1, MPI.INT, right, 8);
        Status[] all = null;
        while (all == null) {
            all = Request.Testall(new Request[] {pending, null});
        }
        Check.equal(42, x[0], "Testall data");
        Check.equal(2, all.length, "Testall statuses");
        Request never = MPI.COMM_WORLD.Irecv(new int[1], 0, 1, MPI.INT, left, 9);
        never.Cancel();
        Check.that(never.Wait().Test_cancelled(), "cancelled receive");
        Request neverObj = MPI.COMM_WORLD.Irecv(new Object[1], 0, 1, MPI.OBJECT, left, 9);
        neverObj.Cancel();
        Check.that(neverObj.Wait().Test_cancelled(), "cancelled object receive");
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
