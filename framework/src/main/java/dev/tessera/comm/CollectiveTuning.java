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

    private final Map<String, String> forced = new TreeMap<>();
    /** No entry: read on every collective call without taking the lock (the common case). */
    private volatile boolean none = true;

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
        if (algorithm == null || algorithm.isBlank() || algorithm.equalsIgnoreCase("auto")) {
            forced.remove(key);
        } else {
            forced.put(key, algorithm.toLowerCase(Locale.ROOT));
        }
        none = forced.isEmpty();
        return this;
    }

    /** The forced algorithm for a collective, or null to let the decision table choose. */
    public String forced(String collective) {
        if (none) {
            return null;
        }
        synchronized (this) {
            return forced.get(collective);
        }
    }

    @Override
    public synchronized String toString() {
        return forced.isEmpty() ? "auto" : forced.toString();
    }
}
