package dev.tessera.bench.sweep;

import java.util.ArrayList;
import java.util.List;

/**
 * A hybrid layout: ranks x threads per rank.
 *
 * @param ranks   message-passing ranks
 * @param threads threads per rank
 */
public record Layout(int ranks, int threads) {

    public Layout {
        if (ranks < 1 || threads < 1) {
            throw new IllegalArgumentException("a layout needs at least 1 rank and 1 thread, got " + ranks + "x" + threads);
        }
    }

    /** Every layout that fills {@code cores} exactly (1 x cores ... cores x 1), fewest ranks first. */
    public static List<Layout> filling(int cores) {
        List<Layout> out = new ArrayList<>();
        for (int r = 1; r <= cores; r++) {
            if (cores % r == 0) {
                out.add(new Layout(r, cores / r));
            }
        }
        return out;
    }

    /** Parses "2x1" (ranks x threads). */
    public static Layout parse(String text) {
        String[] p = text.trim().toLowerCase(java.util.Locale.ROOT).split("x");
        try {
            if (p.length != 2) {
                throw new NumberFormatException();
            }
            return new Layout(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("layout '" + text + "' is not RANKSxTHREADS (for example 2x1)");
        }
    }

    public int cores() {
        return ranks * threads;
    }

    @Override
    public String toString() {
        return ranks + "x" + threads;
    }
}
