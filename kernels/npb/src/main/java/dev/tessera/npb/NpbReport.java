package dev.tessera.npb;

import java.util.Locale;

/**
 * The end-of-run report, laid out column for column as NPB 3.4's {@code print_results}
 * ({@code NPB3.4-MPI/common/print_results.f}) prints it, so that scripts that read the
 * reference's output read ours; plus one extra line (threads per process) that the
 * MPI-only reference has no use for, and a JSON line for tools.
 *
 * <p>The size line follows the reference's three forms: EP prints 2^(m+1) in a 15-wide
 * field, the grid kernels (MG, FT) print {@code n1xn2xn3} in 4-wide fields, the others
 * one integer in a 12-wide field. IS, whose reference is written in C and prints with
 * {@code c_print_results}, is printed in the same (Fortran) layout as the others so that
 * one parser reads all five.
 */
public final class NpbReport {

    /** The NPB version whose problem classes, verification values and operation counts these kernels use (setparams.c: VERSION). */
    public static final String NPB_VERSION = "3.4";

    private NpbReport() {
    }

    /** Where and how the run happened: what the reference prints as its compile options. */
    public record RunInfo(int processes, int threadsPerProcess, String device, String javaVersion, String jvmFlags,
            String tesseraVersion, String buildDate) {
    }

    /** The report as the reference prints it, starting with its two blank lines. */
    public static String text(KernelResult r, RunInfo run) {
        StringBuilder b = new StringBuilder();
        b.append("\n\n");
        b.append(' ').append(r.name()).append(" Benchmark Completed.\n");
        line(b, " Class           = ", String.format(Locale.ROOT, "%12s%12s", "", r.problemClass()));
        b.append(sizeLine(r.name(), r.size())).append('\n');
        line(b, " Iterations      = ", String.format(Locale.ROOT, "%12s%12d", "", r.iterations()));
        line(b, " Time in seconds = ", String.format(Locale.ROOT, "%12s%12.2f", "", r.seconds()));
        line(b, " Total processes = ", String.format(Locale.ROOT, "%12s%12d", "", run.processes()));
        line(b, " Active procs    = ", String.format(Locale.ROOT, "%12s%12d", "", run.processes()));
        line(b, " Threads/process = ", String.format(Locale.ROOT, "%12s%12d", "", run.threadsPerProcess()));
        line(b, " Mop/s total     = ", String.format(Locale.ROOT, "%12s%12.2f", "", r.mops()));
        line(b, " Mop/s/process   = ", String.format(Locale.ROOT, "%12s%12.2f", "",
                r.mops() / (float) run.processes()));
        line(b, " Operation type  = ", String.format(Locale.ROOT, "%24s", r.operationType()));
        line(b, " Verification    = ", String.format(Locale.ROOT, "%12s%s", "", r.verified() ? "  SUCCESSFUL" : "UNSUCCESSFUL"));
        line(b, " Version         = ", String.format(Locale.ROOT, "%12s%12s", "", NPB_VERSION));
        line(b, " Compile date    = ", String.format(Locale.ROOT, "%12s%12s", "", run.buildDate()));
        b.append("\n Compile options:\n");
        b.append("    JAVAC        = javac --release 25 (Tessera ").append(run.tesseraVersion()).append(")\n");
        b.append("    JVM          = ").append(run.javaVersion()).append('\n');
        b.append("    JVM FLAGS    = ").append(run.jvmFlags()).append('\n');
        b.append("    DEVICE       = ").append(run.device()).append('\n');
        b.append("    RAND         = randdp\n");
        if (!r.warmUp().isEmpty()) {
            // Not a reference line: the untimed work before the timer, which a JVM needs more of than the reference.
            b.append("    WARM-UP      = ").append(r.warmUp()).append('\n');
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String label, String value) {
        b.append(label).append(value).append('\n');
    }

    /** The reference's size line: EP's 15-wide count, a grid's n1xn2xn3, or one 12-wide integer. */
    static String sizeLine(String name, String size) {
        String[] dims = size.split("x");
        if (dims.length == 3) {
            return String.format(Locale.ROOT, " Size            =  %9s%4dx%4dx%4d", "",
                    Integer.parseInt(dims[0]), Integer.parseInt(dims[1]), Integer.parseInt(dims[2]));
        }
        if (name.equals("EP")) {
            return String.format(Locale.ROOT, " Size            = %9s%15s", "", size);
        }
        return String.format(Locale.ROOT, " Size            = %12s%12s", "", size);
    }

    /**
     * One JSON object on one line, for tools (the bench command parses it): field names are
     * stable; {@code seconds} is the timed wall-clock time (maximum over ranks), {@code mops}
     * the total Mop/s from the reference's operation count.
     */
    public static String json(KernelResult r, RunInfo run) {
        return String.format(Locale.ROOT,
                "{\"name\":%s,\"class\":\"%c\",\"size\":%s,\"iterations\":%d,\"np\":%d,\"threads\":%d,"
                        + "\"device\":%s,\"seconds\":%s,\"mops\":%s,\"mops_per_process\":%s,\"operation_type\":%s,"
                        + "\"verified\":%b,\"npb_version\":\"%s\",\"tessera_version\":%s,\"java\":%s,\"warm_up\":%s}",
                quote(r.name()), r.problemClass(), quote(r.size()), r.iterations(), run.processes(),
                run.threadsPerProcess(), quote(run.device()), number(r.seconds()), number(r.mops()),
                number(r.mops() / run.processes()), quote(r.operationType().strip()), r.verified(), NPB_VERSION,
                quote(run.tesseraVersion()), quote(run.javaVersion()), quote(r.warmUp()));
    }

    private static String number(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
