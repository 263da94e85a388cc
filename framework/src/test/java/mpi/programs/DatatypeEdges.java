package mpi.programs;

import java.util.Arrays;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Derived datatypes at the edges: a Struct made only of MPI.LB / MPI.UB markers (size 0,
 * with an extent) alone and as the bounds of another type, zero counts and types of size 0
 * in point-to-point and collective calls, and types whose lower bound is not 0 (positive,
 * negative, set by a marker), each sent around the ring and checked element by element.
 */
public class DatatypeEdges {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.Errhandler_set(MPI.ERRORS_RETURN);
        int me = w.Rank();
        int p = w.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;

        // ---- a Struct of only markers: size 0, an extent, bounds where the markers are
        Datatype gap = Datatype.Struct(new int[] {1, 1}, new int[] {0, 3}, new Datatype[] {MPI.LB, MPI.UB});
        gap.Commit();
        shape(gap, 0, 0, 3, "Struct(LB 0, UB 3)");
        Datatype shifted = Datatype.Struct(new int[] {1, 1}, new int[] {-2, 5}, new Datatype[] {MPI.LB, MPI.UB});
        shape(shifted, 0, -2, 5, "Struct(LB -2, UB 5)");
        shape(Datatype.Contiguous(4, gap), 0, 0, 12, "Contiguous(4, marker struct)");
        // ... as the bounds of INT: every third int
        Datatype every3 = Datatype.Struct(new int[] {1, 1}, new int[] {0, 0}, new Datatype[] {MPI.INT, gap});
        every3.Commit();
        shape(every3, 1, 0, 3, "INT resized to extent 3");
        int[] src = new int[12];
        Arrays.setAll(src, i -> me * 100 + i);
        int[] in = new int[4];
        ring(w, src, 0, 4, every3, in, 0, 4, MPI.INT, right, left, 1);
        for (int i = 0; i < 4; i++) {
            Check.equal(left * 100 + 3 * i, in[i], "every third int [" + i + "]");
        }
        int[] spread = new int[12];
        Arrays.fill(spread, -1);
        ring(w, src, 0, 4, MPI.INT, spread, 0, 4, every3, right, left, 2);
        for (int i = 0; i < 12; i++) {
            Check.equal(i % 3 == 0 ? left * 100 + i / 3 : -1, spread[i], "ints received every third [" + i + "]");
        }
        // ... sent on its own it moves nothing, and matches a receive of itself
        int[] untouched = {7, 7, 7};
        Status s = ring(w, new int[] {1, 2, 3}, 0, 5, gap, untouched, 0, 5, gap, right, left, 3);
        Check.equal(0, s.Get_count(gap), "Get_count of a size-0 type");
        Check.equal(0, s.Get_elements(gap), "Get_elements of a size-0 type");
        Check.that(Arrays.equals(new int[] {7, 7, 7}, untouched), "a size-0 type moves nothing");
        Check.equal(0, w.Pack_size(4, gap), "Pack_size of a size-0 type");

        // ---- zero counts and types of size 0
        shape(Datatype.Contiguous(0, MPI.INT), 0, 0, 0, "Contiguous(0)");
        shape(Datatype.Vector(0, 2, 3, MPI.DOUBLE), 0, 0, 0, "Vector(0, ...)");
        shape(Datatype.Indexed(new int[] {0, 0}, new int[] {1, 4}, MPI.INT), 0, 0, 0, "Indexed with empty blocks");
        Status z = ring(w, new int[] {5}, 0, 3, Datatype.Contiguous(0, MPI.INT), new int[] {9}, 0, 0, MPI.INT, right, left, 4);
        Check.equal(0, z.Get_count(MPI.INT), "count of a message of a size-0 type");
        Check.equal(left, z.source, "source of an empty message");
        Status n = ring(w, null, 0, 0, MPI.DOUBLE, null, 0, 0, MPI.DOUBLE, right, left, 5);
        Check.equal(0, n.Get_count(MPI.DOUBLE), "null buffers with count 0");
        Object[] noObjects = new Object[1];
        Status o = ring(w, new Object[0], 0, 0, MPI.OBJECT, noObjects, 0, 1, MPI.OBJECT, right, left, 6);
        Check.that(o.Get_count(MPI.OBJECT) == 0 && noObjects[0] == null, "zero objects");
        double[] d = {3.5};
        w.Bcast(d, 0, 0, MPI.DOUBLE, 0);
        w.Allreduce(new int[0], 0, new int[0], 0, 0, MPI.INT, MPI.SUM);
        int[] gathered = {-4};
        w.Gather(new int[0], 0, 0, MPI.INT, gathered, 0, 0, MPI.INT, 0);
        w.Bcast(new int[] {1}, 0, 3, gap, p - 1);
        Check.that(d[0] == 3.5 && gathered[0] == -4, "collectives with count 0 move nothing");

