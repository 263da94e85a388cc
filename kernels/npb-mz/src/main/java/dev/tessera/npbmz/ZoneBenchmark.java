package dev.tessera.npbmz;

/** One NPB-MZ benchmark (BT-MZ, SP-MZ or LU-MZ): its classes, its zone solver and its verification. */
public interface ZoneBenchmark {

    /** Name as the reference prints it: "BT-MZ", "SP-MZ", "LU-MZ". */
    String name();

    /** The problem of class {@code c}; IllegalArgumentException naming the valid classes otherwise. */
    MzProblem problem(char c);

    /** Whether zone sizes grow by the reference's ratio (BT-MZ) or are equal (SP-MZ, LU-MZ). */
    boolean unevenZones();

    /**
     * Ratio of the largest to the smallest zone width in x and in y, as the reference's
     * setparams.c writes it ({@code ratio}): 1 for equal zones; for uneven zones (BT-MZ)
     * 3.0 in class S and 4.5 in every other class. The driver's zone_setup reads it.
     */
    default double zoneRatio(MzProblem problem) {
        return !unevenZones() ? 1.0 : problem.problemClass() == 'S' ? 3.0 : 4.5;
    }

    /** A solver for one zone of {@code nx x ny x nz} points. */
    ZoneSolver newZone(MzProblem problem, int nx, int ny, int nz);

    /** Compares the zone-summed norms with the reference values at the reference's tolerance. */
    Verification verify(MzProblem problem, double[] norms);

    /** Total Mop/s for {@code seconds} of timed run (the reference's operation count formula). */
    double mops(MzProblem problem, double seconds);

    /** Result of a verification: whether it passed, and the lines the reference prints (computed, reference, difference). */
    record Verification(boolean verified, String detail) {
    }
}
