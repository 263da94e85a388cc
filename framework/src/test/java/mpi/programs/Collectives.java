package mpi.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.User_function;

/**
 * Every collective, with v-variants, built-in and user operations (commutative and not),
 * MINLOC/MAXLOC on pair types, and objects. Works for any number of ranks.
 */
public class Collectives {

    /** 2x2 matrix product on int[4] items: not commutative, so the rank order of operands shows. */
    static final class MatMul extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int[] a = (int[]) invec;
            int[] b = (int[]) inoutvec;
            for (int k = 0; k < count; k++) {
                int i = inoffset + 4 * k, o = inoutoffset + 4 * k;
                int c0 = a[i] * b[o] + a[i + 1] * b[o + 2], c1 = a[i] * b[o + 1] + a[i + 1] * b[o + 3];
                int c2 = a[i + 2] * b[o] + a[i + 3] * b[o + 2], c3 = a[i + 2] * b[o + 1] + a[i + 3] * b[o + 3];
                b[o] = c0;
                b[o + 1] = c1;
                b[o + 2] = c2;
                b[o + 3] = c3;
            }
        }
    }

    /** {@code items} general 2x2 matrices of rank {@code r} (row-major; no two ranks' matrices commute). */
    static int[] matrices(int r, int items) {
        int[] m = new int[4 * items];
        for (int k = 0; k < items; k++) {
            m[4 * k] = r + k + 1;
            m[4 * k + 1] = 2 * r + 1;
            m[4 * k + 2] = k % 3 + r + 1;
            m[4 * k + 3] = r * r + 2;
        }
        return m;
    }

    /** Item-wise product a x b (int arithmetic wraps, which keeps the product associative). */
    static int[] product(int[] a, int[] b) {
        int[] c = b.clone();
        new MatMul().Call(a, 0, c, 0, a.length / 4, null);
        return c;
    }

    /** The item-wise product of the matrices of ranks from, from+1, ..., to-1, in that order. */
    static int[] ordered(int from, int to, int items) {
        int[] acc = matrices(from, items);
        for (int r = from + 1; r < to; r++) {
            acc = product(acc, matrices(r, items));
        }
        return acc;
    }

    /** String concatenation on objects (not commutative). */
    static final class Concat extends User_function {
        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            Object[] a = (Object[]) invec;
            Object[] b = (Object[]) inoutvec;
            for (int k = 0; k < count; k++) {
                b[inoutoffset + k] = "" + a[inoffset + k] + b[inoutoffset + k];
            }
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        mpi.Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int p = w.Size();
        w.Barrier();

        // Bcast of every type from every root
        for (Datatype t : Check.TYPES) {
            for (int root = 0; root < p; root++) {
                Object buf = me == root ? Check.values(t, 6, root) : Check.array(t, 6);
                w.Bcast(buf, 1, 4, t, root);
                for (int i = 1; i < 5; i++) {
                    Check.holds(buf, i, root * 1000 + i, "Bcast of " + t + " from " + root);
                }
            }
        }

        // Gather, Scatter, Allgather, Alltoall (ints and objects)
        int root = p - 1;
        int[] g = new int[2 * p + 1];
        w.Gather(new int[] {me, -me}, 0, 2, MPI.INT, g, 1, 2, MPI.INT, root);
        if (me == root) {
            for (int i = 0; i < p; i++) {
                Check.equal(i, g[1 + 2 * i], "Gather block " + i);
                Check.equal(-i, g[2 + 2 * i], "Gather block " + i);
            }
        }
        Object[] og = new Object[p];
        w.Gather(new Object[] {"r" + me}, 0, 1, MPI.OBJECT, og, 0, 1, MPI.OBJECT, 0);
        if (me == 0) {
            Check.equal("r" + (p - 1), og[p - 1], "Gather of objects");
        }
        long[] sc = new long[3 * p];
        for (int i = 0; i < sc.length; i++) {
            sc[i] = i;
        }
        long[] mine = new long[3];
        w.Scatter(sc, 0, 3, MPI.LONG, mine, 0, 3, MPI.LONG, 0);
        Check.equal(3L * me + 2, mine[2], "Scatter");
        Object[] os = new Object[p];
        for (int i = 0; i < p; i++) {
            os[i] = i * 11;
        }
        Object[] omine = new Object[1];
        w.Scatter(os, 0, 1, MPI.OBJECT, omine, 0, 1, MPI.OBJECT, root);
        Check.equal(me * 11, omine[0], "Scatter of objects");
        double[] ag = new double[p];
        w.Allgather(new double[] {me * 0.5}, 0, 1, MPI.DOUBLE, ag, 0, 1, MPI.DOUBLE);
        Check.equal((p - 1) * 0.5, ag[p - 1], "Allgather");
        Object[] oag = new Object[p];
        w.Allgather(new Object[] {me}, 0, 1, MPI.OBJECT, oag, 0, 1, MPI.OBJECT);
        Check.equal(p - 1, oag[p - 1], "Allgather of objects");
        int[] a2a = new int[p];
        for (int j = 0; j < p; j++) {
            a2a[j] = me * 100 + j;
        }
        int[] a2aGot = new int[p];
        w.Alltoall(a2a, 0, 1, MPI.INT, a2aGot, 0, 1, MPI.INT);
        for (int j = 0; j < p; j++) {
            Check.equal(j * 100 + me, a2aGot[j], "Alltoall from " + j);
        }
        Object[] oa2a = new Object[p];
        for (int j = 0; j < p; j++) {
            oa2a[j] = me + "->" + j;
        }
        Object[] oa2aGot = new Object[p];
        w.Alltoall(oa2a, 0, 1, MPI.OBJECT, oa2aGot, 0, 1, MPI.OBJECT);
        Check.equal((p - 1) + "->" + me, oa2aGot[p - 1], "Alltoall of objects");

        // v-variants: rank i contributes i+1 elements; blocks are placed in reverse order with a gap of 1
        int[] counts = new int[p];
        int[] displs = new int[p];
        int total = 0;
        for (int i = p - 1; i >= 0; i--) {
            counts[i] = i + 1;
            displs[i] = total;
            total += counts[i] + 1;
        }
        short[] mineV = new short[me + 1];
        for (int k = 0; k <= me; k++) {
            mineV[k] = (short) (me * 10 + k);
        }
        short[] gv = new short[total];
        w.Gatherv(mineV, 0, me + 1, MPI.SHORT, gv, 0, counts, displs, MPI.SHORT, 0);
        short[] agv = new short[total];
        w.Allgatherv(mineV, 0, me + 1, MPI.SHORT, agv, 0, counts, displs, MPI.SHORT);
        for (int i = 0; i < p; i++) {
            for (int k = 0; k <= i; k++) {
                if (me == 0) {
                    Check.equal((short) (i * 10 + k), gv[displs[i] + k], "Gatherv block " + i);
                }
                Check.equal((short) (i * 10 + k), agv[displs[i] + k], "Allgatherv block " + i);
            }
        }
        short[] svGot = new short[me + 1];
        w.Scatterv(agv, 0, counts, displs, MPI.SHORT, svGot, 0, me + 1, MPI.SHORT, root);
        Check.equal((short) (me * 10 + me), svGot[me], "Scatterv");
        Object[] ogv = new Object[total];
        Object[] omineV = new Object[me + 1];
        java.util.Arrays.fill(omineV, "o" + me);
        w.Allgatherv(omineV, 0, me + 1, MPI.OBJECT, ogv, 0, counts, displs, MPI.OBJECT);
        Check.equal("o" + (p - 1), ogv[displs[p - 1] + p - 1], "Allgatherv of objects");
        w.Gatherv(omineV, 0, me + 1, MPI.OBJECT, ogv, 0, counts, displs, MPI.OBJECT, 0);
        Object[] osv = new Object[me + 1];
        w.Scatterv(ogv, 0, counts, displs, MPI.OBJECT, osv, 0, me + 1, MPI.OBJECT, 0);
        Check.equal("o" + me, osv[me], "Scatterv of objects");
        // Alltoallv: rank i sends j+1 elements to rank j
        int[] sCounts = new int[p], sDispls = new int[p], rCounts = new int[p], rDispls = new int[p];
        int sTotal = 0, rTotal = 0;
        for (int j = 0; j < p; j++) {
            sCounts[j] = j + 1;
            sDispls[j] = sTotal;
            sTotal += j + 1;
            rCounts[j] = me + 1;
            rDispls[j] = rTotal;
            rTotal += me + 1;
        }
        int[] sBuf = new int[sTotal];
        for (int j = 0; j < p; j++) {
            for (int k = 0; k <= j; k++) {
                sBuf[sDispls[j] + k] = me * 1000 + j * 10 + k;
            }
        }
        int[] rBuf = new int[rTotal];
        w.Alltoallv(sBuf, 0, sCounts, sDispls, MPI.INT, rBuf, 0, rCounts, rDispls, MPI.INT);
        for (int j = 0; j < p; j++) {
            for (int k = 0; k <= me; k++) {
                Check.equal(j * 1000 + me * 10 + k, rBuf[rDispls[j] + k], "Alltoallv from " + j);
            }
        }
        Object[] osBuf = new Object[sTotal];
        for (int i = 0; i < sTotal; i++) {
            osBuf[i] = sBuf[i];
        }
        Object[] orBuf = new Object[rTotal];
        w.Alltoallv(osBuf, 0, sCounts, sDispls, MPI.OBJECT, orBuf, 0, rCounts, rDispls, MPI.OBJECT);
        Check.equal(rBuf[rTotal - 1], orBuf[rTotal - 1], "Alltoallv of objects");

        // reductions: every built-in op on ints, sums on every numeric type
        int[] in = {me + 1, me % 2, me};
        Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.LAND, MPI.LOR, MPI.LXOR, MPI.BAND, MPI.BOR, MPI.BXOR};
        for (Op op : ops) {
            int[] out = new int[3];
            w.Allreduce(in, 0, out, 0, 3, MPI.INT, op);
            int[] expect = new int[3];
            for (int k = 0; k < 3; k++) {
                long acc = reduceExpected(op, k, p);
                expect[k] = (int) acc;
            }
            Check.that(java.util.Arrays.equals(expect, out), op + ": expected " + java.util.Arrays.toString(expect)
                    + " got " + java.util.Arrays.toString(out));
            int[] atRoot = new int[3];
            w.Reduce(in, 0, atRoot, 0, 3, MPI.INT, op, root);
            if (me == root) {
                Check.that(java.util.Arrays.equals(expect, atRoot), "Reduce " + op);
            }
        }
        double[] dsum = new double[1];
        w.Allreduce(new double[] {me + 0.5}, 0, dsum, 0, 1, MPI.DOUBLE, MPI.SUM);
        Check.equal(p * (p - 1) / 2.0 + 0.5 * p, dsum[0], "double sum");
        float[] fmax = new float[1];
        w.Allreduce(new float[] {-me}, 0, fmax, 0, 1, MPI.FLOAT, MPI.MIN);
        Check.equal((float) -(p - 1), fmax[0], "float min");
        long[] lsum = new long[1];
        w.Reduce(new long[] {1L << 40}, 0, lsum, 0, 1, MPI.LONG, MPI.SUM, 0);
        if (me == 0) {
            Check.equal((long) p << 40, lsum[0], "long sum");
        }
        boolean[] bor = new boolean[1];
        w.Allreduce(new boolean[] {me == p - 1}, 0, bor, 0, 1, MPI.BOOLEAN, MPI.LOR);
        Check.that(bor[0], "boolean LOR");

        // MINLOC / MAXLOC on pairs
        int[] loc = new int[2];
        w.Allreduce(new int[] {(me * 7) % p, me}, 0, loc, 0, 1, MPI.INT2, MPI.MINLOC);
        Check.equal(0, loc[0], "MINLOC value");
        Check.equal(0, loc[1], "MINLOC index");
        double[] dloc = new double[4];
        w.Allreduce(new double[] {me, me, -me, me}, 0, dloc, 0, 2, MPI.DOUBLE2, MPI.MAXLOC);
        Check.equal((double) (p - 1), dloc[0], "MAXLOC value");
        Check.equal((double) (p - 1), dloc[1], "MAXLOC index");
        Check.equal(0.0, dloc[2], "MAXLOC second pair value");
        Check.equal(0.0, dloc[3], "MAXLOC second pair index");

        // MINLOC on every pair type: the minimum value (p - 1 - rank) is at rank p - 1
        short[] s2 = new short[2];
        w.Allreduce(new short[] {(short) (p - 1 - me), (short) me}, 0, s2, 0, 1, MPI.SHORT2, MPI.MINLOC);
        Check.equal((short) (p - 1), s2[1], "SHORT2 MINLOC index");
        long[] l2 = new long[2];
        w.Allreduce(new long[] {p - 1 - me, me}, 0, l2, 0, 1, MPI.LONG2, MPI.MINLOC);
        Check.equal((long) (p - 1), l2[1], "LONG2 MINLOC index");
        float[] f2 = new float[2];
        w.Allreduce(new float[] {p - 1 - me, me}, 0, f2, 0, 1, MPI.FLOAT2, MPI.MINLOC);
        Check.equal((float) (p - 1), f2[1], "FLOAT2 MINLOC index");
        int[] i2 = new int[2];
        w.Reduce(new int[] {me % 2, me}, 0, i2, 0, 1, MPI.INT2, MPI.MAXLOC, 0);
        if (me == 0) {
            Check.equal(p > 1 ? 1 : 0, i2[1], "INT2 MAXLOC keeps the smallest index on ties");
        }

        // user operations: non-commutative 2x2 matrix products (general matrices: no two ranks' commute)
        // and string concatenation; whole vectors of several items are checked against the product in rank order
        Op matmul = new Op(new MatMul(), false);
        Datatype mat = Datatype.Contiguous(4, MPI.INT);
        int items = 5;
        if (p > 1) {
            Check.that(!java.util.Arrays.equals(product(matrices(0, items), matrices(1, items)),
                    product(matrices(1, items), matrices(0, items))), "the test's matrices do not commute");
        }
        int[] prod = new int[4 * items];
        w.Allreduce(matrices(me, items), 0, prod, 0, items, mat, matmul);
        Check.equal(java.util.Arrays.toString(ordered(0, p, items)), java.util.Arrays.toString(prod), "user op Allreduce");
        int[] atRoot = new int[4 * items];
        w.Reduce(matrices(me, items), 0, atRoot, 0, items, mat, matmul, root);
        if (me == root) {
            Check.equal(java.util.Arrays.toString(ordered(0, p, items)), java.util.Arrays.toString(atRoot), "user op Reduce");
        }
        int[] scan = new int[4 * items];
        w.Scan(matrices(me, items), 0, scan, 0, items, mat, matmul);
        Check.equal(java.util.Arrays.toString(ordered(0, me + 1, items)), java.util.Arrays.toString(scan), "user op Scan");
        int[] exscan = new int[4 * items];
        w.Exscan(matrices(me, items), 0, exscan, 0, items, mat, matmul);
        if (me > 0) {
            Check.equal(java.util.Arrays.toString(ordered(0, me, items)), java.util.Arrays.toString(exscan), "user op Exscan");
        }
        Op concat = new Op(new Concat(), false);
        Object[] word = new Object[1];
        w.Allreduce(new Object[] {"" + (char) ('a' + me)}, 0, word, 0, 1, MPI.OBJECT, concat);
        StringBuilder abc = new StringBuilder();
        for (int i = 0; i < p; i++) {
            abc.append((char) ('a' + i));
        }
        Check.equal(abc.toString(), word[0], "Allreduce of objects in rank order");
        Object[] oscan = new Object[1];
        w.Scan(new Object[] {"" + (char) ('a' + me)}, 0, oscan, 0, 1, MPI.OBJECT, concat);
        Check.equal(abc.substring(0, me + 1), oscan[0], "Scan of objects");
        Object[] oreduce = new Object[1];
        w.Reduce(new Object[] {"" + (char) ('a' + me)}, 0, oreduce, 0, 1, MPI.OBJECT, concat, root);
        if (me == root) {
            Check.equal(abc.toString(), oreduce[0], "Reduce of objects");
        }
        double[] userSum = new double[2];
        Op dsumOp = new Op(new User_function() {
            @Override
            public void Call(Object a, int ao, Object b, int bo, int count, Datatype t) {
                for (int k = 0; k < count; k++) {
                    ((double[]) b)[bo + k] += ((double[]) a)[ao + k];
                }
            }
        }, true);
        w.Allreduce(new double[] {1, me}, 0, userSum, 0, 2, MPI.DOUBLE, dsumOp);
        Check.equal((double) p, userSum[0], "commutative user op");

        // Scan, Exscan, Reduce_scatter
        int[] sc1 = new int[1];
        w.Scan(new int[] {me + 1}, 0, sc1, 0, 1, MPI.INT, MPI.SUM);
        Check.equal((me + 1) * (me + 2) / 2, sc1[0], "Scan");
        int[] ex = {-7};
        w.Exscan(new int[] {me + 1}, 0, ex, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(me == 0 ? -7 : me * (me + 1) / 2, ex[0], "Exscan");
        int[] rcounts = new int[p];
        int rsTotal = 0;
        for (int i = 0; i < p; i++) {
            rcounts[i] = i % 2 + 1;
            rsTotal += rcounts[i];
        }
        int[] rsIn = new int[rsTotal];
        for (int i = 0; i < rsTotal; i++) {
            rsIn[i] = i * (me + 1);
        }
        int[] rsOut = new int[rcounts[me]];
        w.Reduce_scatter(rsIn, 0, rsOut, 0, rcounts, MPI.INT, MPI.SUM);
        int before = 0;
        for (int i = 0; i < me; i++) {
            before += rcounts[i];
        }
        Check.equal(before * p * (p + 1) / 2, rsOut[0], "Reduce_scatter");
        MPI.Finalize();
    }

    private static long reduceExpected(Op op, int k, int p) {
        long acc = 0;
        for (int r = 0; r < p; r++) {
            long v = k == 0 ? r + 1 : k == 1 ? r % 2 : r;
            if (r == 0) {
                acc = v;
            } else if (op == MPI.SUM) {
                acc += v;
            } else if (op == MPI.PROD) {
                acc *= v;
            } else if (op == MPI.MAX) {
                acc = Math.max(acc, v);
            } else if (op == MPI.MIN) {
                acc = Math.min(acc, v);
            } else if (op == MPI.LAND) {
                acc = acc != 0 && v != 0 ? 1 : 0;
            } else if (op == MPI.LOR) {
                acc = acc != 0 || v != 0 ? 1 : 0;
            } else if (op == MPI.LXOR) {
                acc = (acc != 0) != (v != 0) ? 1 : 0;
            } else if (op == MPI.BAND) {
                acc &= v;
            } else if (op == MPI.BOR) {
                acc |= v;
            } else {
                acc ^= v;
            }
        }
        return (int) acc;
    }
}
