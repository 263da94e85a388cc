package dev.tessera.runtime.internal;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records how this JVM is being ended, for the shutdown hooks of ranks: the status passed to
 * {@code System.exit} (or 128 + the signal number when a signal ends it) and the rank of the
 * thread that called it. Java gives a shutdown hook neither, but since JDK 21 every
 * {@code Runtime.exit} (signals included) is logged at DEBUG to the system logger
 * {@code java.lang.Runtime} by the exiting thread, before the hooks run; this class listens
 * to that logger (through java.util.logging, the default backend) and keeps the record to
 * itself. When the logger is not java.util.logging's, nothing is recorded and the status
 * reads as unknown (-1): a normal end of main (no {@code System.exit}) is unknown too.
 */
public final class ExitWatch {

    private static final Logger RUNTIME = Logger.getLogger("java.lang.Runtime"); // strong reference: j.u.l loggers are weak
    private static volatile int status = -1;
    private static volatile int rank = -1;
    private static volatile boolean installed;

    private ExitWatch() {
    }

    /** Starts listening (idempotent). */
    public static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        try {
            RUNTIME.setLevel(Level.FINE);
            RUNTIME.setUseParentHandlers(false);
            RUNTIME.addHandler(new Handler() {
                @Override
                public void publish(LogRecord record) {
                    Throwable t = record.getThrown();
                    String text = t == null ? null : t.getMessage();
                    if (text != null && text.startsWith("Runtime.exit(") && text.endsWith(")")) {
                        try {
                            status = Integer.parseInt(text.substring("Runtime.exit(".length(), text.length() - 1));
                        } catch (NumberFormatException ignored) {
                            return;
                        }
                        RankBootstrap b = RankBootstrap.current();
                        rank = b == null ? -1 : b.device().rank();
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
        } catch (RuntimeException e) {
            // a security policy or another logging backend: the status stays unknown
        }
    }

    /** The status this JVM is exiting with: System.exit's argument, 128 + signal, or -1 when unknown. */
    public static int status() {
        return status;
    }

    /** Whether the JVM is ending because of a signal (SIGTERM, SIGINT, SIGHUP: status 128 + n). */
    public static boolean bySignal() {
        return status > 128 && status < 128 + 65;
    }

    /** The rank (smp: of the calling thread) that called System.exit, or -1 when unknown or not a rank thread. */
    public static int exitingRank() {
        return rank;
    }

    /** "status N" or "an unknown status" for messages. */
    public static String describe() {
        int s = status;
        return s < 0 ? "an unknown status" : bySignal() ? "status " + s + " (signal " + (s - 128) + ")" : "status " + s;
    }
}
