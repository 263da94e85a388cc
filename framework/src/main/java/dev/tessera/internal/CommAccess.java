package dev.tessera.internal;

import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.Device;

/**
 * What the runtime may do to communicators that programs may not: create a rank's world
 * communicator over its device and release the rank at the end. {@link Comm} registers the
 * implementation when it is initialised; this package is not exported from the framework
 * module, so only the framework (and programs on the class path that insist, such as the
 * benchmarks) reach it. The same idea as the JDK's SharedSecrets.
 */
public interface CommAccess {

    /** The world communicator of a rank, over its connected device, on the node called {@code nodeName}. */
    Comm createWorld(Device device, ThreadLevel level, CollectiveTuning tuning, String nodeName);

    /** Releases the rank's communication resources (threads of nonblocking collectives). */
    void releaseRank(Comm world);

    /** Object-message serialization as point-to-point object sends do it (benchmarks). */
    byte[] encodeObject(Object value, String where);

    /** Object-message deserialization as object receives do it (benchmarks). */
    Object decodeObject(byte[] data, String where);

    /** Applies a reduction op element-wise, {@code inout[i] = in[i] op inout[i]}, as reductions do (benchmarks). */
    void reduce(dev.tessera.comm.Op op, java.lang.foreign.MemorySegment in, java.lang.foreign.MemorySegment inout, int count,
            dev.tessera.comm.Datatype type);

    /** The registered implementation (initialises {@link Comm} first if needed). */
    static CommAccess get() {
        CommAccess a = Registry.comm;
        if (a == null) {
            try {
                Class.forName(Comm.class.getName(), true, Comm.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = Registry.comm;
        }
        return a;
    }

    /** Called once, by {@link Comm}'s static initialiser. */
    static void register(CommAccess access) {
        Registry.comm = access;
    }

    /** Holder of the registered implementation. */
    final class Registry {
        private static volatile CommAccess comm;

        private Registry() {
        }
    }
}
