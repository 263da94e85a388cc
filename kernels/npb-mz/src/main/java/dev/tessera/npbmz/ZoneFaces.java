package dev.tessera.npbmz;

import java.util.Objects;

/**
 * The boundary faces of a zone whose solution is stored as the references store u(5, nxmax,
 * ny, nz): component m of point (i, j, k) at {@code 5 * ((k * ny + j) * nxmax + i) + m}. This
 * is exch_qbc.f's copy_x_face / copy_y_face, shared by the BT-MZ, SP-MZ and LU-MZ zones.
 *
 * <p>Packing takes the first or last interior plane (west: i = 1, east: i = nx-2, south:
 * j = 1, north: j = ny-2); unpacking writes the boundary plane (west: i = 0, east: i = nx-1,
 * south: j = 0, north: j = ny-1). Only the interior points of the plane travel (1 .. nz-2 in
 * k and 1 .. ny-2 or 1 .. nx-2 across), 5 components per point, then the point across, then
 * k: the reference's qbc(5, ny-2, nz-2).
 */
public final class ZoneFaces {

    private ZoneFaces() {
    }

    /** The number of doubles a face of an nx x ny x nz zone carries. */
    public static int length(Face face, int nx, int ny, int nz) {
        return switch (Objects.requireNonNull(face, "face")) {
            case WEST, EAST -> 5 * (ny - 2) * (nz - 2);
            case SOUTH, NORTH -> 5 * (nx - 2) * (nz - 2);
        };
    }

    /**
     * Copies {@code face} of the solution {@code u} into {@code buf[off ..)} ({@code pack}) or
     * back from it into the face's boundary plane. {@code zone} names the zone in the error
     * for a buffer too short.
     */
    public static void copy(String zone, Face face, double[] u, int nx, int ny, int nz, int nxmax, double[] buf,
            int off, boolean pack) {
        int length = length(face, nx, ny, nz);
        Objects.requireNonNull(buf, "face buffer");
        if (off < 0 || off > buf.length - length) {
            throw new IllegalArgumentException(zone + " " + (pack ? "packFace" : "unpackFace") + "(" + face
                    + "): face buffer of " + buf.length + " doubles has no room for " + length + " at offset " + off);
        }
        switch (face) {
            case WEST -> copyX(pack ? 1 : 0, u, ny, nz, nxmax, buf, off, pack);
            case EAST -> copyX(pack ? nx - 2 : nx - 1, u, ny, nz, nxmax, buf, off, pack);
            case SOUTH -> copyY(pack ? 1 : 0, u, nx, ny, nz, nxmax, buf, off, pack);
            case NORTH -> copyY(pack ? ny - 2 : ny - 1, u, nx, ny, nz, nxmax, buf, off, pack);
        }
    }

    /** The plane x = i, interior j and k, in (m, j, k) order. */
    private static void copyX(int i, double[] u, int ny, int nz, int nxmax, double[] buf, int off, boolean pack) {
        int b = off;
        for (int k = 1; k < nz - 1; k++) {
            for (int j = 1; j < ny - 1; j++) {
                int q = 5 * ((k * ny + j) * nxmax + i);
                if (pack) {
                    System.arraycopy(u, q, buf, b, 5);
                } else {
                    System.arraycopy(buf, b, u, q, 5);
                }
                b += 5;
            }
        }
    }

    /** The plane y = j, interior i and k, in (m, i, k) order: one run of 5 (nx - 2) doubles per k. */
    private static void copyY(int j, double[] u, int nx, int ny, int nz, int nxmax, double[] buf, int off,
            boolean pack) {
        int len = 5 * (nx - 2);
        int b = off;
        for (int k = 1; k < nz - 1; k++) {
            int q = 5 * ((k * ny + j) * nxmax + 1);
            if (pack) {
                System.arraycopy(u, q, buf, b, len);
            } else {
                System.arraycopy(buf, b, u, q, len);
            }
            b += len;
        }
    }
}
