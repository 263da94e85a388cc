package mpi.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Derived datatypes with strides and gaps: a matrix column (Vector), Contiguous, Indexed
 * with gaps, Hvector, Hindexed, Struct with LB/UB markers; sending one layout and
 * receiving another; sizes and extents; derived types in Bcast and Allgather.
 */
public class DerivedTypes {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.Errhandler_set(MPI.ERRORS_RETURN);     // the checks below catch the errors they provoke
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;
        int rows = 5, cols = 4;

        // a column of a row-major rows x cols matrix
        Datatype column = Datatype.Vector(rows, 1, cols, MPI.DOUBLE);
        column.Commit();
        Check.equal(rows, column.Size(), "Vector size");
        Check.equal((rows - 1) * cols + 1, column.Extent(), "Vector extent");
        double[] matrix = new double[rows * cols];
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = me * 100 + i;
        }
        // send column 2, receive it as a contiguous row of 5
        double[] row = new double[rows];
        Status st = MPI.COMM_WORLD.Sendrecv(matrix, 2, 1, column, right, 1, row, 0, rows, MPI.DOUBLE, left, 1);
        Check.equal(rows, st.Get_count(MPI.DOUBLE), "column arrives as 5 doubles");
        Check.equal(1, st.Get_count(column), "Get_count in columns");
        for (int i = 0; i < rows; i++) {
            Check.equal(left * 100 + 2.0 + i * cols, row[i], "column element " + i);
        }
        // send a row, receive it into column 1 (strided receive, gaps untouched)
        double[] target = new double[rows * cols];
        MPI.COMM_WORLD.Sendrecv(new double[] {me, me + 1, me + 2, me + 3, me + 4}, 0, 5, MPI.DOUBLE, right, 2,
                target, 1, 1, column, left, 2);
        for (int i = 0; i < target.length; i++) {
            double expected = i % cols == 1 ? left + i / cols : 0.0;
            Check.equal(expected, target[i], "strided receive element " + i);
        }

        // two columns at once: count 2 of a resized column type (extent 1 via UB marker)
        Datatype col1 = Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {column, MPI.UB});
        Check.equal(1, col1.Extent(), "Struct with UB: extent");
        Check.equal(rows, col1.Size(), "Struct with UB: size");
        int[] im = new int[rows * cols];
        for (int i = 0; i < im.length; i++) {
            im[i] = me * 1000 + i;
        }
        Datatype icol = Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {Datatype.Vector(rows, 1, cols, MPI.INT), MPI.UB});
        int[] twoCols = new int[2 * rows];
        MPI.COMM_WORLD.Sendrecv(im, 1, 2, icol, right, 3, twoCols, 0, 2 * rows, MPI.INT, left, 3);
        for (int c = 0; c < 2; c++) {
            for (int r = 0; r < rows; r++) {
                Check.equal(left * 1000 + r * cols + 1 + c, twoCols[c * rows + r], "resized column " + c + " row " + r);
            }
        }

        // Contiguous of Vector, Indexed with gaps, Hvector and Hindexed (displacements in elements)
        Datatype pairOfInts = Datatype.Contiguous(2, MPI.INT);
        Check.equal(2, pairOfInts.Extent(), "Contiguous extent");
        Datatype gaps = Datatype.Indexed(new int[] {2, 1, 3}, new int[] {0, 4, 7}, MPI.LONG);
        Check.equal(6, gaps.Size(), "Indexed size");
        Check.equal(10, gaps.Extent(), "Indexed extent");
        long[] src = new long[30];
        for (int i = 0; i < src.length; i++) {
            src[i] = me * 10_000L + i;
        }
        long[] dst = new long[30];
        MPI.COMM_WORLD.Sendrecv(src, 5, 2, gaps, right, 4, dst, 5, 2, gaps, left, 4);
        int[] picked = {0, 1, 4, 7, 8, 9};
        boolean[] touched = new boolean[30];
        for (int item = 0; item < 2; item++) {
            for (int k : picked) {
                int at = 5 + item * 10 + k;
                touched[at] = true;
                Check.equal(left * 10_000L + at, dst[at], "Indexed element at " + at);
            }
        }
        for (int i = 0; i < 30; i++) {
            if (!touched[i]) {
                Check.equal(0L, dst[i], "Indexed gap at " + i);
            }
        }
        Datatype hv = Datatype.Hvector(3, 2, 5, MPI.SHORT);
        Check.equal(12, hv.Extent(), "Hvector extent");
        Datatype hi = Datatype.Hindexed(new int[] {1, 2}, new int[] {3, 0}, MPI.FLOAT);
        Check.equal(0, hi.Lb(), "Hindexed lb");
        Check.equal(4, hi.Ub(), "Hindexed ub");
        short[] s = new short[12];
        for (int i = 0; i < 12; i++) {
            s[i] = (short) (me * 100 + i);
        }
        short[] sGot = new short[6];
        MPI.COMM_WORLD.Sendrecv(s, 0, 1, hv, right, 5, sGot, 0, 6, MPI.SHORT, left, 5);
        int[] hvIdx = {0, 1, 5, 6, 10, 11};
        for (int i = 0; i < 6; i++) {
            Check.equal((short) (left * 100 + hvIdx[i]), sGot[i], "Hvector element " + i);
        }
        float[] f = {me, me + 0.5f, me + 1, me + 1.5f};
        float[] fGot = new float[3];
        MPI.COMM_WORLD.Sendrecv(f, 0, 1, hi, right, 6, fGot, 0, 3, MPI.FLOAT, left, 6);
        Check.equal(left + 1.5f, fGot[0], "Hindexed first block (displacement 3)");
        Check.equal((float) left, fGot[1], "Hindexed second block");

        // objects through a strided type
        Datatype everyOther = Datatype.Vector(3, 1, 2, MPI.OBJECT);
        Object[] objs = {"a" + me, "x", "b" + me, "y", "c" + me};
        Object[] oGot = new Object[3];
        MPI.COMM_WORLD.Sendrecv(objs, 0, 1, everyOther, right, 7, oGot, 0, 3, MPI.OBJECT, left, 7);
        Check.equal("c" + left, oGot[2], "strided objects");

        // derived types in collectives: broadcast a column, allgather rows into columns
        double[] bm = new double[rows * cols];
        if (me == 0) {
            for (int r = 0; r < rows; r++) {
                bm[r * cols + 3] = 7 + r;
            }
        }
        MPI.COMM_WORLD.Bcast(bm, 3, 1, column, 0);
        for (int r = 0; r < rows; r++) {
            Check.equal(7.0 + r, bm[r * cols + 3], "Bcast of a column, row " + r);
            Check.equal(0.0, bm[r * cols + 2], "Bcast leaves other columns alone");
        }
        // every rank contributes one row of length 3; the result is a 3 x p matrix with rank i in column i
        Datatype rcol = Datatype.Vector(3, 1, p, MPI.INT);
        Datatype rcolResized = Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {rcol, MPI.UB});
        int[] gathered = new int[3 * p];
        MPI.COMM_WORLD.Allgather(new int[] {me, me * 2, me * 3}, 0, 3, MPI.INT, gathered, 0, 1, rcolResized);
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < p; c++) {
                Check.equal(c * (r + 1), gathered[r * p + c], "Allgather into columns (" + r + "," + c + ")");
            }
        }

        // v-collectives with non-contiguous types (staged blocks): rank i's block is i+1 items of
        // "every other int"; blocks land in reverse rank order
        Datatype everyOtherInt = Datatype.Vector(1, 1, 2, MPI.INT);
        Datatype stride2 = Datatype.Struct(new int[] {1, 1}, new int[] {0, 2}, new Datatype[] {everyOtherInt, MPI.UB});
        Check.equal(2, stride2.Extent(), "stride-2 int extent");
        int[] counts = new int[p];
        int[] displs = new int[p];
        int slots = 0;
        for (int i = p - 1; i >= 0; i--) {
            counts[i] = i + 1;
            displs[i] = slots;
            slots += i + 1;
        }
        int[] mineV = new int[2 * (me + 1)];
        for (int k = 0; k <= me; k++) {
            mineV[2 * k] = me * 100 + k;
            mineV[2 * k + 1] = -1;                 // the gaps must not travel
        }
        int[] gv = new int[2 * slots];
        MPI.COMM_WORLD.Allgatherv(mineV, 0, me + 1, stride2, gv, 0, counts, displs, stride2);
        for (int i = 0; i < p; i++) {
            for (int k = 0; k <= i; k++) {
                Check.equal(i * 100 + k, gv[2 * (displs[i] + k)], "Allgatherv strided block " + i + " item " + k);
                Check.equal(0, gv[2 * (displs[i] + k) + 1], "Allgatherv leaves gaps alone");
            }
        }
        int[] rootGv = new int[2 * slots];
        MPI.COMM_WORLD.Gatherv(mineV, 0, me + 1, stride2, rootGv, 0, counts, displs, stride2, p - 1);
        if (me == p - 1) {
            Check.that(java.util.Arrays.equals(gv, rootGv), "Gatherv strided equals Allgatherv");
        }
        int[] back = new int[2 * (me + 1)];
        MPI.COMM_WORLD.Scatterv(gv, 0, counts, displs, stride2, back, 0, me + 1, stride2, 0);
        for (int k = 0; k <= me; k++) {
            Check.equal(me * 100 + k, back[2 * k], "Scatterv strided item " + k);
        }
        int[] sc = new int[p], sd = new int[p];
        for (int j = 0; j < p; j++) {
            sc[j] = 1;
            sd[j] = p - 1 - j;                       // reversed placement
        }
        int[] a2aIn = new int[2 * p];
        for (int j = 0; j < p; j++) {
            a2aIn[2 * (p - 1 - j)] = me * 10 + j;
        }
        int[] a2aOut = new int[2 * p];
        MPI.COMM_WORLD.Alltoallv(a2aIn, 0, sc, sd, stride2, a2aOut, 0, sc, sd, stride2);
        for (int j = 0; j < p; j++) {
            Check.equal(j * 10 + me, a2aOut[2 * (p - 1 - j)], "Alltoallv strided from " + j);
        }
        int[] scat = new int[2 * p];
        if (me == 0) {
            for (int j = 0; j < p; j++) {
                scat[2 * j] = 7 * j;
            }
        }
        int[] one = new int[1];
        MPI.COMM_WORLD.Scatter(scat, 0, 1, stride2, one, 0, 1, MPI.INT, 0);
        Check.equal(7 * me, one[0], "Scatter from a strided type");
        int[] gathered2 = new int[2 * p];
        MPI.COMM_WORLD.Gather(new int[] {me + 1}, 0, 1, MPI.INT, gathered2, 0, 1, stride2, 0);
        if (me == 0) {
            for (int j = 0; j < p; j++) {
                Check.equal(j + 1, gathered2[2 * j], "Gather into a strided type");
            }
        }
        int[] a2a = new int[2 * p];
        for (int j = 0; j < p; j++) {
            a2a[2 * j] = me * 1000 + j;
        }
        int[] a2aGot = new int[p];
        MPI.COMM_WORLD.Alltoall(a2a, 0, 1, stride2, a2aGot, 0, 1, MPI.INT);
        for (int j = 0; j < p; j++) {
            Check.equal(j * 1000 + me, a2aGot[j], "Alltoall from a strided type");
        }

        // reductions over a strided type: built-in SUM and a user op that sees the strided layout
        int[] red = {me, -1, 2 * me, -1, 3};
        int[] redOut = new int[5];
        Datatype threeStrided = Datatype.Vector(3, 1, 2, MPI.INT);
        MPI.COMM_WORLD.Allreduce(red, 0, redOut, 0, 1, threeStrided, MPI.SUM);
        Check.equal(p * (p - 1) / 2, redOut[0], "strided SUM element 0");
        Check.equal(p * (p - 1), redOut[2], "strided SUM element 1");
        Check.equal(3 * p, redOut[4], "strided SUM element 2");
        Check.equal(0, redOut[1], "strided SUM leaves gaps");
        mpi.Op maxOfStrided = new mpi.Op(new mpi.User_function() {
            @Override
            public void Call(Object in, int io, Object inout, int ioo, int count, Datatype t) throws MPIException {
                int[] a = (int[]) in, b = (int[]) inout;
                for (int k = 0; k < 3 * count; k++) {
                    int ia = io + 2 * k, ib = ioo + 2 * k;     // the user function walks the stride itself
                    b[ib] = Math.max(a[ia], b[ib]);
                }
            }
        }, true);
        int[] maxOut = new int[5];
        MPI.COMM_WORLD.Reduce(red, 0, maxOut, 0, 1, threeStrided, maxOfStrided, 0);
        if (me == 0) {
            Check.equal(p - 1, maxOut[0], "user op on strided type, element 0");
            Check.equal(2 * (p - 1), maxOut[2], "user op on strided type, element 1");
        }

        // Pack and Unpack
        byte[] packed = new byte[MPI.COMM_WORLD.Pack_size(2, threeStrided) + MPI.COMM_WORLD.Pack_size(1, MPI.BOOLEAN)];
        int pos = MPI.COMM_WORLD.Pack(new int[] {1, 0, 2, 0, 3, 4, 0, 5, 0, 6}, 0, 2, threeStrided, packed, 0);
        pos = MPI.COMM_WORLD.Pack(new boolean[] {true}, 0, 1, MPI.BOOLEAN, packed, pos);
        Check.equal(packed.length, pos, "Pack position");
        byte[] packedIn = new byte[packed.length];
        MPI.COMM_WORLD.Sendrecv(packed, 0, packed.length, MPI.PACKED, right, 9, packedIn, 0, packed.length, MPI.PACKED, left, 9);
        int[] unpacked = new int[6];
        boolean[] flag = new boolean[1];
        int upos = MPI.COMM_WORLD.Unpack(packedIn, 0, unpacked, 0, 6, MPI.INT);
        MPI.COMM_WORLD.Unpack(packedIn, upos, flag, 0, 1, MPI.BOOLEAN);
        Check.that(java.util.Arrays.equals(new int[] {1, 2, 3, 4, 5, 6}, unpacked) && flag[0], "Pack/Unpack round trip "
                + java.util.Arrays.toString(unpacked));

        // mixed base types are rejected, as mpiJava requires
        Check.fails(MPI.ERR_TYPE, "Datatype.Struct", () -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1},
                new Datatype[] {MPI.INT, MPI.DOUBLE}));
        gaps.Free();
        Check.fails(MPI.ERR_TYPE, "Send", () -> MPI.COMM_WORLD.Send(src, 0, 1, gaps, right, 8));
        Check.fails(MPI.ERR_TYPE, "Datatype.Free", () -> MPI.INT.Free());
        MPI.Finalize();
    }
}
