package dev.tessera.runtime.internal;

import dev.tessera.device.Device;

/**
 * What a launcher hands a rank before its code runs: the device (already connected to
 * the job), and the rank's place on the node. Carried in an inheritable thread-local for
 * ranks that are threads (smp); processes started by a launcher build it from the
 * environment instead.
 */
public record RankBootstrap(Device device, int localRank, int localSize, int nodeId, String jobId, String nodeName) {

    /** A bootstrap on this machine's node (named after the host). */
    public RankBootstrap(Device device, int localRank, int localSize, int nodeId, String jobId) {
        this(device, localRank, localSize, nodeId, jobId, hostName());
    }

    /** This machine's host name ("localhost" when it cannot be found). */
    public static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }

    private static final InheritableThreadLocal<RankBootstrap> CURRENT = new InheritableThreadLocal<>();

    static {
        dev.tessera.internal.CurrentRank.install(RankBootstrap::deviceOfCallingThread);
    }

    /** The device of the rank the calling thread belongs to: an smp rank thread's, else this process's rank's, else null. */
    static Device deviceOfCallingThread() {
        RankBootstrap b = CURRENT.get();
        return b != null ? b.device() : ProcessBootstrap.currentDevice();
    }

    /** The bootstrap of the rank running on this thread, or null outside a launched rank thread. */
    public static RankBootstrap current() {
        return CURRENT.get();
    }

    /** Binds this bootstrap to the current thread (and threads it creates). */
    public void bindToCurrentThread() {
        CURRENT.set(this);
    }

    public static void unbind() {
        CURRENT.remove();
    }
}
