package dev.tessera.runtime;

import dev.tessera.runtime.internal.*;
import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.Device;
import dev.tessera.internal.CommAccess;
import dev.tessera.device.DeviceProviders;
import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;

/**
 * Entry point of a Tessera program.
 *
 * <pre>{@code
 * try (Session rt = Tessera.init(args)) {
 *     Comm world = rt.world();
 *     double sum = world.allreduce(local, Op.SUM);
 * }
 * }</pre>
 *
 * <p>Under {@code bin/tessera run --device smp} the launcher has already connected the
 * rank to its job; a process started by a launcher (tessera, mpirun, srun) connects
 * through {@link ProcessBootstrap}; a program started on its own runs as a job of one
 * rank (like an MPI singleton).
 */
public final class Tessera {

    /** The version of this build. */
    public static final String VERSION = Version.VERSION;

    /**
     * Devices of launched ranks that have been initialised: a second {@link #init} in the same
     * rank (thread rank under smp, process rank otherwise) is an error, open or closed, as a
     * second MPI_Init is. Weak, so finished in-process jobs leave nothing behind. A program
     * started on its own gets a fresh one-rank job from each init.
     */
    private static final java.util.Set<Device> INITIALISED =
            java.util.Collections.synchronizedSet(java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));

    private Tessera() {
    }

    /** Initialises this rank with the default thread level (FUNNELED, or the --thread-level option). */
    public static Session init(String[] args) {
        return init(args, null);
    }

    /** Initialises this rank with a thread level. */
    public static Session init(String[] args, ThreadLevel requested) {
        Options options = Options.parse(args, System.getenv());
        ThreadLevel level = requested != null ? requested
                : options.threadLevel() != null ? options.threadLevel() : ThreadLevel.FUNNELED;
        RankBootstrap bootstrap = RankBootstrap.current();
        boolean ownsDevice = false;
        Device launched = bootstrap != null ? bootstrap.device() : ProcessBootstrap.currentDevice();
        if (launched != null && !INITIALISED.add(launched)) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + launched.rank() + ": Tessera.init called a second time "
                    + "in this rank (device " + launched.name() + "): a rank initialises once, as with MPI_Init; "
                    + "keep the first Session and close it when the rank is done");
        }
        if (bootstrap == null) {
            // A process rank's device lives until the process exits (see ProcessBootstrap): closing it
            // here would tell the peers this rank left cleanly even when it is leaving by an exception.
            bootstrap = ProcessBootstrap.fromEnvironment(System.getenv());
            if (bootstrap != null) {
                Affinity.bindFromEnvironment(System.getenv(), bootstrap.localRank(), bootstrap.localSize());
                INITIALISED.add(bootstrap.device());
            }
        }
        if (bootstrap == null) {
            bootstrap = new RankBootstrap(DeviceProviders.require("smp").createInProcess(1).device(0), 0, 1, 0, "singleton");
        }
        Device device = bootstrap.device();
        if (dev.tessera.device.BlockedCalls.enabled()) {
            // a rank that computes before its first call is named by the hang report too
            dev.tessera.device.BlockedCalls.call(device, "rank " + device.rank() + ": Tessera.init");
        }
        Comm world = CommAccess.get().createWorld(device, level, CollectiveTuning.fromEnvironment(),
                bootstrap.nodeName());
        return new Session(device, world, bootstrap, options, ownsDevice);
    }

    /**
     * Tells every rank of the job this thread's rank belongs to that it failed with
     * {@code cause}: every rank blocked in a call, or entering one, gets an error naming this
     * rank and the cause. Does not end this rank (see {@link Session#abort} for that).
     * Does nothing outside a launched rank.
     */
    public static void abortJob(Throwable cause) {
        RankBootstrap thread = RankBootstrap.current();
        Device device = thread != null ? thread.device() : ProcessBootstrap.currentDevice();
        if (device != null) {
            ProcessBootstrap.noteFailure(device, cause);   // the job's failure file names the origin (process ranks)
            device.abort(device.rank(), cause);
        }
    }
}
