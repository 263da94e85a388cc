package dev.tessera.npb.mg;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * resid and psinv on one plane with {@code jdk.incubator.vector}'s {@link DoubleVector}, along
 * the contiguous index i1: the reference's own two-pass form (NPB3.4-MPI/MG/mg.f), line buffers
 * of the neighbour sums first, then the update from them, each pass lanewise over
 * {@link #SPECIES}'s lanes with a scalar tail. gfortran -O3 vectorises exactly these loops; C2
 * in JDK 25 vectorises none of the scalar forms (docs/npb.md, stop 44).
 *
 * <p>Bits: every lane does its point's arithmetic as {@link MgOperators}' scalar code does, the
 * same additions in the same association (left to right), separate multiplies and adds (the
 * Vector API's {@code mul} and {@code add} round each result, never fused), so the results are
 * the scalar code's, bit for bit; {@code MgVectorKernelsTest} compares every point.
 *
 * <p>Only {@link MgVector} refers to this class, and only when the module {@code
 * jdk.incubator.vector} is in the boot layer: without it this class is never loaded.
 */
final class MgVectorKernels {

    /** The widest species this CPU runs natively (8 lanes with AVX-512, 4 with AVX2). */
    static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;

    private MgVectorKernels() {
    }

    /** Lanes of {@link #SPECIES}. */
    static int lanes() {
        return SPECIES.length();
    }

    /**
     * resid (r = v - A u) on the interior lines of plane i3; {@code u1} and {@code u2} are line
     * buffers of at least m1 doubles, owned by the calling thread. {@code v} and {@code r} may
     * be the same array (each point reads v where it writes r, nothing else).
     */
    static void residPlane(double[] u, double[] v, double[] r, int i3, int m1, int m2, int plane, double a0,
            double a2, double a3, double[] u1, double[] u2) {
        for (int i2 = 1; i2 < m2 - 1; i2++) {
            residRow(u, v, r, (i3 * m2 + i2) * m1, m1, plane, a0, a2, a3, u1, u2);
        }
    }

    /** One x line of resid, starting at {@code c}: mg.f's two loops over i1. */
    static void residRow(double[] u, double[] v, double[] r, int c, int m1, int plane, double a0, double a2,
            double a3, double[] u1, double[] u2) {
        int s = c - m1;
        int n = c + m1;
        int b = c - plane;
        int t = c + plane;
        int sb = s - plane;
        int nb = n - plane;
        int st = s + plane;
        int nt = n + plane;
        int step = SPECIES.length();
        // u1(i1) = u(i1,i2-1,i3) + u(i1,i2+1,i3) + u(i1,i2,i3-1) + u(i1,i2,i3+1)
        // u2(i1) = u(i1,i2-1,i3-1) + u(i1,i2+1,i3-1) + u(i1,i2-1,i3+1) + u(i1,i2+1,i3+1), i1 = 0 .. m1-1
        int i = 0;
        for (int bound = SPECIES.loopBound(m1); i < bound; i += step) {
            DoubleVector.fromArray(SPECIES, u, s + i)
                    .add(DoubleVector.fromArray(SPECIES, u, n + i))
                    .add(DoubleVector.fromArray(SPECIES, u, b + i))
                    .add(DoubleVector.fromArray(SPECIES, u, t + i))
                    .intoArray(u1, i);
            DoubleVector.fromArray(SPECIES, u, sb + i)
                    .add(DoubleVector.fromArray(SPECIES, u, nb + i))
                    .add(DoubleVector.fromArray(SPECIES, u, st + i))
                    .add(DoubleVector.fromArray(SPECIES, u, nt + i))
                    .intoArray(u2, i);
        }
        for (; i < m1; i++) {
            u1[i] = u[s + i] + u[n + i] + u[b + i] + u[t + i];
            u2[i] = u[sb + i] + u[nb + i] + u[st + i] + u[nt + i];
        }
        // r = v - a0 u - a2 (u2(i1) + u1(i1-1) + u1(i1+1)) - a3 (u2(i1-1) + u2(i1+1)), i1 = 1 .. m1-2
        int i1 = 1;
        for (int end = m1 - 1 - step; i1 <= end; i1 += step) {
            DoubleVector inner = DoubleVector.fromArray(SPECIES, u2, i1)
                    .add(DoubleVector.fromArray(SPECIES, u1, i1 - 1))
                    .add(DoubleVector.fromArray(SPECIES, u1, i1 + 1));
            DoubleVector outer = DoubleVector.fromArray(SPECIES, u2, i1 - 1)
                    .add(DoubleVector.fromArray(SPECIES, u2, i1 + 1));
            DoubleVector.fromArray(SPECIES, v, c + i1)
                    .sub(DoubleVector.fromArray(SPECIES, u, c + i1).mul(a0))
                    .sub(inner.mul(a2))
                    .sub(outer.mul(a3))
                    .intoArray(r, c + i1);
        }
        for (; i1 < m1 - 1; i1++) {
            r[c + i1] = v[c + i1] - a0 * u[c + i1]
                    - a2 * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                    - a3 * (u2[i1 - 1] + u2[i1 + 1]);
        }
    }

    /**
     * psinv (u = u + C r) on the interior lines of plane i3; {@code r1} is a line buffer of at
     * least m1 doubles, owned by the calling thread.
     */
    static void psinvPlane(double[] r, double[] u, int i3, int m1, int m2, int plane, double c0, double c1,
            double c2, double[] r1) {
        for (int i2 = 1; i2 < m2 - 1; i2++) {
            psinvRow(r, u, (i3 * m2 + i2) * m1, m1, plane, c0, c1, c2, r1);
        }
    }

    /**
     * One x line of psinv, starting at {@code o}: mg.f's r1 buffer, then the update. mg.f's r2 is
     * used at i1 alone, so each vector forms it where it is needed instead of through a buffer
     * (the same four additions in the same order).
     */
    static void psinvRow(double[] r, double[] u, int o, int m1, int plane, double c0, double c1, double c2,
            double[] r1) {
        int s = o - m1;
        int n = o + m1;
        int b = o - plane;
        int t = o + plane;
        int sb = s - plane;
        int nb = n - plane;
        int st = s + plane;
        int nt = n + plane;
        int step = SPECIES.length();
        // r1(i1) = r(i1,i2-1,i3) + r(i1,i2+1,i3) + r(i1,i2,i3-1) + r(i1,i2,i3+1), i1 = 0 .. m1-1
        int i = 0;
        for (int bound = SPECIES.loopBound(m1); i < bound; i += step) {
            DoubleVector.fromArray(SPECIES, r, s + i)
                    .add(DoubleVector.fromArray(SPECIES, r, n + i))
                    .add(DoubleVector.fromArray(SPECIES, r, b + i))
                    .add(DoubleVector.fromArray(SPECIES, r, t + i))
                    .intoArray(r1, i);
        }
        for (; i < m1; i++) {
            r1[i] = r[s + i] + r[n + i] + r[b + i] + r[t + i];
        }
        // u = u + c0 r + c1 (r(i1-1) + r(i1+1) + r1(i1)) + c2 (r2(i1) + r1(i1-1) + r1(i1+1)), i1 = 1 .. m1-2
        int i1 = 1;
        for (int end = m1 - 1 - step; i1 <= end; i1 += step) {
            DoubleVector r2 = DoubleVector.fromArray(SPECIES, r, sb + i1)
                    .add(DoubleVector.fromArray(SPECIES, r, nb + i1))
                    .add(DoubleVector.fromArray(SPECIES, r, st + i1))
                    .add(DoubleVector.fromArray(SPECIES, r, nt + i1));
            DoubleVector near = DoubleVector.fromArray(SPECIES, r, o + i1 - 1)
                    .add(DoubleVector.fromArray(SPECIES, r, o + i1 + 1))
                    .add(DoubleVector.fromArray(SPECIES, r1, i1));
            DoubleVector far = r2
                    .add(DoubleVector.fromArray(SPECIES, r1, i1 - 1))
                    .add(DoubleVector.fromArray(SPECIES, r1, i1 + 1));
            DoubleVector.fromArray(SPECIES, u, o + i1)
                    .add(DoubleVector.fromArray(SPECIES, r, o + i1).mul(c0))
                    .add(near.mul(c1))
                    .add(far.mul(c2))
                    .intoArray(u, o + i1);
        }
        for (; i1 < m1 - 1; i1++) {
            double r2 = r[sb + i1] + r[nb + i1] + r[st + i1] + r[nt + i1];
            u[o + i1] = u[o + i1]
                    + c0 * r[o + i1]
                    + c1 * (r[o + i1 - 1] + r[o + i1 + 1] + r1[i1])
                    + c2 * (r2 + r1[i1 - 1] + r1[i1 + 1]);
        }
    }
}
