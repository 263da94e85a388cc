package dev.tessera.task;

/**
 * How a loop's iterations are divided among a team's members, as OpenMP's schedule
 * clause: {@link #STATIC} (one contiguous block per member, the default and the only
 * deterministic one for reductions), {@link #staticChunk} (chunks dealt round-robin),
 * {@link #dynamic} (chunks taken from a shared counter as members become free) and
 * {@link #guided} (shrinking chunks: half the remaining work divided by the team size,
 * never below a minimum).
 */
public record Schedule(Kind kind, int chunk) {

    /** The schedule kinds. */
    public enum Kind { STATIC, STATIC_CHUNK, DYNAMIC, GUIDED }

    /** One contiguous block per member. */
    public static final Schedule STATIC = new Schedule(Kind.STATIC, 0);

    public Schedule {
        if (kind == null) {
            throw new IllegalArgumentException("schedule kind is null");
        }
        if (kind != Kind.STATIC && chunk < 1) {
            throw new IllegalArgumentException(kind + " schedule needs a chunk size >= 1, got " + chunk);
        }
    }

    public static Schedule staticChunk(int chunk) {
        return new Schedule(Kind.STATIC_CHUNK, chunk);
    }

    public static Schedule dynamic(int chunk) {
        return new Schedule(Kind.DYNAMIC, chunk);
    }

    public static Schedule guided(int minChunk) {
        return new Schedule(Kind.GUIDED, minChunk);
    }
}
