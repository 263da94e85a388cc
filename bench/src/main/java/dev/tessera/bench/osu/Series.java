package dev.tessera.bench.osu;

import java.util.List;

/**
 * One implementation's results for one suite on one device: a point per size.
 *
 * @param impl   "tessera" or "native" (Open MPI)
 * @param device the Tessera device, or for native runs the Open MPI transport (vader, tcp, default)
 */
public record Series(Suite suite, String impl, String device, int ranks, List<Point> points) {

    /**
     * One size: the per-block times (seconds per operation) and what one operation moves.
     * Reported values are in the suite's unit: microseconds, or MB/s (10^6 bytes per second)
     * computed from the time, so a bandwidth's p90 and p99 are the slow tail like a latency's.
     */
    public record Point(int size, int iters, long bytesPerOp, Stats time) {

        public double value(double seconds) {
            return bytesPerOp > 0 ? bytesPerOp / seconds / 1e6 : seconds * 1e6;
        }

        public double p50() {
            return value(time.p50());
        }

        public double p90() {
            return value(time.p90());
        }

        public double p99() {
            return value(time.p99());
        }

        /** Best block: the minimum time, i.e. the maximum bandwidth. */
        public double best() {
            return value(time.min());
        }

        public double mean() {
            return value(time.mean());
        }
    }

    /**
     * Per size, the point of the run with the lowest median time among repeated runs of the
     * same suite (noisy machines: hypervisor steal, vCPU placement; take the best of several).
     */
    public static Series bestOf(List<Series> runs) {
        Series first = runs.get(0);
        List<Point> best = new java.util.ArrayList<>();
        for (Point p : first.points()) {
            Point pick = p;
            for (Series r : runs) {
                Point q = r.at(p.size());
                if (q != null && q.time().p50() < pick.time().p50()) {
                    pick = q;
                }
            }
            best.add(pick);
        }
        return new Series(first.suite(), first.impl(), first.device(), first.ranks(), List.copyOf(best));
    }

    public String label() {
        return impl + " " + device;
    }

    /** The point for a size, or null. */
    public Point at(int size) {
        for (Point p : points) {
            if (p.size() == size) {
                return p;
            }
        }
        return null;
    }
}
