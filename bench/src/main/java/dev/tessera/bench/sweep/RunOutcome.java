package dev.tessera.bench.sweep;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of a program reported, read from its output: the program's own timing and
 * Mop/s where it prints them, else the wall-clock time of the whole run.
 *
 * <p>Understood forms, first match wins: a JSON line with {@code "seconds"} and {@code "mops"}
 * (the NPB and NPB-MZ kernels' {@code --json}); the NPB report ({@code Time in seconds =},
 * {@code Mop/s total =}, {@code Verification = SUCCESSFUL}); a line {@code time <s> s}
 * (Tessera's examples); a user's {@code --time-regex} with one group in seconds.
 *
 * @param seconds  the time the program reported, or the run's wall-clock time
 * @param mops     Mop/s total, or NaN when the program does not report it
 * @param verified true/false when the program said, null when it did not
 * @param timeFrom where {@link #seconds} came from: "program" or "wall clock"
 */
public record RunOutcome(double seconds, double mops, Boolean verified, String timeFrom) {

    private static final Pattern JSON_SECONDS = Pattern.compile("\"seconds\"\\s*:\\s*([0-9.eE+-]+)");
    private static final Pattern JSON_MOPS = Pattern.compile("\"mops\"\\s*:\\s*([0-9.eE+-]+)");
    private static final Pattern JSON_VERIFIED = Pattern.compile("\"verified\"\\s*:\\s*(true|false)");
    private static final Pattern NPB_TIME = Pattern.compile("(?m)^\\s*Time in seconds\\s*=\\s*([0-9.eE+-]+)");
    private static final Pattern NPB_MOPS = Pattern.compile("(?m)^\\s*Mop/s total\\s*=\\s*([0-9.eE+-]+)");
    private static final Pattern NPB_VERIFIED = Pattern.compile("(?m)^\\s*Verification\\s*=\\s*(\\w+)");
    private static final Pattern EXAMPLE_TIME = Pattern.compile("(?m)^\\s*time\\s+([0-9.eE+-]+) s\\b");
    private static final Pattern EXAMPLE_VERIFIED = Pattern.compile("(?m)^\\s*verification\\s+(\\w+)");

    /** Reads a run's output; {@code userTime} (may be null) is a pattern whose group 1 is seconds. */
    public static RunOutcome parse(String output, Pattern userTime, double wallSeconds) {
        Double t = null;
        if (userTime != null) {
            t = first(userTime, output);
        }
        if (t == null) {
            t = first(JSON_SECONDS, output);
        }
        if (t == null) {
            t = first(NPB_TIME, output);
        }
        if (t == null) {
            t = first(EXAMPLE_TIME, output);
        }
        Double mops = first(JSON_MOPS, output);
        if (mops == null) {
            mops = first(NPB_MOPS, output);
        }
        Boolean verified = null;
        for (Pattern p : new Pattern[] {JSON_VERIFIED, NPB_VERIFIED, EXAMPLE_VERIFIED}) {
            Matcher m = p.matcher(output);
            if (m.find()) {
                String v = m.group(1).toLowerCase(Locale.ROOT);
                verified = v.equals("true") || v.equals("successful");
                break;
            }
        }
        return new RunOutcome(t != null ? t : wallSeconds, mops != null ? mops : Double.NaN, verified,
                t != null ? "program" : "wall clock");
    }

    private static Double first(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            return null;
        }
        try {
            return Double.parseDouble(m.group(1));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
