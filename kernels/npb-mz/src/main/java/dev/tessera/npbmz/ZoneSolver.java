package dev.tessera.npbmz;

import dev.tessera.task.Team;

/**
 * The solver of one zone (BT, SP or LU applied to a zone's own nx x ny x nz grid), as the
 * multi-zone driver sees it. The driver owns zones, their mapping to ranks, the boundary
 * exchange between zones and the timing; the solver owns its arrays and their layout.
 *
 * <p>Boundary exchange: before each step the driver asks every zone for the values it gives
 * to the neighbour across each face ({@link #packFace}) and hands every zone the values its
 * neighbours gave ({@link #unpackFace}), exactly as the reference's exch_qbc.f copies
 * qbc faces (solution u, 5 components, interior points of the face only).
 */
public interface ZoneSolver {

    int nx();

    int ny();

    int nz();

    /** Sets the initial solution and the forcing terms (reference: initialize + exact_rhs, or setbv/setiv/erhs for LU). */
    void initialize();

    /** Advances this zone by one time step (BT/SP: adi; LU: one SSOR iteration), its loops spread over {@code team}. */
    void step(Team team);

    /** Number of doubles {@link #packFace} writes for {@code face}. */
    int faceLength(Face face);

    /** Copies the values this zone gives to its neighbour across {@code face} into {@code buf[off ..)}. */
    void packFace(Face face, double[] buf, int off);

    /** Stores the values received from the neighbour across {@code face} into this zone's boundary points. */
    void unpackFace(Face face, double[] buf, int off);

    /**
     * This zone's contribution to the verification quantities, summed over zones (and ranks) by
     * the driver, in the order the benchmark's {@link ZoneBenchmark#verify} expects (BT/SP: the
     * 5 residual rms of rhs_norm then the 5 error rms of error_norm; LU: rsdnm 5, errnm 5, frc 1).
     */
    double[] verificationNorms(Team team);
}
