package dev.tessera.comm;

import dev.tessera.device.Device;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Per-rank state shared by all of a rank's communicators: the device, the thread level
 * and the thread that initialised the rank, the next free context id, the collective
 * tuning, and the name of the rank's node.
 */
final class RankEnvironment {

    final Device device;
    final ThreadLevel threadLevel;
    final Thread initThread;
    final CollectiveTuning tuning;
    /** Name of this rank's node (host name, or TESSERA_NODE): ranks with equal names share memory. */
    final String nodeName;

    /** Serializes communicator creation: context ids are agreed by an allreduce per creation. */
    final ReentrantLock contextLock = new ReentrantLock();
    /** Next context id this rank has not used; communicators take two (p2p, collective). */
    private int nextContext;

    RankEnvironment(Device device, ThreadLevel threadLevel, Thread initThread, int firstFreeContext,
                    CollectiveTuning tuning, String nodeName) {
        this.nodeName = nodeName;
        this.device = device;
        this.threadLevel = threadLevel;
        this.initThread = initThread;
        this.nextContext = firstFreeContext;
        this.tuning = tuning;
    }

    int nextContext() {
        return nextContext;
    }

    void contextTaken(int context) {
        nextContext = Math.max(nextContext, context + 2);
    }

    /** Communicators on which a collective call left its agreement check to be completed later. */
    private final java.util.Set<Comm> deferredChecks = java.util.concurrent.ConcurrentHashMap.newKeySet();

    void checksDeferredOn(Comm comm) {
        deferredChecks.add(comm);
    }

    void checksDone(Comm comm) {
        deferredChecks.remove(comm);
    }

    /**
     * Completes every deferred agreement check of the rank (its close): a mismatch in the last
     * collective calls ends the job with its error here at the latest. Skipped when the job
     * has already failed: that failure is the one to report, and waiting could hang.
     */
    void verifyDeferredChecks() {
        if (deferredChecks.isEmpty()) {
            return;
        }
        try {
            device.checkHealthy();
        } catch (RuntimeException failed) {
            return;
        }
        for (Comm comm : deferredChecks) {
            comm.verifyPendingCheck();
        }
    }

    /**
     * Before a blocking wait for {@code op}: while it has not completed, compares every
     * deferred agreement check whose neighbour's signature arrives, so that a wait the
     * mismatch of an earlier collective keeps from completing ends with that mismatch's error.
     * Returns once {@code op} is complete or no check is left pending.
     */
    void awaitWithDeferredChecks(dev.tessera.device.DeviceRequest op) {
        if (deferredChecks.isEmpty()) {
            return;
        }
        for (int idle = 0; !op.isComplete(); idle++) {
            boolean pending = false;
            for (Comm comm : deferredChecks) {
                pending |= !comm.tryVerifyPendingCheck();
            }
            if (!pending) {
                return;
            }
            if (!device.progress()) {
                device.checkHealthy();
                dev.tessera.device.IdleStrategy.backoff().idle(idle);
            }
        }
    }

    /** Set once the rank's session has closed: every later call on any of its communicators fails. */
    private volatile boolean closed;

    /**
     * Releases the rank's communication state (nothing is held today: nonblocking collectives
     * run as schedules) and marks the rank closed, as MPI_Finalize does.
     */
    void close() {
        closed = true;
    }

    boolean isClosed() {
        return closed;
    }
}
