package dev.tessera.grid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Assigns weighted zones to ranks and threads to ranks, as the NPB multi-zone codes do.
 *
 * <p>Zones: largest first, each to the least-loaded rank (greedy bin packing, the LPT
 * rule). Among ranks whose load is within {@code tolerance} (relative) of the least
 * load, a rank that already holds a neighbour of the zone is preferred, so that zones
 * sharing a boundary tend to share a rank and their exchange stays local.
 *
 * <p>Threads: every rank gets one, then each further thread goes to the rank with the
 * largest load per thread, so threads follow load.
 */
public final class ZoneBalancer {

    /** A zone: its weight (work, e.g. grid points) and the ids of the zones it shares a boundary with. */
    public record Zone(int id, double weight, int[] neighbours) {
        public Zone {
            if (weight < 0 || Double.isNaN(weight)) {
                throw new IllegalArgumentException("zone " + id + " has invalid weight " + weight);
            }
            neighbours = neighbours == null ? new int[0] : neighbours.clone();
        }

        public Zone(int id, double weight) {
            this(id, weight, new int[0]);
        }
    }

    /**
     * The outcome: the rank of every zone (indexed by position in the input list), each
     * rank's load and threads, and the expected imbalance.
     */
    public record Assignment(int[] rankOfZone, double[] load, int[] threads) {

        /** Zones (input positions) assigned to {@code rank}. */
        public List<Integer> zonesOf(int rank) {
            List<Integer> out = new ArrayList<>();
            for (int z = 0; z < rankOfZone.length; z++) {
                if (rankOfZone[z] == rank) {
                    out.add(z);
                }
            }
            return out;
        }

        /** Largest rank load over the mean rank load (1.0 is perfect). */
        public double imbalance() {
            double total = Arrays.stream(load).sum();
            double max = Arrays.stream(load).max().orElse(0);
            return total == 0 ? 1.0 : max / (total / load.length);
        }

        /** Largest load per thread over the mean load per thread: the expected slowdown against perfect balance. */
        public double threadImbalance() {
            double total = Arrays.stream(load).sum();
            int totalThreads = Arrays.stream(threads).sum();
            double max = 0;
            for (int r = 0; r < load.length; r++) {
                max = Math.max(max, load[r] / threads[r]);
            }
            return total == 0 ? 1.0 : max / (total / totalThreads);
        }
    }

    private final double tolerance;

    /** A balancer preferring neighbours among ranks within {@code tolerance} (e.g. 0.05) of the least load. */
    public ZoneBalancer(double tolerance) {
        if (tolerance < 0) {
            throw new IllegalArgumentException("tolerance must be >= 0");
        }
        this.tolerance = tolerance;
    }

    public ZoneBalancer() {
        this(0.0);
    }

    /** Assigns {@code zones} to {@code ranks} ranks and {@code totalThreads} threads (at least one per rank). */
    public Assignment assign(List<Zone> zones, int ranks, int totalThreads) {
        Objects.requireNonNull(zones, "zones");
        if (ranks < 1) {
            throw new IllegalArgumentException("need at least one rank, got " + ranks);
        }
        if (totalThreads < ranks) {
            throw new IllegalArgumentException(totalThreads + " threads cannot give each of " + ranks + " ranks one");
        }
        int[] rankOfZone = new int[zones.size()];
        Arrays.fill(rankOfZone, -1);
        int[] rankOfId = indexById(zones);
        double[] load = new double[ranks];
        Integer[] order = new Integer[zones.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(z -> -zones.get(z).weight()).thenComparingInt(z -> z));
        for (int z : order) {
            int target = choose(zones.get(z), load, rankOfZone, rankOfId, zones);
            rankOfZone[z] = target;
            load[target] += zones.get(z).weight();
        }
        return new Assignment(rankOfZone, load, spreadThreads(load, totalThreads));
    }

    private int[] indexById(List<Zone> zones) {
        int max = zones.stream().mapToInt(Zone::id).max().orElse(-1);
        int[] index = new int[max + 1];
        Arrays.fill(index, -1);
        for (int i = 0; i < zones.size(); i++) {
            int id = zones.get(i).id();
            if (id < 0 || index[id] != -1) {
                throw new IllegalArgumentException("zone ids must be distinct and >= 0, got " + id + " twice or negative");
            }
            index[id] = i;
        }
        return index;
    }

    private int choose(Zone zone, double[] load, int[] rankOfZone, int[] indexOfId, List<Zone> zones) {
        int least = 0;
        for (int r = 1; r < load.length; r++) {
            if (load[r] < load[least]) {
                least = r;
            }
        }
        double limit = load[least] + tolerance * Math.max(load[least], zone.weight());
        for (int n : zone.neighbours()) {
            if (n >= 0 && n < indexOfId.length && indexOfId[n] >= 0) {
                int r = rankOfZone[indexOfId[n]];
                if (r >= 0 && load[r] <= limit) {
                    return r;
                }
            }
        }
        return least;
    }

    static int[] spreadThreads(double[] load, int totalThreads) {
        int[] threads = new int[load.length];
        Arrays.fill(threads, 1);
        for (int t = load.length; t < totalThreads; t++) {
            int busiest = 0;
            for (int r = 1; r < load.length; r++) {
                if (load[r] / threads[r] > load[busiest] / threads[busiest]) {
                    busiest = r;
                }
            }
            threads[busiest]++;
        }
        return threads;
    }
}
