package dev.tessera.device;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hang report ({@code tessera run --hang-report AFTER}, or {@code -Dtessera.hangReport=SECONDS}
 * / {@code TESSERA_HANG_REPORT=SECONDS} for ranks started otherwise): every thread that waits
 * in a blocking call records which call it is (rank, call, communicator, peer and tag, as the
 * communicator layer names it through {@link #call}) while it waits. A watchdog thread prints
 * a line for each wait that has lasted AFTER, and when such a wait has still not ended
 * {@link #GRACE_NANOS grace} later (time for the other ranks of a deadlock to print theirs),
 * ends the job through the device's abort, naming the rank and the call. Off by default: then
 * a wait costs one static read.
 */
public final class BlockedCalls {

    /** Wait after the first report before the job is ended, at most 10 s (and at most AFTER). */
    static final long GRACE_NANOS = 10_000_000_000L;

    private static final long AFTER_NANOS = configured();
    private static final ThreadLocal<String> CALL = new ThreadLocal<>();
    private static final Map<Thread, Wait> WAITING = new ConcurrentHashMap<>();
    private static volatile Thread watchdog;
    private static volatile boolean ended;

    private BlockedCalls() {
    }

    /** One thread's wait. */
    public static final class Wait {
        final Device device;
        final String call;
        final long since = System.nanoTime();
        boolean reported;

        Wait(Device device, String call) {
            this.device = device;
            this.call = call;
        }
    }

    private static long configured() {
        String v = System.getProperty("tessera.hangReport", System.getenv("TESSERA_HANG_REPORT"));
        if (v == null || v.isBlank()) {
            return -1;
        }
        try {
            long seconds = Long.parseLong(v.trim());
            return seconds > 0 ? seconds * 1_000_000_000L : -1;
        } catch (NumberFormatException e) {
            System.err.println("tessera: ignoring hang report setting '" + v + "' (whole seconds expected)");
            return -1;
        }
    }

    /** True when hang reports are on. */
    public static boolean enabled() {
        return AFTER_NANOS > 0;
    }

    /** Names the call this thread is in (e.g. "rank 1: Comm.recv(source 0, tag 7) on world"). */
    public static void call(String description) {
        CALL.set(description);
    }

    /** A wait begins; null when reports are off. */
    public static Wait enter(Device device, DeviceRequest request) {
        if (AFTER_NANOS <= 0) {
            return null;
        }
        String call = CALL.get();
        if (call == null) {
            call = "rank " + device.rank() + ": a " + request.kind().name().toLowerCase(java.util.Locale.ROOT);
        }
        if (request instanceof ReceiveRequest r) {
            call += " [device: waiting for a message from rank " + (r.source == Device.ANY_SOURCE ? "any" : r.source)
                    + ", tag " + (r.tag == Device.ANY_TAG ? "any" : r.tag) + ", context " + r.context + "]";
        }
        return enter(device, call);
    }

    /** A wait in a call that polls rather than waiting for a request (probe); null when reports are off. */
    public static Wait enter(Device device, String call) {
        if (AFTER_NANOS <= 0) {
            return null;
        }
        Wait w = new Wait(device, call);
        WAITING.put(Thread.currentThread(), w);
        startWatchdog();
        return w;
    }

    /** The wait ended. */
    public static void exit(Wait w) {
        if (w != null) {
            WAITING.remove(Thread.currentThread(), w);
        }
    }

    private static synchronized void startWatchdog() {
        if (watchdog == null) {
            watchdog = Thread.ofPlatform().daemon().name("tessera-hang-report").start(BlockedCalls::watch);
        }
    }

    private static void watch() {
        long grace = Math.min(GRACE_NANOS, AFTER_NANOS);
        while (!ended) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Wait w : WAITING.values()) {
                long waited = now - w.since;
                if (!w.reported && waited >= AFTER_NANOS) {
                    w.reported = true;
                    System.err.println("tessera: hang report: " + w.call + ": waiting for " + waited / 1_000_000_000L + " s");
                    System.err.flush();
                } else if (w.reported && waited >= AFTER_NANOS + grace && !ended) {
                    ended = true;
                    String text = w.call + ": no progress for " + waited / 1_000_000_000L
                            + " s (hang report after " + AFTER_NANOS / 1_000_000_000L + " s); ending the job";
                    System.err.println("tessera: " + text);
                    System.err.flush();
                    w.device.abort(w.device.rank(), new TesseraException(ErrorClass.OTHER, text));
                    return;
                }
            }
        }
    }
}
