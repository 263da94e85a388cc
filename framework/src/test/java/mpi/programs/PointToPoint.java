package mpi.programs;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * Every datatype through every send mode (blocking and nonblocking), on a ring: each rank
 * sends to its right neighbour and receives from its left one. Receives are posted before
 * a barrier and the sends start after it, so ready sends are correct and nothing depends
 * on timing. Then Sendrecv, Sendrecv_replace, probes, wildcards and PROC_NULL.
 */
public class PointToPoint {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;
        MPI.Buffer_attach(ByteBuffer.allocate(1 << 20));
        String[] modes = {"Send", "Ssend", "Bsend", "Rsend", "Isend", "Issend", "Ibsend", "Irsend"};
        int n = 37;
        int off = 3;
        for (Datatype t : Check.TYPES) {
            for (int m = 0; m < modes.length; m++) {
                int tag = 100 + m;
                Object in = Check.array(t, n + 2 * off);
                Request r = MPI.COMM_WORLD.Irecv(in, off, n, t, left, tag);
                MPI.COMM_WORLD.Barrier();
                Object out = Check.values(t, n + off, me);
                Request s = null;
                switch (modes[m]) {
                    case "Send" -> MPI.COMM_WORLD.Send(out, off, n, t, right, tag);
                    case "Ssend" -> MPI.COMM_WORLD.Ssend(out, off, n, t, right, tag);
                    case "Bsend" -> MPI.COMM_WORLD.Bsend(out, off, n, t, right, tag);
                    case "Rsend" -> MPI.COMM_WORLD.Rsend(out, off, n, t, right, tag);
                    case "Isend" -> s = MPI.COMM_WORLD.Isend(out, off, n, t, right, tag);
                    case "Issend" -> s = MPI.COMM_WORLD.Issend(out, off, n, t, right, tag);
                    case "Ibsend" -> s = MPI.COMM_WORLD.Ibsend(out, off, n, t, right, tag);
                    default -> s = MPI.COMM_WORLD.Irsend(out, off, n, t, right, tag);
                }
                Status st = r.Wait();
                if (s != null) {
                    s.Wait();
                    Check.that(s.Is_null(), "completed request is null");
                }
                String what = modes[m] + " of " + t;
                Check.equal(left, st.source, what + ": source");
                Check.equal(tag, st.tag, what + ": tag");
                Check.equal(n, st.Get_count(t), what + ": count");
                for (int i = 0; i < n; i++) {
                    Check.holds(in, off + i, left * 1000 + off + i, what);
                }
                Check.equal(java.lang.reflect.Array.get(Check.array(t, 1), 0), java.lang.reflect.Array.get(in, off - 1),
                        what + ": nothing written before the offset");
                Check.equal(java.lang.reflect.Array.get(Check.array(t, 1), 0), java.lang.reflect.Array.get(in, off + n),
                        what + ": nothing written after the message");
            }
        }

        // a short message into a larger buffer, any source and any tag
        double[] big = new double[10];
        Request shortSend = MPI.COMM_WORLD.Isend(new double[] {1.5, 2.5, me}, 0, 3, MPI.DOUBLE, right, 7);
        Status st = MPI.COMM_WORLD.Recv(big, 0, 10, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
        shortSend.Wait();
        Check.equal(3, st.Get_count(MPI.DOUBLE), "short message count");
        Check.equal(left, st.source, "any-source status");
        Check.equal(7, st.tag, "any-tag status");
        Check.equal((double) left, big[2], "short message data");

        // Sendrecv and Sendrecv_replace around the ring
        long[] got = new long[2];
        st = MPI.COMM_WORLD.Sendrecv(new long[] {me, -me}, 0, 2, MPI.LONG, right, 8, got, 0, 2, MPI.LONG, left, 8);
        Check.equal((long) left, got[0], "Sendrecv");
        Check.equal(left, st.source, "Sendrecv status");
        int[] token = {me, me * 10};
        MPI.COMM_WORLD.Sendrecv_replace(token, 0, 2, MPI.INT, right, 9, left, 9);
        Check.equal(left * 10, token[1], "Sendrecv_replace");
        Object[] objs = {"from " + me};
        MPI.COMM_WORLD.Sendrecv_replace(objs, 0, 1, MPI.OBJECT, right, 10, left, 10);
        Check.equal("from " + left, objs[0], "Sendrecv_replace of objects");

        // Probe and Iprobe
        MPI.COMM_WORLD.Send(new int[] {1, 2, 3, 4, 5}, 0, 5 - (me % 2), MPI.INT, right, 11);
        Status probed = MPI.COMM_WORLD.Probe(left, 11);
        Check.equal(5 - (left % 2), probed.Get_count(MPI.INT), "Probe count");
        int[] sized = new int[probed.Get_count(MPI.INT)];
        MPI.COMM_WORLD.Recv(sized, 0, sized.length, MPI.INT, probed.source, probed.tag);
        Check.equal(null, MPI.COMM_WORLD.Iprobe(left, 12), "Iprobe with nothing sent");
        MPI.COMM_WORLD.Barrier();
        MPI.COMM_WORLD.Send(new short[] {4}, 0, 1, MPI.SHORT, right, 12);
        Status seen = null;
        while (seen == null) {
            seen = MPI.COMM_WORLD.Iprobe(MPI.ANY_SOURCE, 12);
        }
        Check.equal(left, seen.source, "Iprobe source");
        MPI.COMM_WORLD.Recv(new short[1], 0, 1, MPI.SHORT, left, 12);

        // PROC_NULL
        MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
        Status none = MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.PROC_NULL, 0);
        Check.equal(MPI.PROC_NULL, none.source, "PROC_NULL receive source");
        Check.equal(0, none.Get_count(MPI.INT), "PROC_NULL receive count");

        MPI.Buffer_detach();
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
        if (me == 0) {
            System.out.println("PointToPoint ok");
        }
    }
}
