package mpi.programs;

import java.util.Arrays;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPI-2's intercommunicator collectives on {@code mpi.Intercomm}, checked as the mpiJava
 * test programs check (each rank its own results), on two intercommunicators: the even
 * and the odd ranks of COMM_WORLD, and rank 0 alone against the rest. Bcast, Reduce,
 * Gather and Scatter with the root in either group (MPI.ROOT at the root, MPI.PROC_NULL with
 * null buffers in the rest of its group), Allreduce, Allgather and Alltoall (each group gets
 * the other's data), Barrier, a non-contiguous datatype, booleans, several rounds in a row,
 * and the errors.
 */
public class IntercommCollectives {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.Errhandler_set(MPI.ERRORS_RETURN);
        int me = w.Rank();
        int p = w.Size();
        Check.that(p >= 2, "needs at least 2 ranks");

        int color = me % 2;
        Intracomm half = w.Split(color, me);
        check(w, w.Create_intercomm(half, 0, color == 0 ? 1 : 0, 21), color);

        int alone = me == 0 ? 0 : 1;
        Intracomm part = w.Split(alone, me);
        check(w, w.Create_intercomm(part, 0, alone == 0 ? 1 : 0, 22), alone);

        w.Barrier();
        if (me == 0) {
            System.out.println("IntercommCollectives ok on " + p + " ranks");
        }
        MPI.Finalize();
    }

    /** All the collectives on {@code inter}, where this rank is in group {@code color} (0 or 1). */
    static void check(Intracomm w, Intercomm inter, int color) throws MPIException {
        int me = w.Rank();
        int local = inter.Rank();
        int lsize = inter.Size();
        int rsize = inter.Remote_size();
        int[] remote = new int[rsize];                       // world ranks of the remote group
        int[] idx = new int[rsize];
        Arrays.setAll(idx, i -> i);
        remote = mpi.Group.Translate_ranks(inter.Remote_group(), idx, w.Group());
        int remoteSum = Arrays.stream(remote).sum();
        int remoteMax = Arrays.stream(remote).max().getAsInt();

        for (int round = 0; round < 3; round++) {
            inter.Barrier();
            for (int rootGroup = 0; rootGroup < 2; rootGroup++) {
                boolean inRootGroup = color == rootGroup;
                int rootLocal = (round + 1) % (inRootGroup ? lsize : rsize);    // the root's rank in its group
                boolean isRoot = inRootGroup && local == rootLocal;
                int root = isRoot ? MPI.ROOT : inRootGroup ? MPI.PROC_NULL : rootLocal;
                String where = " (round " + round + ", root in group " + rootGroup + ")";

                // Bcast: the root's data to every rank of the other group
                int[] b = new int[3];
                if (isRoot) {
                    b = new int[] {me, round, 77};
                }
                inter.Bcast(inRootGroup && !isRoot ? null : b, 0, 3, MPI.INT, root);
                if (!inRootGroup) {
                    int rootWorld = remote[rootLocal];
                    Check.equal(Arrays.toString(new int[] {rootWorld, round, 77}), Arrays.toString(b), "Bcast" + where);
                }

                // Bcast of a non-contiguous type (every other double) and of booleans
                Datatype everyOther = Datatype.Vector(3, 1, 2, MPI.DOUBLE);
                double[] d = new double[6];
                boolean[] z = new boolean[4];
                if (isRoot) {
                    for (int i = 0; i < 6; i++) {
                        d[i] = i % 2 == 0 ? me + i : -1;
                    }
                    z = new boolean[] {true, false, round % 2 == 0, true};
                }
                inter.Bcast(d, 0, 1, everyOther, root);
                inter.Bcast(z, 0, 4, MPI.BOOLEAN, root);
                if (!inRootGroup) {
                    int rootWorld = remote[rootLocal];
                    Check.that(d[0] == rootWorld && d[2] == rootWorld + 2 && d[4] == rootWorld + 4 && d[1] == 0 && d[3] == 0,
                            "Bcast of a vector type" + where + ": " + Arrays.toString(d));
                    Check.equal(Arrays.toString(new boolean[] {true, false, round % 2 == 0, true}), Arrays.toString(z),
                            "Bcast of booleans" + where);
                }

                // Reduce: the root gets the sum (and max) over the other group
                int[] mine = {me, me * round, 1};
                int[] sum = isRoot ? new int[3] : null;
                inter.Reduce(mine, 0, sum, 0, 3, MPI.INT, MPI.SUM, root);
                if (isRoot) {
                    Check.equal(Arrays.toString(new int[] {remoteSum, remoteSum * round, rsize}), Arrays.toString(sum),
                            "Reduce SUM at the root" + where);
                }
                long[] max = {-1};
                inter.Reduce(new long[] {me}, 0, max, 0, 1, MPI.LONG, MPI.MAX, root);
                Check.equal(isRoot ? (long) remoteMax : -1L, max[0], "Reduce MAX" + where);

                // Gather: block i of the root's buffer from remote rank i
                int[] gathered = isRoot ? new int[2 * rsize] : null;
                inter.Gather(new int[] {me, round}, 0, 2, MPI.INT, gathered, 0, 2, MPI.INT, root);
                if (isRoot) {
                    for (int i = 0; i < rsize; i++) {
                        Check.that(gathered[2 * i] == remote[i] && gathered[2 * i + 1] == round,
                                "Gather block " + i + where + ": " + Arrays.toString(gathered));
                    }
                }

                // Scatter: block i of the root's buffer to remote rank i
                int[] toScatter = null;
                if (isRoot) {
                    toScatter = new int[2 * rsize];
                    for (int i = 0; i < rsize; i++) {
                        toScatter[2 * i] = 1000 * me + i;
                        toScatter[2 * i + 1] = round;
                    }
                }
                int[] piece = {-1, -1};
                inter.Scatter(toScatter, 0, 2, MPI.INT, inRootGroup ? null : piece, 0, 2, MPI.INT, root);
                if (!inRootGroup) {
                    Check.that(piece[0] == 1000 * remote[rootLocal] + local && piece[1] == round,
                            "Scatter" + where + ": " + Arrays.toString(piece));
                }
            }

            // Allreduce: each group gets the reduction over the other group
            double[] s = new double[2];
            inter.Allreduce(new double[] {me, 0.5}, 0, s, 0, 2, MPI.DOUBLE, MPI.SUM);
            Check.that(s[0] == remoteSum && s[1] == 0.5 * rsize, "Allreduce SUM (round " + round + "): " + Arrays.toString(s));
            int[] mx = new int[1];
            inter.Allreduce(new int[] {me}, 0, mx, 0, 1, MPI.INT, MPI.MAX);
            Check.equal(remoteMax, mx[0], "Allreduce MAX");

            // Allgather: block i from remote rank i
            int[] all = new int[2 * rsize];
            inter.Allgather(new int[] {me, round}, 0, 2, MPI.INT, all, 0, 2, MPI.INT);
            for (int i = 0; i < rsize; i++) {
                Check.that(all[2 * i] == remote[i] && all[2 * i + 1] == round, "Allgather block " + i + ": " + Arrays.toString(all));
            }

            // Alltoall: block j to remote rank j, block j from remote rank j
            long[] out = new long[rsize];
            for (int j = 0; j < rsize; j++) {
                out[j] = 1_000_000L * me + 1000L * j + round;
            }
            long[] in = new long[rsize];
            inter.Alltoall(out, 0, 1, MPI.LONG, in, 0, 1, MPI.LONG);
            for (int j = 0; j < rsize; j++) {
                Check.equal(1_000_000L * remote[j] + 1000L * local + round, in[j], "Alltoall block " + j);
            }
        }

        // errors
        Check.fails(MPI.ERR_ROOT, "Bcast", () -> inter.Bcast(new int[1], 0, 1, MPI.INT, rsize));
        Check.fails(MPI.ERR_ROOT, "Gather", () -> inter.Gather(new int[1], 0, 1, MPI.INT, new int[1], 0, 1, MPI.INT, -7));
        Check.fails(MPI.ERR_TYPE, "Allgather", () -> inter.Allgather(new Object[1], 0, 1, MPI.OBJECT, new Object[rsize], 0, 1,
                MPI.OBJECT));
        Check.fails(MPI.ERR_TYPE, "Bcast", () -> inter.Bcast(new Object[1], 0, 1, MPI.OBJECT, MPI.ROOT));

        // the merged intracommunicator still works after the intercommunicator's collectives
        Intracomm merged = inter.Merge(color == 1);
        int[] total = new int[1];
        merged.Allreduce(new int[] {1}, 0, total, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(w.Size(), total[0], "Allreduce over the merge");
        inter.Barrier();
    }
}
