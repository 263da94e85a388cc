package dev.tessera.npbmz;

/**
 * What one NPB-MZ run produced, the same on every rank (times and norms are combined over
 * ranks before it is built).
 *
 * @param name          benchmark name as the reference prints it ("SP-MZ")
 * @param problem       the problem run (iterations as run, which may differ from the class's)
 * @param ranks         ranks in the job ("Total processes")
 * @param threads       threads of all ranks together ("Total threads")
 * @param seconds       timed seconds, the maximum over ranks (the reference's tmax)
 * @param mops          Mop/s total, from the benchmark's operation count
 * @param verified      whether the reference's verification passed
 * @param verification  the verification lines (computed, reference, relative difference)
 * @param norms         the verification quantities summed over zones and ranks
 * @param imbalance     largest rank load over the mean rank load of the zone mapping
 * @param calculatedSpeedup the mapping's expected speedup over one thread (the reference's)
 * @param device        the communication device of the job
 * @param zoneThreads   whether threads went over zones (true) or inside each zone (false)
 */
public record MzResult(String name, MzProblem problem, int ranks, int threads, double seconds, double mops,
        boolean verified, String verification, double[] norms, double imbalance, double calculatedSpeedup,
        String device, boolean zoneThreads) {

    /** Mop/s per thread, as the report prints it. */
    public double mopsPerThread() {
        return threads > 0 ? mops / threads : mops / ranks;
    }
}
