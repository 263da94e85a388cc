package dev.tessera.npb.ft;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;

/**
 * The global transposes of FT's 1D (slab) layout (NPB3.4-MPI/FT/ft.f {@code transpose_xy_z}
 * and {@code transpose_x_yz}: one all-to-all exchange between local passes), over np ranks with
 * np dividing ny and nz.
 *
 * <p>Layouts (flat, first index fastest):
 * <ul>
 * <li>xyz: {@code x + nx*(y + ny*zl)}, rank r owns z in [r*nz/np, (r+1)*nz/np);
 * <li>xzy: {@code x + nx*(z + nz*yl)}, rank r owns y in [r*ny/np, (r+1)*ny/np).
 * </ul>
 * The reference's second layout is zxy (z fastest), which makes its transposes turn every
 * point around; here x stays fastest in both, so the transposes move whole x-lines (nx
 * contiguous doubles) and the z FFT on the xzy grid is a strided one, whose gathers and
 * scatters copy runs of points as the x and y FFTs' do. A block of the exchange (between the
 * z owner and the y owner) holds one x-line per local z of the z owner and local y of the y
 * owner, the nx real parts then the nx imaginary parts, in the order the FFT before the exchange
 * makes them: at {@code 2 * nx * (zl + nzl * yl)} going to xzy, {@code 2 * nx * (yl + nyl * zl)}
 * coming back.
 *
 * <p>Neither transpose has local passes of its own: the FFT before the exchange writes its
 * results into the send buffer in block order ({@link AxisFft#transformStridedInto}: the y FFT
 * going from xyz to xzy, the z FFT coming back), and the FFT after it reads the blocks where they
 * are ({@link AxisFft#transformColumnsFrom}: the z FFT, then the y FFT).
 *
 * <p>The exchange is an alltoallv whose own block is empty: a rank's own block stays in the
 * send buffer, where the FFT after the exchange reads it, so it is never copied (an alltoall
 * copies it from the send to the receive buffer: at 2 ranks, class A, 32 MiB per transpose,
 * half of what a rank copies in it). It runs on the calling thread between the team's passes.
 */
final class SlabTranspose {

    private final Comm comm;
    private final int me;
    private final double[] send;
    private final double[] recv;
    /** alltoallv counts and displacements (doubles), the same on both sides: every block but the own one. */
    private final int[] counts;
    private final int[] displs;

    SlabTranspose(Comm comm, int nx, int ny, int nz) {
        this.comm = comm;
        this.me = comm.rank();
        int np = comm.size();
        int local = nx * ny * (nz / np);
        this.send = new double[2 * local];
        this.recv = new double[2 * local];
        int block = 2 * local / np;
        this.counts = new int[np];
        this.displs = new int[np];
        for (int p = 0; p < np; p++) {
            counts[p] = p == me ? 0 : block;
            displs[p] = p * block;
        }
    }

    /**
     * The send buffer, in np blocks of {@code 2 * local / np} doubles, block p for rank p: the
     * FFT before the exchange writes into it ({@link AxisFft#transformStridedInto} with blocks of
     * ny/np rows going to xzy, nz/np rows coming back). Block {@link #ownBlock} stays here.
     */
    double[] sendBuffer() {
        return send;
    }

    /** This rank's block index: its block is read from the send buffer, not the receive buffer. */
    int ownBlock() {
        return me;
    }

    /**
     * Sends every block of the send buffer but the own one to its rank and receives theirs;
     * returns the receive buffer, block p from rank p (its own block is left as it was).
     */
    double[] exchange() {
        comm.alltoallv(Buffer.of(send), counts, displs, Buffer.of(recv), counts, displs);
        return recv;
    }
}
