package dev.tessera.runtime;

import dev.tessera.runtime.internal.*;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.Device;
import dev.tessera.internal.CommAccess;
import dev.tessera.task.Team;
import java.util.List;

/**
 * One rank of a Tessera job: its place in the job, the world communicator, its options,
 * and (through {@link #close}) the end of its participation. Obtained from
 * {@link Tessera#init}; close it when the rank is done, best with try-with-resources.
 */
public final class Session implements AutoCloseable {

    private final Device device;
    private final Comm world;
    private final RankBootstrap bootstrap;
    private final Options options;
    private final boolean ownsDevice;
    private volatile boolean closed;
    private Team team;

    Session(Device device, Comm world, RankBootstrap bootstrap, Options options, boolean ownsDevice) {
        this.device = device;
        this.world = world;
        this.bootstrap = bootstrap;
        this.options = options;
        this.ownsDevice = ownsDevice;
    }

    /** This rank in the job. */
    public int rank() {
        return world.rank();
    }

    /** Number of ranks in the job. */
    public int size() {
        return world.size();
    }

    /** This rank's index among the ranks of its node. */
    public int localRank() {
        return bootstrap.localRank();
    }

    /** Number of ranks on this rank's node. */
    public int localSize() {
        return bootstrap.localSize();
    }

    /** Index of this rank's node in the job. */
    public int nodeId() {
        return bootstrap.nodeId();
    }

    /** The communicator of all ranks. */
    public Comm world() {
        return world;
    }

    /** The thread level granted. */
    public ThreadLevel threadLevel() {
        return world.threadLevel();
    }

    /** Name of the device this rank communicates through. */
    public String deviceName() {
        return device.name();
    }

    /** Threads this rank should use for its own work (--threads, TESSERA_THREADS, else cores / ranks per node). */
    public int threads() {
        return options.threads(bootstrap.localSize());
    }

    /**
     * The rank's team of {@link #threads()} threads (created on first use, closed with the
     * runtime). Member 0 is the calling thread, so under FUNNELED communication belongs in
     * {@code ctx.master(...)} or outside parallel constructs.
     */
    public synchronized Team team() {
        if (closed) {
            throw new IllegalStateException("rank " + rank() + ": Session.team() after close()");
        }
        if (team == null) {
            team = Team.create(threads());
        }
        return team;
    }

    /** The program arguments left after Tessera's own options were removed. */
    public List<String> args() {
        return options.remaining();
    }

    /** Wall-clock seconds since an arbitrary origin, for timing (MPI_Wtime). */
    public static double wtime() {
        return System.nanoTime() * 1e-9;
    }

    /**
     * Stops the whole job, as MPI_Abort does: every rank's pending or next call fails with an
     * error naming this rank, {@code code} and {@code reason}, on every device. A rank that is
     * its own process then exits with status {@code code} (non-zero codes only; 0 becomes 1);
     * a rank that is a thread of one JVM (smp) throws the abort error so its body unwinds.
     *
     * @return never returns normally
     */
    public RuntimeException abort(int code, String reason) {
        int status = code == 0 ? 1 : code;
        dev.tessera.TesseraException cause = new dev.tessera.TesseraException(dev.tessera.ErrorClass.OTHER,
                "rank " + rank() + " aborted the job (code " + status + "): " + reason);
        boolean process = RankBootstrap.current() == null;
        if (process) {
            // said before the device is told: a library's abort (MPI_Abort) may end the process at once
            System.out.flush();
            System.err.println("tessera: " + cause.getMessage());
            System.err.flush();
        }
        dev.tessera.runtime.internal.ProcessBootstrap.noteFailure(device, cause);   // the job's failure file (process ranks)
        device.abort(rank(), cause);
        if (process) {
            java.lang.Runtime.getRuntime().halt(status);
        }
        throw cause;
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Ends this rank's participation and releases its resources. Not a barrier: a rank
     * that leaves by an exception must not wait for ranks that may be blocked waiting for
     * it (its failure has to reach them instead); devices flush what was sent before closing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        dev.tessera.runtime.internal.ProcessBootstrap.sessionClosed(device);
        synchronized (this) {
            if (team != null) {
                team.close();
            }
        }
        try {
            CommAccess.get().releaseRank(world);
        } finally {
            if (ownsDevice) {
                device.close();
            }
        }
    }
}
