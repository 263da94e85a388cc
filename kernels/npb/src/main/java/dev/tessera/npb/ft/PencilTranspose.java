package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * The two global transposes of FT's 2D (pencil) layout, used when there are more ranks
 * than z planes (NPB3.4-MPI/FT/ft.f {@code transpose_x_y} and {@code transpose_x_z}): a
 * local reordering that makes each destination's block contiguous, one alltoall over a
 * row or column of the np1 x np2 process grid, and a local finish that places the blocks.
 * The process grid is the reference's: rank = me1 * np2 + me2; layout 1 (x-pencils)
 * {@code nx x ny/np1 x nz/np2}, layout 2 (y-pencils) {@code ny x nx/np1 x nz/np2},
 * layout 3 (z-pencils) {@code nz x nx/np1 x ny/np2}.
 *
 * <p>Both map a block {@code d1 x d2 x d3} (first index fastest) whose first axis is
 * whole to a block {@code e1 x e2 x e3} whose first axis is the one that was split over
 * the P ranks of {@code comm}:
 * <ul>
 * <li>{@link #xy}: axes 1 and 2 swap roles (x-pencils to y-pencils and back), local order
 * (j, k, i), finish {@code out[i + p e1/P + e1 (j + e2 k)] = recv[p][i + e1/P (k + e3 j)]};
 * <li>{@link #xz}: axes 1 and 3 swap (y-pencils to z-pencils and back), local order
 * (k, j, i), finish {@code out[i + p e1/P + e1 (j + e2 k)] = recv[p][i + e1/P (j + e2 k)]}.
 * </ul>
 * Real and imaginary parts travel interleaved in one alltoall. The local steps run over
 * the team; the alltoall runs on the calling thread.
 */
final class PencilTranspose {

    /** Ranks with this rank's z range (the reference's commslice2, np1 of them), over which x-y transposes run. */
    private final Comm xyComm;
    /** Ranks with this rank's x range (commslice1, np2 of them), over which x-z transposes run. */
    private final Comm xzComm;
    private final Team team;
    private final double[] send;
    private final double[] recv;

    /** Transposes of blocks of {@code local} points over the two slices of the process grid. */
    PencilTranspose(Comm xyComm, Comm xzComm, Team team, int local) {
        this.xyComm = xyComm;
        this.xzComm = xzComm;
        this.team = team;
        this.send = new double[2 * local];
        this.recv = new double[2 * local];
    }

    /** x-y transpose of (re, im) over the z slice, in place: d = input extents, e = output extents. */
    void xy(double[] re, double[] im, int d1, int d2, int d3, int e1, int e2, int e3) {
        // local: send[j + d2*(k + d3*i)] = in[i + d1*(j + d2*k)], parallel over i (the destination-major axis)
        team.parallelForRange(0, d1, Schedule.STATIC, (from, to) -> {
            for (int i = from; i < to; i++) {
                for (int k = 0; k < d3; k++) {
                    for (int j = 0; j < d2; j++) {
                        int src = i + d1 * (j + d2 * k);
                        int dst = 2 * (j + d2 * (k + d3 * i));
                        send[dst] = re[src];
                        send[dst + 1] = im[src];
                    }
                }
            }
        });
        xyComm.alltoall(Buffer.of(send), Buffer.of(recv));
        int np = xyComm.size();
        int part = e1 / np;
        team.parallelForRange(0, e3, Schedule.STATIC, (from, to) -> {
            for (int k = from; k < to; k++) {
                for (int j = 0; j < e2; j++) {
                    for (int p = 0; p < np; p++) {
                        int src = 2 * (part * (k + e3 * (j + e2 * p)));
                        int dst = p * part + e1 * (j + e2 * k);
                        for (int i = 0; i < part; i++) {
                            re[dst + i] = recv[src + 2 * i];
                            im[dst + i] = recv[src + 2 * i + 1];
                        }
                    }
                }
            }
        });
    }

    /** x-z transpose of (re, im) over the x slice, in place: d = input extents, e = output extents. */
    void xz(double[] re, double[] im, int d1, int d2, int d3, int e1, int e2, int e3) {
        // local: send[k + d3*(j + d2*i)] = in[i + d1*(j + d2*k)], parallel over i
        team.parallelForRange(0, d1, Schedule.STATIC, (from, to) -> {
            for (int i = from; i < to; i++) {
                for (int j = 0; j < d2; j++) {
                    for (int k = 0; k < d3; k++) {
                        int src = i + d1 * (j + d2 * k);
                        int dst = 2 * (k + d3 * (j + d2 * i));
                        send[dst] = re[src];
                        send[dst + 1] = im[src];
                    }
                }
            }
        });
        xzComm.alltoall(Buffer.of(send), Buffer.of(recv));
        int np = xzComm.size();
        int part = e1 / np;
        team.parallelForRange(0, e3, Schedule.STATIC, (from, to) -> {
            for (int k = from; k < to; k++) {
                for (int j = 0; j < e2; j++) {
                    for (int p = 0; p < np; p++) {
                        int src = 2 * (part * (j + e2 * (k + e3 * p)));
                        int dst = p * part + e1 * (j + e2 * k);
                        for (int i = 0; i < part; i++) {
                            re[dst + i] = recv[src + 2 * i];
                            im[dst + i] = recv[src + 2 * i + 1];
                        }
                    }
                }
            }
        });
    }
}
