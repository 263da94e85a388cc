package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Locale;
import java.util.Map;

/**
 * How a rank waits for a message: by polling ({@link #SPIN}: lowest latency while every rank
 * has a core of its own) or by sleeping after a short spin until the sender wakes it
 * ({@link #BLOCK}: a waiting rank gives its core to a rank that has work, which is what an
 * oversubscribed node, more ranks than cores, needs).
 *
 * <p>Chosen by {@code TESSERA_WAIT} (or the system property {@code tessera.wait}, which
 * wins): {@code spin}, {@code block}, or {@code auto} (the default), which blocks when the
 * node's ranks outnumber the cores this process may use ({@link Runtime#availableProcessors()}).
 */
public enum WaitMode {
    SPIN, BLOCK;

    /** Name of the environment variable that chooses the mode. */
    public static final String VARIABLE = "TESSERA_WAIT";

    /**
     * The mode asked for by {@code variables} and the system property, for a rank of a node
     * that runs {@code ranksOnNode} ranks.
     *
     * @throws TesseraException naming the rank and the value if it is not spin, block or auto
     */
    public static WaitMode resolve(Map<String, String> variables, int rank, int ranksOnNode) {
        String property = System.getProperty("tessera.wait");
        String value = property != null ? property : variables.get(VARIABLE);
        String source = property != null ? "-Dtessera.wait" : VARIABLE;
        return resolve(value, source, rank, ranksOnNode, Runtime.getRuntime().availableProcessors());
    }

    static WaitMode resolve(String value, String source, int rank, int ranksOnNode, int cores) {
        String v = value == null ? "auto" : value.strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "spin" -> SPIN;
            case "block" -> BLOCK;
            case "auto", "" -> ranksOnNode > cores ? BLOCK : SPIN;
            default -> throw new TesseraException(ErrorClass.ARG, "rank " + rank + ": " + source + "=" + value
                    + " is not a wait mode: use spin, block or auto");
        };
    }
}
