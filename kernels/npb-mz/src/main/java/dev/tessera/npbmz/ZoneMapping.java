package dev.tessera.npbmz;

import dev.tessera.grid.ZoneBalancer;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which rank solves which zone, and with how many threads: the reference's map_zones
 * (NPB3.4-MZ-MPI/SP-MZ/setup_mpi.f) done by {@link ZoneBalancer}.
 *
 * <p>Zones are weighted by their grid points and placed largest first on the least-loaded
 * rank; among ranks tied for the least load ({@link #NEIGHBOUR_TOLERANCE} 0), one that already
 * holds a neighbour of the zone is preferred, so that neighbouring zones tend to share a rank
 * and their boundary exchange stays a copy. With equal zones (SP-MZ, LU-MZ) ties are the rule,
 * so the preference works there; with BT-MZ's uneven zones balance comes first, as in the
 * reference, which only swaps in a zone within 5% of the size of the largest unplaced one. A
 * looser tolerance costs balance: 5% gives BT-MZ class A on 2 ranks an imbalance of 1.024
 * against the reference's 1.010 (0 gives 1.0096, the reference's mapping loads exactly).
 *
 * <p>Threads: with load balancing of threads on (the reference's NPB_MZ_BLOAD, on by default)
 * and more threads than ranks in the whole job, the job's threads are redistributed so that
 * each rank's share follows its load; otherwise every rank keeps the threads it was started
 * with. The expected speedup over one thread ("Calculated speedup" in the reference) is the
 * total work over the largest work per thread of any rank.
 */
public final class ZoneMapping {

    /** Relative load within which a rank holding a neighbour is preferred: ties only. */
    public static final double NEIGHBOUR_TOLERANCE = 0.0;

    private final ZoneLayout layout;
    private final int[] rankOfZone;
    private final double[] load;
    private final int[] threads;
    private final double balancerImbalance;

    private ZoneMapping(ZoneLayout layout, int[] rankOfZone, double[] load, int[] threads, double balancerImbalance) {
        this.layout = layout;
        this.rankOfZone = rankOfZone;
        this.load = load;
        this.threads = threads;
        this.balancerImbalance = balancerImbalance;
    }

    /**
     * Maps the zones of {@code layout} to {@code ranks} ranks. {@code threadsOfRank[r]} is the
     * number of threads rank r was started with; with {@code balanceThreads} their sum is
     * redistributed in proportion to load (when it exceeds the number of ranks).
     */
    public static ZoneMapping map(ZoneLayout layout, int ranks, int[] threadsOfRank, boolean balanceThreads) {
        if (threadsOfRank.length != ranks) {
            throw new IllegalArgumentException("map_zones: " + threadsOfRank.length + " thread counts for " + ranks + " ranks");
        }
        int totalThreads = Arrays.stream(threadsOfRank).sum();
        ZoneBalancer.Assignment a = new ZoneBalancer(NEIGHBOUR_TOLERANCE).assign(zones(layout), ranks,
                Math.max(totalThreads, ranks));
        int[] threads = balanceThreads && totalThreads > ranks ? a.threads() : threadsOfRank.clone();
        return new ZoneMapping(layout, a.rankOfZone(), a.load(), threads, a.imbalance());
    }

    /** The zones as the balancer sees them: weight = grid points, neighbours = the four across the faces. */
    static List<ZoneBalancer.Zone> zones(ZoneLayout layout) {
        List<ZoneBalancer.Zone> zones = new ArrayList<>(layout.zones());
        for (int z = 0; z < layout.zones(); z++) {
            int zone = z;
            int[] nb = Arrays.stream(Face.values()).mapToInt(f -> layout.neighbour(zone, f)).distinct()
                    .filter(n -> n != zone).toArray();
            zones.add(new ZoneBalancer.Zone(zone, layout.points(zone), nb));
        }
        return zones;
    }

    public ZoneLayout layout() {
        return layout;
    }

    public int ranks() {
        return load.length;
    }

    public int rankOf(int zone) {
        return rankOfZone[zone];
    }

    /** Zones of {@code rank}, ascending. */
    public int[] zonesOf(int rank) {
        return java.util.stream.IntStream.range(0, rankOfZone.length).filter(z -> rankOfZone[z] == rank).toArray();
    }

    /** Grid points of the zones of {@code rank}. */
    public double load(int rank) {
        return load[rank];
    }

    public int threads(int rank) {
        return threads[rank];
    }

    public int totalThreads() {
        return Arrays.stream(threads).sum();
    }

    /** Largest rank load over the mean rank load, as the balancer computed it (1.0 is perfect). */
    public double imbalance() {
        return balancerImbalance;
    }

    /** Total work over the largest work per thread of any rank: the reference's "Calculated speedup". */
    public double calculatedSpeedup() {
        double total = Arrays.stream(load).sum();
        double max = 0;
        for (int r = 0; r < load.length; r++) {
            max = Math.max(max, load[r] / threads[r]);
        }
        return max == 0 ? 1.0 : total / max;
    }

    /**
     * Prints the mapping as the reference does: the table of ranks and zones when
     * {@code verbose} (NPB_VERBOSE > 0 in the reference), then always the calculated speedup,
     * followed by the load imbalance.
     */
    public void print(PrintStream out, boolean verbose) {
        if (verbose) {
            out.println();
            out.println(" Zone-process mapping:");
            out.println("  proc  nzones  zone_size nthreads size_per_thread");
            int imx = 0;
            int imn = 0;
            for (int r = 0; r < ranks(); r++) {
                int[] zs = zonesOf(r);
                out.printf(Locale.ROOT, "%6d  %5d  %9.0f.  %5d   %9.0f.%n", r, zs.length, load[r], threads[r],
                        load[r] / threads[r]);
                for (int z : zs) {
                    out.printf(Locale.ROOT, "   zone  %5d  %8.0f.%n", z + 1, layout.points(z));
                }
                if (load[r] / threads[r] > load[imx] / threads[imx]) {
                    imx = r;
                }
                if (load[r] / threads[r] < load[imn] / threads[imn]) {
                    imn = r;
                }
            }
            out.println();
            printExtreme(out, "Max", imx);
            printExtreme(out, "Min", imn);
        }
        out.println();
        out.printf(Locale.ROOT, " Calculated speedup = %9.2f%n", calculatedSpeedup());
        out.printf(Locale.ROOT, " Load imbalance     = %9.4f  (largest rank load / mean rank load)%n", imbalance());
        out.println();
    }

    private void printExtreme(PrintStream out, String label, int r) {
        out.printf(Locale.ROOT, " %s: proc=%6d nzones=%5d size=%9.0f. nthreads=%5d%n", label, r, zonesOf(r).length,
                load[r], threads[r]);
    }
}
