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
 *
 * <p>Where every rank is ({@link #printWhere}): with the first report, each rank of this
 * process that is not waiting in a call is named too, with its last call and when it
 * returned (a rank computing or spinning while the others wait for it), and
 * {@link #onFirstReport} tells the ranks of the other processes to do the same (Tessera's
 * launcher: a file in the job's directory that every rank watches). {@code tessera run
 * --time-limit} turns the tracking on without the reports ({@code -Dtessera.trackCalls=true}
 * or {@code TESSERA_TRACK_CALLS=1}) so that it can print where each rank is before it ends
 * the job.
 */
public final class BlockedCalls {

    /** Wait after the first report before the job is ended, at most 10 s (and at most AFTER). */
    static final long GRACE_NANOS = 10_000_000_000L;

    private static final long AFTER_NANOS = configured();
    private static final boolean TRACKING = AFTER_NANOS > 0 || Boolean.getBoolean("tessera.trackCalls")
            || "1".equals(System.getenv("TESSERA_TRACK_CALLS"));
    private static final ThreadLocal<String> CALL = new ThreadLocal<>();
    private static final Map<Thread, Wait> WAITING = new ConcurrentHashMap<>();
    /** Each rank's (device's) latest call and when it was made or returned, for ranks not waiting. */
    private static final Map<Device, Activity> LAST = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private static volatile Runnable firstReportHook;
    private static volatile boolean firstReported;

    /** A rank's latest call, and the time it was made or its wait ended. */
    private record Activity(String call, long nanos, long millis) {
    }
    private static volatile Thread watchdog;
    private static volatile boolean ended;

    private BlockedCalls() {
    }

    /** One thread's wait. */
    public static final class Wait {
        final Device device;
        final String call;
        /** What the call waits for now (a nonblocking collective's current round), or null. */
        final java.util.function.Supplier<String> detail;
        final long since = System.nanoTime();
        boolean reported;

        Wait(Device device, String call, java.util.function.Supplier<String> detail) {
            this.device = device;
            this.call = call;
            this.detail = detail;
        }

        String describe() {
            String d = detail == null ? null : detail.get();
            return d == null ? call : call + " " + d;
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

    /** True when calls are tracked (hang reports, or a time limit that reports where ranks are). */
    public static boolean enabled() {
        return TRACKING;
    }

    /** Names the call this thread is in (e.g. "rank 1: Comm.recv(source 0, tag 7) on world"). */
    public static void call(String description) {
        CALL.set(description);
    }

    /** Names the call this thread is in, and records it as {@code device}'s rank's latest call. */
    public static void call(Device device, String description) {
        CALL.set(description);
        LAST.put(device, new Activity(description, System.nanoTime(), System.currentTimeMillis()));
    }

    /** Run once, when this process prints its first hang report (tells the other processes' ranks to say where they are). */
    public static void onFirstReport(Runnable hook) {
        firstReportHook = hook;
    }

    /** A wait begins; null when reports are off. */
    public static Wait enter(Device device, DeviceRequest request) {
        if (!TRACKING) {
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

    /**
     * A wait inside the call this thread named with {@link #call}, on something other than a
     * request ({@code waitingFor}, e.g. a flag in shared memory); null when reports are off.
     */
    public static Wait enterCurrent(Device device, String waitingFor) {
        if (!TRACKING) {
            return null;
        }
        String call = CALL.get();
        if (call == null) {
            call = "rank " + device.rank() + ": a collective";
        }
        return enter(device, call + " [device: " + waitingFor + "]");
    }

    /** A wait in a call that polls rather than waiting for a request (probe); null when reports are off. */
    public static Wait enter(Device device, String call) {
        return enter(device, call, null);
    }

    /**
     * A wait in a call that advances in steps (a nonblocking collective waited for):
     * {@code detail} says what it waits for at the moment of a report; null when reports are off.
     */
    public static Wait enter(Device device, String call, java.util.function.Supplier<String> detail) {
        if (!TRACKING) {
            return null;
        }
        Wait w = new Wait(device, call, detail);
        WAITING.put(Thread.currentThread(), w);
        if (AFTER_NANOS > 0) {
            startWatchdog();
        }
        return w;
    }

    /** The wait ended. */
    public static void exit(Wait w) {
        if (w != null) {
            WAITING.remove(Thread.currentThread(), w);
            Activity a = LAST.get(w.device);
            LAST.put(w.device, new Activity(a != null ? a.call() : w.call, System.nanoTime(), System.currentTimeMillis()));
        }
    }

    /** Prints where each rank of this process is ({@link #printWhere}), unless this process has already done so. */
    public static void answerWhereRequest() {
        synchronized (BlockedCalls.class) {
            if (firstReported) {
                return;
            }
            firstReported = true;
        }
        printWhere();
    }

    /**
     * Prints where each rank of this process is: each wait (call, peer, tag, for how long),
     * and each rank that has made calls but waits in none ("not in a Tessera call for N s",
     * with its last call and when it returned). Nothing when tracking is off.
     */
    public static synchronized void printWhere() {
        if (!TRACKING) {
            return;
        }
        long now = System.nanoTime();
        java.util.Set<Device> waiting = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        StringBuilder out = new StringBuilder();
        for (Wait w : WAITING.values()) {
            waiting.add(w.device);
            out.append("tessera: hang report: ").append(w.describe()).append(": waiting for ")
                    .append((now - w.since) / 1_000_000_000L).append(" s\n");
            w.reported = true;
        }
        java.util.List<Map.Entry<Device, Activity>> idle;
        synchronized (LAST) {
            idle = new java.util.ArrayList<>(LAST.entrySet());
        }
        idle.sort(java.util.Comparator.comparingInt(e -> e.getKey().rank()));
        for (Map.Entry<Device, Activity> e : idle) {
            if (waiting.contains(e.getKey())) {
                continue;
            }
            Activity a = e.getValue();
            String last = a.call().replaceFirst("^rank \\d+: ", "");
            out.append("tessera: hang report: rank ").append(e.getKey().rank()).append(": not in a Tessera call for ")
                    .append((now - a.nanos()) / 1_000_000_000L).append(" s (last call: ").append(last)
                    .append(", returned at ").append(java.time.format.DateTimeFormatter.ISO_LOCAL_TIME.format(
                            java.time.LocalTime.ofInstant(java.time.Instant.ofEpochMilli(a.millis()), java.time.ZoneId.systemDefault())
                                    .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)))
                    .append(")\n");
        }
        System.out.flush();
        System.err.print(out);
        System.err.flush();
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
                    boolean first;
                    synchronized (BlockedCalls.class) {
                        first = !firstReported;
                        firstReported = true;
                    }
                    if (first) {
                        // the first report says where every rank is: those of this process here,
                        // the others' through the hook
                        printWhere();
                        Runnable hook = firstReportHook;
                        if (hook != null) {
                            hook.run();
                        }
                    } else {
                        w.reported = true;
                        System.err.println("tessera: hang report: " + w.describe() + ": waiting for " + waited / 1_000_000_000L + " s");
                        System.err.flush();
                    }
                } else if (w.reported && waited >= AFTER_NANOS + grace && !ended) {
                    ended = true;
                    String text = w.describe() + ": no progress for " + waited / 1_000_000_000L
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
