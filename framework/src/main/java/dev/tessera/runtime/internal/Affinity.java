package dev.tessera.runtime.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Binding a rank's thread to its own cores, as MPI launchers bind ranks ({@code mpirun
 * --bind-to core}): {@code tessera run} binds by default (TESSERA_BIND=core for rank
 * processes; the smp device's rank threads are bound by its launcher; --bind-to none turns
 * both off). Without it the kernel sometimes keeps two busy ranks on one core of a
 * small machine while the other idles, and a shared-memory job runs at a tenth of its speed.
 *
 * <p>Only the calling thread is bound (Linux sched_setaffinity on thread 0, through the FFM
 * linker): the JVM's compiler and collector threads, started earlier, stay free to run on
 * any core, and threads the rank starts afterwards (its Team) inherit the binding. The
 * cores come from the process's allowed set: local rank i with T threads gets cores
 * iT .. iT+T-1 of that set. When the node's ranks times threads exceed the allowed cores
 * nothing is bound. Elsewhere than Linux binding is skipped.
 */
public final class Affinity {

    private static final int MASK_BYTES = 128;

    private Affinity() {
    }

    private static final class Native {
        static final MethodHandle GET;
        static final MethodHandle SET;

        static {
            Linker linker = Linker.nativeLinker();
            FunctionDescriptor fd = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG,
                    ValueLayout.ADDRESS);
            Optional<MemorySegment> get = linker.defaultLookup().find("sched_getaffinity");
            Optional<MemorySegment> set = linker.defaultLookup().find("sched_setaffinity");
            GET = get.map(a -> linker.downcallHandle(a, fd)).orElse(null);
            SET = set.map(a -> linker.downcallHandle(a, fd)).orElse(null);
        }
    }

    private static boolean available() {
        try {
            return System.getProperty("os.name", "").startsWith("Linux") && Native.GET != null && Native.SET != null;
        } catch (LinkageError | RuntimeException e) {
            return false;
        }
    }

    /** The CPUs the calling thread may run on, ascending; empty if unknown. */
    public static int[] allowedCpus() {
        if (!available()) {
            return new int[0];
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES, 8);
            int rc = (int) Native.GET.invokeExact(0, (long) MASK_BYTES, mask);
            if (rc != 0) {
                return new int[0];
            }
            return java.util.stream.IntStream.range(0, MASK_BYTES * 8)
                    .filter(cpu -> (mask.get(ValueLayout.JAVA_BYTE, cpu / 8) & (1 << (cpu % 8))) != 0).toArray();
        } catch (Throwable t) {
            return new int[0];
        }
    }

    /** Binds the calling thread to {@code cpus}; false if the system refused or cannot bind. */
    public static boolean bindCurrentThread(int[] cpus) {
        if (!available() || cpus.length == 0) {
            return false;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mask = a.allocate(MASK_BYTES, 8);
            for (int cpu : cpus) {
                if (cpu < 0 || cpu >= MASK_BYTES * 8) {
                    return false;
                }
                int b = cpu / 8;
                mask.set(ValueLayout.JAVA_BYTE, b, (byte) (mask.get(ValueLayout.JAVA_BYTE, b) | (1 << (cpu % 8))));
            }
            return (int) Native.SET.invokeExact(0, (long) MASK_BYTES, mask) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * The cores of local rank {@code localRank} of {@code localSize}, {@code threads} each,
     * out of {@code allowed}; empty when they do not fit.
     */
    static int[] slot(int[] allowed, int localRank, int localSize, int threads) {
        int t = Math.max(1, threads);
        if (localRank < 0 || localSize <= 0 || (long) localSize * t > allowed.length) {
            return new int[0];
        }
        return Arrays.copyOfRange(allowed, localRank * t, localRank * t + t);
    }

    /**
     * Binds the calling thread as TESSERA_BIND asks ("core"; anything else or unset: no
     * binding); returns the CPUs bound to, empty if none.
     */
    public static int[] bindFromEnvironment(Map<String, String> env, int localRank, int localSize) {
        if (!"core".equals(env.get("TESSERA_BIND"))) {
            return new int[0];
        }
        int threads;
        try {
            threads = Integer.parseInt(env.getOrDefault("TESSERA_THREADS", "1"));
        } catch (NumberFormatException e) {
            threads = 1;
        }
        return bindRank(localRank, localSize, threads);
    }

    /**
     * Binds the calling thread, local rank {@code localRank} of {@code localSize} with
     * {@code threads} threads each, to its slot of the allowed cores (the smp launcher's rank
     * threads, and process ranks through {@link #bindFromEnvironment}); returns the CPUs bound
     * to, empty if none (the ranks' threads do not fit, or binding is not possible here).
     */
    public static int[] bindRank(int localRank, int localSize, int threads) {
        int[] cpus = slot(allowedCpus(), localRank, localSize, threads);
        return cpus.length > 0 && bindCurrentThread(cpus) ? cpus : new int[0];
    }
}
