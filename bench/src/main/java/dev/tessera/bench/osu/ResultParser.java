package dev.tessera.bench.osu;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the lines that the rank programs (OsuRank, bench/native/osu_mpi.c) print on rank 0:
 * {@code TB start SIZE ITERS} and {@code TB result SIZE ITERS BYTES_PER_OP T1 ... Tn}.
 * Other lines are not ours ({@link #isProtocol} tells them apart).
 */
public final class ResultParser {

    private final List<Series.Point> points = new ArrayList<>();

    /** Called for every protocol line with the size a "start" line announces, or -1. */
    public int accept(String line) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 3 && f[1].equals("start")) {
            return Integer.parseInt(f[2]);
        }
        if (f.length >= 6 && f[1].equals("result")) {
            double[] t = new double[f.length - 5];
            for (int i = 0; i < t.length; i++) {
                t[i] = Double.parseDouble(f[5 + i]);
            }
            points.add(new Series.Point(Integer.parseInt(f[2]), Integer.parseInt(f[3]), Long.parseLong(f[4]), Stats.of(t)));
            return -1;
        }
        throw new IllegalArgumentException("malformed result line: " + line);
    }

    public static boolean isProtocol(String line) {
        return line.startsWith("TB ");
    }

    public List<Series.Point> points() {
        return List.copyOf(points);
    }
}
