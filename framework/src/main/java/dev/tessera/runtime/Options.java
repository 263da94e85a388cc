package dev.tessera.runtime;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.ThreadLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Tessera's options for one rank, from the command line (removed from the program's
 * arguments) and the environment, the command line winning:
 * <ul>
 *   <li>{@code --threads N} / {@code TESSERA_THREADS}: threads per rank;</li>
 *   <li>{@code --thread-level L} / {@code TESSERA_THREAD_LEVEL}: FUNNELED (default),
 *       SERIALIZED or MULTIPLE, unless the program asks for a level in code.</li>
 * </ul>
 */
public final class Options {

    private final Integer threads;
    private final ThreadLevel threadLevel;
    private final List<String> remaining;

    private Options(Integer threads, ThreadLevel threadLevel, List<String> remaining) {
        this.threads = threads;
        this.threadLevel = threadLevel;
        this.remaining = List.copyOf(remaining);
    }

    /** Parses Tessera's options out of {@code args}; other arguments are kept in order. */
    public static Options parse(String[] args, Map<String, String> environment) {
        Integer threads = parseThreads(environment.get("TESSERA_THREADS"), "TESSERA_THREADS");
        ThreadLevel level = parseLevel(environment.get("TESSERA_THREAD_LEVEL"), "TESSERA_THREAD_LEVEL");
        List<String> rest = new ArrayList<>();
        for (int i = 0; args != null && i < args.length; i++) {
            String a = args[i];
            if (a.equals("--threads") || a.equals("--thread-level")) {
                if (i + 1 >= args.length) {
                    throw new TesseraException(ErrorClass.ARG, "Tessera.init: option " + a + " needs a value");
                }
                String v = args[++i];
                if (a.equals("--threads")) {
                    threads = parseThreads(v, a);
                } else {
                    level = parseLevel(v, a);
                }
            } else if (a.startsWith("--threads=")) {
                threads = parseThreads(a.substring("--threads=".length()), "--threads");
            } else if (a.startsWith("--thread-level=")) {
                level = parseLevel(a.substring("--thread-level=".length()), "--thread-level");
            } else {
                rest.add(a);
            }
        }
        return new Options(threads, level, rest);
    }

    private static Integer parseThreads(String value, String source) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new TesseraException(ErrorClass.ARG, "Tessera.init: " + source + " must be a positive integer, got '" + value + "'");
        }
    }

    private static ThreadLevel parseLevel(String value, String source) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return ThreadLevel.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new TesseraException(ErrorClass.ARG, "Tessera.init: " + source + " must be one of FUNNELED, SERIALIZED, MULTIPLE; got '" + value + "'");
        }
    }

    /** Threads per rank: the option, else the node's cores shared among its ranks (at least 1). */
    public int threads(int ranksOnNode) {
        if (threads != null) {
            return threads;
        }
        return Math.max(1, java.lang.Runtime.getRuntime().availableProcessors() / Math.max(1, ranksOnNode));
    }

    /** The thread level asked for on the command line or in the environment, or null. */
    public ThreadLevel threadLevel() {
        return threadLevel;
    }

    public List<String> remaining() {
        return remaining;
    }
}
