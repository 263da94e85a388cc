package dev.tessera.comm;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which algorithm each collective uses. By default the decision tables in the
 * algorithm classes choose by message size and rank count; an entry here forces one
 * algorithm for one collective, so tests exercise every algorithm and users can tune.
 *
 * <p>Sources, later ones winning: system properties {@code tessera.coll.<collective>},
 * environment variables {@code TESSERA_COLL_<COLLECTIVE>}, and {@link #force} in code.
 * Example: {@code TESSERA_COLL_ALLREDUCE=ring}.
 */
public final class CollectiveTuning {

    /**
     * The forced algorithms (every entry but {@code check}): an immutable hashed map, replaced
     * as a whole by {@link #force} (copy on write), so that {@link #forced}, read several times
     * in every collective call, takes no lock and no ordered-tree walk; empty (the common case)
     * it is not even looked into.
     */
    private volatile Map<String, String> algorithms = Map.of();
    /** The {@code check} entry (the agreement check's mode, {@link CollectiveCheck}), or null: read on every call. */
    private volatile String check;
    /** {@link #toString} of the current entries, in name order. */
    private volatile String text = "auto";

    private static final String CHECK = "check";

    /** No forced algorithms. */
    public CollectiveTuning() {
    }

    /** Reads forced algorithms from system properties and the environment. */
    public static CollectiveTuning fromEnvironment() {
        CollectiveTuning t = new CollectiveTuning();
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("tessera.coll.")) {
                t.force(key.substring("tessera.coll.".length()), System.getProperty(key));
            }
        }
        for (Map.Entry<String, String> e : System.getenv().entrySet()) {
            if (e.getKey().startsWith("TESSERA_COLL_")) {
                t.force(e.getKey().substring("TESSERA_COLL_".length()), e.getValue());
            }
        }
        return t;
    }

    /** Forces {@code algorithm} for {@code collective} (names are case-insensitive); null clears. */
    public synchronized CollectiveTuning force(String collective, String algorithm) {
        String key = collective.toLowerCase(Locale.ROOT);
        Map<String, String> next = new TreeMap<>(algorithms);
        if (check != null) {
            next.put(CHECK, check);
        }
        if (algorithm == null || algorithm.isBlank() || algorithm.equalsIgnoreCase("auto")) {
            next.remove(key);
        } else {
            next.put(key, algorithm.toLowerCase(Locale.ROOT));
        }
        text = next.isEmpty() ? "auto" : next.toString();
        check = next.remove(CHECK);
        algorithms = Map.copyOf(next);   // hashed (a String caches its hash)
        return this;
    }

    /** The forced algorithm for a collective, or null to let the decision table choose. */
    public String forced(String collective) {
        Map<String, String> a = algorithms;
        String v = a.isEmpty() ? null : a.get(collective);
        return v != null || !CHECK.equals(collective) ? v : check;
    }

    /**
     * The agreement check's forced mode ({@code forced("check")}), or null: what every
     * collective call reads, without a look-up. With a lock and an ordered map (before stop 65)
     * TESSERA_COLL_CHECK=on, the default's own mode, made 2-rank 8-byte bcasts 1.20-1.32x
     * slower than no setting, and TESSERA_COLL_CHECK=off slower than the default
     * (docs/performance.md, stop 65).
     */
    String checkMode() {
        return check;
    }

    @Override
    public String toString() {
        return text;
    }
}
