package mpi.programs;

import mpi.Cartcomm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * A 2D Jacobi solver for Laplace's equation written against mpi.*: an N x N interior
 * (top boundary 1, other boundaries 0) split over a Cartesian grid of processes; halo rows
 * are exchanged as contiguous doubles and halo columns with a Vector datatype, both with
 * Sendrecv along Cartcomm.Shift neighbours; the residual is an Allreduce(MAX). Every rank
 * also runs the sequential solver and checks its block is bitwise identical (the update
 * adds the same four values in the same order). Arguments: N (default 24), iterations (default 60).
 */
public class Jacobi2D {

    public static void main(String[] args) throws MPIException {
        String[] rest = MPI.Init(args);
        int n = rest.length > 0 ? Integer.parseInt(rest[0]) : 24;
        int iterations = rest.length > 1 ? Integer.parseInt(rest[1]) : 60;
        int p = MPI.COMM_WORLD.Size();
        int[] dims = new int[2];
        Cartcomm.Dims_create(p, dims);
        Cartcomm grid = MPI.COMM_WORLD.Create_cart(dims, new boolean[] {false, false}, true);
        int[] coords = grid.Coords(grid.Rank());
        int row0 = coords[0] * n / dims[0], rows = (coords[0] + 1) * n / dims[0] - row0;
        int col0 = coords[1] * n / dims[1], cols = (coords[1] + 1) * n / dims[1] - col0;
        int w = cols + 2;                                  // local row length with halo
        double[] u = new double[(rows + 2) * w];
        double[] next = new double[(rows + 2) * w];
        if (row0 == 0) {                                   // top boundary of the global grid
            for (int j = 0; j < w; j++) {
                u[j] = 1.0;
                next[j] = 1.0;
            }
        }
        Datatype column = Datatype.Vector(rows, 1, w, MPI.DOUBLE);
        column.Commit();
        ShiftParms vertical = grid.Shift(0, 1);
        ShiftParms horizontal = grid.Shift(1, 1);
        double[] residual = new double[1];
        for (int it = 0; it < iterations; it++) {
            // halo rows: send my last row down, receive my top halo from above; and the reverse
            grid.Sendrecv(u, rows * w + 1, cols, MPI.DOUBLE, vertical.rank_dest, 0,
                    u, 1, cols, MPI.DOUBLE, vertical.rank_source, 0);
            grid.Sendrecv(u, w + 1, cols, MPI.DOUBLE, vertical.rank_source, 1,
                    u, (rows + 1) * w + 1, cols, MPI.DOUBLE, vertical.rank_dest, 1);
            // halo columns, strided
            grid.Sendrecv(u, w + cols, 1, column, horizontal.rank_dest, 2,
                    u, w, 1, column, horizontal.rank_source, 2);
            grid.Sendrecv(u, w + 1, 1, column, horizontal.rank_source, 3,
                    u, w + cols + 1, 1, column, horizontal.rank_dest, 3);
            double local = 0;
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    int k = i * w + j;
                    next[k] = 0.25 * (u[k - w] + u[k + w] + u[k - 1] + u[k + 1]);
                    local = Math.max(local, Math.abs(next[k] - u[k]));
                }
            }
            double[] swap = u;
            u = next;
            next = swap;
            grid.Allreduce(new double[] {local}, 0, residual, 0, 1, MPI.DOUBLE, MPI.MAX);
        }

        // the sequential solver, for comparison
        int sw = n + 2;
        double[] s = new double[sw * sw];
        double[] sn = new double[sw * sw];
        for (int j = 0; j < sw; j++) {
            s[j] = 1.0;
            sn[j] = 1.0;
        }
        double seqResidual = 0;
        for (int it = 0; it < iterations; it++) {
            seqResidual = 0;
            for (int i = 1; i <= n; i++) {
                for (int j = 1; j <= n; j++) {
                    int k = i * sw + j;
                    sn[k] = 0.25 * (s[k - sw] + s[k + sw] + s[k - 1] + s[k + 1]);
                    seqResidual = Math.max(seqResidual, Math.abs(sn[k] - s[k]));
                }
            }
            double[] swap = s;
            s = sn;
            sn = swap;
        }
        for (int i = 1; i <= rows; i++) {
            for (int j = 1; j <= cols; j++) {
                double expected = s[(row0 + i) * sw + col0 + j];
                if (u[i * w + j] != expected) {
                    Check.that(false, "Jacobi value at global (" + (row0 + i - 1) + "," + (col0 + j - 1) + "): "
                            + u[i * w + j] + " != " + expected);
                }
            }
        }
        Check.equal(seqResidual, residual[0], "residual");
        if (grid.Rank() == 0) {
            System.out.println("Jacobi2D ok: " + n + "x" + n + " on a " + dims[0] + "x" + dims[1] + " grid, "
                    + iterations + " iterations, residual " + residual[0]);
        }
        MPI.Finalize();
    }
}
