package dev.tessera.npbmz;

import dev.tessera.runtime.Tessera;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The printed forms of an NPB-MZ run: the banner and the final report in the layout of the
 * reference's print_results (NPB3.4-MZ-MPI/common/print_results.f), so that results line up
 * with the Fortran ones, and a one-line JSON object with stable field names for scripts.
 */
public final class MzReport {

    private MzReport() {
    }

    /** The banner the reference prints before the run (sp.f, format 1000-1004). */
    public static void printHeader(PrintStream out, String name, MzProblem p, int ranks, int totalThreads) {
        out.println();
        out.println();
        out.println(" NAS Parallel Benchmarks (NPB3.4-MZ Tessera, Java " + Runtime.version().feature()
                + ", message passing + threads) - " + name + " Benchmark");
        out.println();
        out.printf(Locale.ROOT, " Number of zones: %3d x %3d%n", p.xZones(), p.yZones());
        out.printf(Locale.ROOT, " Total mesh size: %5d x %5d x %3d%n", p.gx(), p.gy(), p.gz());
        out.printf(Locale.ROOT, " Iterations:      %3d    dt: %10.6f%n", p.iterations(), p.dt());
        out.printf(Locale.ROOT, " Number of active processes: %6d%n", ranks);
        out.println();
        out.printf(Locale.ROOT, " Total number of threads: %6d  (%5.1f threads/process)%n", totalThreads,
                (double) totalThreads / ranks);
    }

    /** The final report, as print_results prints it, plus the Tessera build and device instead of compile options. */
    public static void print(PrintStream out, MzResult r) {
        MzProblem p = r.problem();
        out.println();
        out.println();
        out.println(" " + r.name() + " Benchmark Completed.");
        out.printf(Locale.ROOT, " Class           = %12s%12s%n", "", String.valueOf(p.problemClass()));
        out.printf(Locale.ROOT, " Size            =  %8s%5dx%5dx%3d%n", "", p.gx(), p.gy(), p.gz());
        out.printf(Locale.ROOT, " Iterations      = %12s%12d%n", "", p.iterations());
        out.printf(Locale.ROOT, " Time in seconds = %12s%12.2f%n", "", r.seconds());
        out.printf(Locale.ROOT, " Total processes = %12s%12d%n", "", r.ranks());
        out.printf(Locale.ROOT, " Total threads   = %12s%12d%n", "", r.threads());
        out.printf(Locale.ROOT, " Mop/s total     = %12s%12.2f%n", "", r.mops());
        out.printf(Locale.ROOT, " Mop/s/thread    = %12s%12.2f%n", "", r.mopsPerThread());
        out.printf(Locale.ROOT, " Operation type  = %24s%n", "floating point");
        out.printf(Locale.ROOT, " Verification    = %12s%s%n", "", r.verified() ? "  SUCCESSFUL" : "UNSUCCESSFUL");
        out.printf(Locale.ROOT, " Version         = %12s%12s%n", "", "3.4");
        out.println();
        out.println(" Run options:");
        out.println("    Tessera      = " + Tessera.VERSION);
        out.println("    Java         = " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")");
        out.println("    Device       = " + r.device());
        out.println("    Threads      = " + (r.zoneThreads() ? "over zones (each zone on one thread)" : "inside zones"));
        out.println();
    }

    /** One line of JSON with the run's numbers; field names are stable. */
    public static String json(MzResult r) {
        MzProblem p = r.problem();
        return String.format(Locale.ROOT,
                "{\"name\":\"%s\",\"class\":\"%c\",\"size\":\"%dx%dx%d\",\"zones\":\"%dx%d\",\"iterations\":%d,"
                        + "\"np\":%d,\"threads\":%d,\"seconds\":%.6f,\"mops\":%.2f,\"mops_per_thread\":%.2f,"
                        + "\"verified\":%b,\"device\":\"%s\",\"zone_threads\":%b,\"imbalance\":%.6f,"
                        + "\"calculated_speedup\":%.4f,\"tessera\":\"%s\",\"java\":\"%s\"}",
                r.name(), p.problemClass(), p.gx(), p.gy(), p.gz(), p.xZones(), p.yZones(), p.iterations(),
                r.ranks(), r.threads(), r.seconds(), r.mops(), r.mopsPerThread(), r.verified(), r.device(),
                r.zoneThreads(), r.imbalance(), r.calculatedSpeedup(), Tessera.VERSION,
                System.getProperty("java.version"));
    }
}
