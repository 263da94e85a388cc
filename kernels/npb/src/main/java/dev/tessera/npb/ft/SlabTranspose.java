package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * The global transposes of FT's 1D (slab) layout, as NPB3.4-MPI/FT/ft.f does them
 * ({@code transpose_xy_z} and {@code transpose_x_yz}: local transpose, one alltoall,
 * local finish), over np ranks with np dividing ny and nz.
 *
 * <p>Layouts (flat, first index fastest, q = x + nx*y):
 * <ul>
 * <li>xyz: {@code x + nx*(y + ny*zl)}, rank r owns z in [r*nz/np, (r+1)*nz/np);
 * <li>zxy: {@code z + nz*(x + nx*yl)}, rank r owns y in [r*ny/np, (r+1)*ny/np).
 * </ul>
 * xyz to zxy: the local transpose writes {@code zl + nzl*q} (so that the block for
 * rank p, the q of p's y range, is contiguous); after the alltoall, block p holds
 * z-range p and each (x, yl) line of it is copied to its place in z. zxy to xyz (once
 * per time step) has no local passes of its own: the z FFT writes its results into the
 * send buffer in the order the alltoall sends them ({@link #sendBuffer}), and the y FFT
 * that follows reads the receive buffer directly ({@link #exchangeToXyz}); the two passes
 * over the 2 x 16 bytes of every local point that a local transpose and a local finish
 * would add are gone. The send and receive buffers interleave real and imaginary parts
 * so that one alltoall moves both.
 *
 * <p>The local steps run over the team's members (static schedule over tiles or lines);
 * the alltoall runs on the calling thread between them.
 */
final class SlabTranspose {

    private static final int TILE = 32;

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

    /** xyz (re, im) to zxy, written back into (re, im). */
    void xyzToZxy(double[] re, double[] im) {
        int nzl = nz / np;
        int nxny = nx * ny;
        int nxnyl = nx * (ny / np);
        transposeInterleaved(re, im, nxny, nzl, send);
        comm.alltoall(Buffer.of(send), Buffer.of(recv));
        // block p: (zl fastest, ql) for z in p's range -> re[p*nzl + zl + nz*ql]
        team.parallelForRange(0, nxnyl, Schedule.STATIC, (from, to) -> {
            for (int ql = from; ql < to; ql++) {
                for (int p = 0; p < np; p++) {
                    int src = 2 * (p * nzl * nxnyl + nzl * ql);
                    int dst = p * nzl + nz * ql;
                    for (int zl = 0; zl < nzl; zl++) {
                        re[dst + zl] = recv[src + 2 * zl];
                        im[dst + zl] = recv[src + 2 * zl + 1];
                    }
                }
            }
        });
    }

    /**
     * The zxy-to-xyz transpose's send buffer: the z FFT writes into it directly
     * ({@link AxisFft#transformLinesInto}), point (z, ql) of this rank's y range at
     * {@code 2 * (ql + nx * ny/np * z)}, so that block p (z range p) is contiguous.
     */
    double[] sendBuffer() {
        return send;
    }

    /**
     * The zxy-to-xyz exchange: one alltoall of the send buffer; returns the receive buffer, whose
     * block p holds y range p of this rank's z planes, point (ql, zl) at
     * {@code 2 * (p * nzl * nxnyl + nxnyl * zl + ql)} ({@link AxisFft#transformColumnsFrom} reads it).
     */
    double[] exchangeToXyz() {
        comm.alltoall(Buffer.of(send), Buffer.of(recv));
        return recv;
    }

    /** dst[2*(j + n2*i)] = re[i + n1*j], dst[... + 1] = im[...], for i < n1, j < n2; 32x32 tiles over the team. */
    private void transposeInterleaved(double[] re, double[] im, int n1, int n2, double[] dst) {
        int tiles1 = (n1 + TILE - 1) / TILE;
        int tiles2 = (n2 + TILE - 1) / TILE;
        team.parallelForRange(0, tiles1 * tiles2, Schedule.STATIC, (from, to) -> {
            for (int t = from; t < to; t++) {
                int i0 = (t / tiles2) * TILE;
                int i1 = Math.min(n1, i0 + TILE);
                int j0 = (t % tiles2) * TILE;
                int j1 = Math.min(n2, j0 + TILE);
                for (int i = i0; i < i1; i++) {
                    int out = 2 * n2 * i;
                    for (int j = j0; j < j1; j++) {
                        dst[out + 2 * j] = re[i + n1 * j];
                        dst[out + 2 * j + 1] = im[i + n1 * j];
                    }
                }
            }
        });
    }
}
