package dev.tessera.comm;

import dev.tessera.device.Device;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Per-rank state shared by all of a rank's communicators: the device, the thread level
 * and the thread that initialised the rank, the next free context id, the collective
 * tuning, and the threads that run nonblocking collectives.
 */
final class RankEnvironment {

    final Device device;
    final ThreadLevel threadLevel;
    final Thread initThread;
    final CollectiveTuning tuning;

    /** Serializes communicator creation: context ids are agreed by an allreduce per creation. */
    final ReentrantLock contextLock = new ReentrantLock();
    /** Next context id this rank has not used; communicators take two (p2p, collective). */
    private int nextContext;

    private ExecutorService nonblockingCollectives;

    RankEnvironment(Device device, ThreadLevel threadLevel, Thread initThread, int firstFreeContext,
                    CollectiveTuning tuning) {
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

    /** Threads for nonblocking collectives: each runs the blocking algorithm with its own tags. */
    synchronized ExecutorService nonblockingCollectives() {
        if (nonblockingCollectives == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            ThreadFactory factory = r -> {
                Thread t = new Thread(r, "tessera-nbc-rank" + device.rank());
                t.setDaemon(true);
                t.setContextClassLoader(loader);
                return t;
            };
            nonblockingCollectives = Executors.newCachedThreadPool(factory);
        }
        return nonblockingCollectives;
    }

    synchronized void close() {
        if (nonblockingCollectives != null) {
            nonblockingCollectives.shutdownNow();
            nonblockingCollectives = null;
        }
    }
}
