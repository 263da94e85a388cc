package dev.tessera.bench.osu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Message sizes: parsing of {@code --sizes} and iteration scaling. A size spec is either
 * a range {@code MIN:MAX} (MIN, then doubling up to MAX; powers of two from 1 when MIN is
 * 0) or a comma list ({@code 8,1K,64K}); sizes take an optional binary suffix K, M or G
 * (1K = 1024 bytes), optionally followed by B or iB.
 */
public final class Sizes {

    /** Largest size accepted: 256 MiB (Java arrays are int-indexed and collectives need N x SIZE). */
    public static final long MAX = 256L << 20;

    /** Sizes up to this many bytes run the full iteration count. */
    static final long SCALE_FROM = 16 << 10;

    private Sizes() {
    }

    public static List<Integer> parse(String spec) {
        String s = spec.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty size list");
        }
        List<Integer> out = new ArrayList<>();
        if (s.contains(":")) {
            String[] p = s.split(":", -1);
            if (p.length != 2) {
                throw new IllegalArgumentException("bad size range '" + spec + "': expected MIN:MAX, e.g. 1:16M");
            }
            long min = parseOne(p[0]);
            long max = parseOne(p[1]);
            if (min > max) {
                throw new IllegalArgumentException("bad size range '" + spec + "': MIN is larger than MAX");
            }
            if (min == 0) {
                out.add(0);
                min = 1;
            }
            for (long v = min; v <= max; v *= 2) {
                out.add((int) v);
            }
        } else {
            for (String part : s.split(",")) {
                out.add((int) parseOne(part));
            }
        }
        return out;
    }

    /** One size with an optional K/M/G suffix. */
    public static long parseOne(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        if (t.endsWith("IB")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("B")) {
            t = t.substring(0, t.length() - 1);
        }
        long mult = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'K' -> mult = 1L << 10;
                case 'M' -> mult = 1L << 20;
                case 'G' -> mult = 1L << 30;
                default -> mult = 1;
            }
            if (mult > 1) {
                t = t.substring(0, t.length() - 1);
            }
        }
        long v;
        try {
            v = Long.parseLong(t) * mult;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad size '" + text.trim() + "': expected a number of bytes with an optional K, M or G suffix");
        }
        if (v < 0 || v > MAX) {
            throw new IllegalArgumentException("bad size '" + text.trim() + "': sizes go from 0 to 256M");
        }
        return v;
    }

    /** Operations per block for a size: {@code iters} up to 16 KiB, then fewer as the size grows (at least 2). */
    public static int itersFor(long size, int iters) {
        if (size <= SCALE_FROM) {
            return iters;
        }
        return (int) Math.max(Math.min(iters, 2), iters * SCALE_FROM / size);
    }

    /** Human-readable size: 512, 4K, 16M. */
    public static String format(long size) {
        if (size >= (1L << 20) && size % (1L << 20) == 0) {
            return (size >> 20) + "M";
        }
        if (size >= 1024 && size % 1024 == 0) {
            return (size >> 10) + "K";
        }
        return Long.toString(size);
    }
}
