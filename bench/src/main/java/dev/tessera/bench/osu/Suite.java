package dev.tessera.bench.osu;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The benchmark suites of {@code tessera bench}, in the style of the OSU micro-benchmarks.
 * Each suite is measured the same way by the Tessera rank program ({@link OsuRank}) and by
 * the native one (bench/native/osu_mpi.c): timing blocks of {@code iters} operations, the
 * slowest rank's time per operation kept for every block.
 */
public enum Suite {
    LATENCY(Kind.PINGPONG, "ping-pong between ranks 0 and 1, half round trip"),
    MULTI_LAT(Kind.PINGPONG, "ping-pong between all pairs (r, r + N/2) at once, half round trip"),
    BW(Kind.WINDOW, "rank 0 streams windows of non-blocking sends to rank 1, one ack per window"),
    BIBW(Kind.WINDOW, "ranks 0 and 1 stream windows to each other at once"),
    MBW_MR(Kind.WINDOW, "all pairs (r, r + N/2) stream windows at once; aggregate bandwidth"),
    BARRIER(Kind.COLLECTIVE, "barrier"),
    BCAST(Kind.COLLECTIVE, "broadcast from rank 0"),
    REDUCE(Kind.COLLECTIVE, "sum of floats to rank 0"),
    ALLREDUCE(Kind.COLLECTIVE, "sum of floats to all ranks"),
    GATHER(Kind.COLLECTIVE, "gather of SIZE bytes per rank to rank 0"),
    SCATTER(Kind.COLLECTIVE, "scatter of SIZE bytes per rank from rank 0"),
    ALLGATHER(Kind.COLLECTIVE, "allgather of SIZE bytes per rank"),
    ALLTOALL(Kind.COLLECTIVE, "all-to-all of SIZE bytes per pair of ranks");

    /** How a suite is timed and reported. */
    public enum Kind { PINGPONG, WINDOW, COLLECTIVE }

    private final Kind kind;
    private final String description;

    Suite(Kind kind, String description) {
        this.kind = kind;
        this.description = description;
    }

    public Kind kind() {
        return kind;
    }

    public String description() {
        return description;
    }

    /** The name users type: lower case, e.g. {@code multi_lat}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** True when the suite reports bandwidth (MB/s, 10^6 bytes) rather than latency (us). */
    public boolean isBandwidth() {
        return kind == Kind.WINDOW;
    }

    /** True when the suite has no message size (barrier). */
    public boolean sizeless() {
        return this == BARRIER;
    }

    public String unit() {
        return isBandwidth() ? "MB/s" : "us";
    }

    /** Default sizes: 1 B .. 4 MiB for point-to-point, 4 B .. 1 MiB for collectives. */
    public String defaultSizes(boolean quick) {
        if (sizeless()) {
            return "0";
        }
        boolean p2p = kind != Kind.COLLECTIVE;
        if (quick) {
            return p2p ? "1,1K,64K" : "4,1K,64K";
        }
        return p2p ? "1:4M" : "4:1M";
    }

    /** Operations per timing block for small messages (scaled down for large ones). */
    public int defaultIters(boolean quick) {
        int iters = switch (kind) {
            case PINGPONG -> 2000;
            case WINDOW -> 40;
            case COLLECTIVE -> 500;
        };
        return quick ? Math.max(2, iters / 10) : iters;
    }

    /** Smallest rank count the suite runs with. */
    public int minRanks() {
        return this == BARRIER || kind == Kind.COLLECTIVE ? 1 : 2;
    }

    public static Suite parse(String name) {
        for (Suite s : values()) {
            if (s.cliName().equals(name.toLowerCase(Locale.ROOT).replace('-', '_'))) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown suite '" + name + "'; known: " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(Suite::cliName).collect(Collectors.joining(", "));
    }
}
