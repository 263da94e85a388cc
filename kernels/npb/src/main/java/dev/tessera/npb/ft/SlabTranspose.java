package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * The global transposes of FT's 1D (slab) layout (NPB3.4-MPI/FT/ft.f {@code transpose_xy_z}
 * and {@code transpose_x_yz}: one alltoall between local passes), over np ranks with np
 * dividing ny and nz.
 *
 * <p>Layouts (flat, first index fastest):
 * <ul>
 * <li>xyz: {@code x + nx*(y + ny*zl)}, rank r owns z in [r*nz/np, (r+1)*nz/np);
 * <li>xzy: {@code x + nx*(z + nz*yl)}, rank r owns y in [r*ny/np, (r+1)*ny/np).
 * </ul>
 * The reference's second layout is zxy (z fastest), which makes its transposes turn every
 * point around; here x stays fastest in both, so the transposes move whole x-lines (nx
 * contiguous doubles) and the z FFT on the xzy grid is a strided one, whose gathers and
 * scatters copy runs of points as the x and y FFTs' do. A block of the alltoall (to or from
 * rank p) holds, for each local z of the z owner and each local y of the y owner, one x-line:
 * the nx real parts, then the nx imaginary parts, at {@code 2 * nx * (yl + nyl * zl)} in the
 * block. xyz to xzy (once per run) packs and unpacks lines here; xzy to xyz (once per time step)
 * has no local passes of its own: the z FFT writes its results into the send buffer in block
 * order ({@link AxisFft#transformStridedInto}), and the y FFT that follows reads the receive
 * buffer directly ({@link AxisFft#transformColumnsFrom}).
 *
 * <p>The local steps run over the team's members (static schedule over lines); the alltoall
 * runs on the calling thread between them.
 */
final class SlabTranspose {

    private final Comm comm;
    private final Team team;
    private final int np;
    private final int nx;
    private final int ny;
    private final int nz;
    private final double[] send;
    private final double[] recv;

    SlabTranspose(Comm comm, Team team, int nx, int ny, int nz) {
        this.comm = comm;
        this.team = team;
        this.np = comm.size();
        this.nx = nx;
        this.ny = ny;
        this.nz = nz;
        int local = nx * ny * (nz / np);
        this.send = new double[2 * local];
        this.recv = new double[2 * local];
    }

    /** xyz (re, im) to xzy, written back into (re, im). */
    void xyzToXzy(double[] re, double[] im) {
        int nzl = nz / np;
        int nyl = ny / np;
        int block = 2 * nx * nyl * nzl;
        // Pack: x-line (y, zl) of block p = y / nyl at 2 nx (yl + nyl zl).
        team.parallelForRange(0, nzl * ny, Schedule.STATIC, (from, to) -> {
            for (int line = from; line < to; line++) {
                int zl = line / ny;
                int y = line % ny;
                int at = (y / nyl) * block + 2 * nx * (y % nyl + nyl * zl);
                System.arraycopy(re, nx * line, send, at, nx);
                System.arraycopy(im, nx * line, send, at + nx, nx);
            }
        });
        comm.alltoall(Buffer.of(send), Buffer.of(recv));
        // Unpack: block q holds z range q; x-line (yl, zl) of it goes to z = q nzl + zl of local y yl.
        team.parallelForRange(0, nyl * nz, Schedule.STATIC, (from, to) -> {
            for (int line = from; line < to; line++) {
                int yl = line / nz;
                int z = line % nz;
                int at = (z / nzl) * block + 2 * nx * (yl + nyl * (z % nzl));
                System.arraycopy(recv, at, re, nx * line, nx);
                System.arraycopy(recv, at + nx, im, nx * line, nx);
            }
        });
    }

    /**
     * The xzy-to-xyz transpose's send buffer: the z FFT writes into it directly
     * ({@link AxisFft#transformStridedInto} with blocks of nz/np rows), the x-line of (z, yl)
     * in block p = z / (nz/np) at {@code 2 * nx * (yl + ny/np * (z % (nz/np)))}.
     */
    double[] sendBuffer() {
        return send;
    }

    /**
     * The xzy-to-xyz exchange: one alltoall of the send buffer; returns the receive buffer, whose
     * block p holds y range p of this rank's z planes, the x-line of (yl, zl) at
     * {@code 2 * nx * (yl + ny/np * zl)} in the block ({@link AxisFft#transformColumnsFrom} reads it).
     */
    double[] exchangeToXyz() {
        comm.alltoall(Buffer.of(send), Buffer.of(recv));
        return recv;
    }
}