        // ---- lower bound not 0
        Datatype hidx = Datatype.Hindexed(new int[] {2, 1}, new int[] {3, 7}, MPI.INT);     // 3, 4, 7
        shape(hidx, 3, 3, 8, "Hindexed from 3");
        int[] big = new int[30];
        Arrays.setAll(big, i -> me * 1000 + i);
        int[] got = new int[6];
        ring(w, big, 0, 2, hidx, got, 0, 6, MPI.INT, right, left, 7);
        int[] want = {3, 4, 7, 8, 9, 12};                                                   // item 2 starts one extent (5) later
        for (int i = 0; i < 6; i++) {
            Check.equal(left * 1000 + want[i], got[i], "Hindexed from 3 [" + i + "]");
        }
        Datatype vec = Datatype.Vector(2, 1, 2, hidx);                                      // copies 2 extents (10) apart
        shape(vec, 6, 3, 18, "Vector of a type with lower bound 3");
        int[] back = new int[30];
        Arrays.fill(back, -1);
        ring(w, big, 0, 1, vec, back, 0, 1, vec, right, left, 8);
        for (int i = 0; i < 30; i++) {
            boolean in6 = i == 3 || i == 4 || i == 7 || i == 13 || i == 14 || i == 17;
            Check.equal(in6 ? left * 1000 + i : -1, back[i], "Vector of Hindexed [" + i + "]");
        }
        Datatype neg = Datatype.Struct(new int[] {1, 2, 1}, new int[] {-2, 1, 4}, new Datatype[] {MPI.LB, MPI.INT, MPI.UB});
        shape(neg, 2, -2, 4, "LB below the data");
        int[] negOut = new int[16];
        Arrays.fill(negOut, -1);
        ring(w, big, 2, 2, neg, negOut, 2, 2, neg, right, left, 9);                       // elements 3, 4, 9, 10
        for (int i = 0; i < 16; i++) {
            boolean used = i == 3 || i == 4 || i == 9 || i == 10;
            Check.equal(used ? left * 1000 + i : -1, negOut[i], "type with lower bound -2 [" + i + "]");
        }
        Datatype before = Datatype.Indexed(new int[] {1}, new int[] {-1}, MPI.INT);         // the element before the offset
        shape(before, 1, -1, 0, "Indexed at -1");
        int[] prev = new int[3];
        ring(w, big, 1, 3, before, prev, 0, 3, MPI.INT, right, left, 10);
        Check.that(prev[0] == left * 1000 && prev[1] == left * 1000 + 1 && prev[2] == left * 1000 + 2,
                "Indexed at -1 from offset 1: " + Arrays.toString(prev));
        Check.fails(MPI.ERR_BUFFER, "Send", () -> w.Send(big, 0, 1, before, right, 11));
        // a collective with a shifted type: the root's elements 3, 4, 7 land at the same places everywhere
        int[] root = new int[8];
        if (me == 0) {
            Arrays.setAll(root, i -> 50 + i);
        }
        w.Bcast(root, 0, 1, hidx, 0);
        Check.that(root[3] == 53 && root[4] == 54 && root[7] == 57 && (me == 0 || root[5] == 0), "Bcast of Hindexed from 3");

        w.Barrier();
        if (me == 0) {
            System.out.println("DatatypeEdges ok");
        }
        MPI.Finalize();
    }

    private static void shape(Datatype t, int size, int lb, int ub, String what) throws MPIException {
        Check.equal(size, t.Size(), what + ": Size");
        Check.equal(lb, t.Lb(), what + ": Lb");
        Check.equal(ub, t.Ub(), what + ": Ub");
        Check.equal(ub - lb, t.Extent(), what + ": Extent");
    }

    /** Sends to the right and receives from the left at once; the receive's status. */
    private static Status ring(Intracomm w, Object sbuf, int soff, int scount, Datatype stype, Object rbuf, int roff,
                               int rcount, Datatype rtype, int right, int left, int tag) throws MPIException {
        return w.Sendrecv(sbuf, soff, scount, stype, right, tag, rbuf, roff, rcount, rtype, left, tag);
    }
}
