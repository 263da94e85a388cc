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
