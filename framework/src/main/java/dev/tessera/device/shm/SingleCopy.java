package dev.tessera.device.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Single-copy transfer between the processes of one machine: the receiver reads the
 * sender's buffer with process_vm_readv (the kernel's cross-memory copy, what Open MPI's
 * shared-memory transport calls CMA), so a large message is copied once instead of into
 * and out of a shared ring. The source must be native memory (a heap array can move while
 * it is read). A native destination is filled directly; a heap array through a bounce
 * buffer of {@value #BOUNCE} bytes that stays in the cache.
 *
 * <p>Needs permission to read the peer's memory (same user, and under Yama's
 * ptrace_scope=1 the peer's consent, which every rank gives with
 * prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY)); ranks check it at startup by reading a
 * probe word of each peer ({@link #probe}), and a sender uses single copy only towards a
 * receiver that could read it.
 */
final class SingleCopy {

    /**
     * Smallest message sent by single copy ({@code tessera.shm.singleCopyMin}, default 8 KiB; 16 KiB
     * up to stop 73). Below it the ring's two copies are cheaper than the system call and the
     * acknowledgement; from it, even a message that fits one cell goes by single copy. On the Intel
     * Xeon VM a ping-pong of 16 KiB took 3.5 us by single copy and 4.0-4.6 us through one cell, 4 and
     * 8 KiB 2.7-3.4 us by single copy and 1.8-2.7 us through the ring (stop 42). On the AMD EPYC Zen 4
     * VM 8 KiB through the ring took 0.44x Open MPI's time while the VM's cross-core line transfers
     * were fast and 1.22-1.42x while they were slow, by single copy 0.95-1.01x (Open MPI copies
     * once from 4 KiB; 3 alternating rounds, docs/performance.md, stop 74), as heap arrays do
     * ({@link HeapCopy#MIN_BYTES}).
     */
    static final long MIN_BYTES = Long.getLong("tessera.shm.singleCopyMin", 8 * 1024);
    private static final int BOUNCE = 256 * 1024;
    private static final long PROBE_MAGIC = 0x5453524150524F42L;
    private static final int PR_SET_PTRACER = 0x59616d61;

    private static final MethodHandle READV;
    private static final MethodHandle PRCTL;
    /** Whether process_vm_readv and prctl were linked (on Linux, whatever single copy's setting). */
    private static final boolean LINKED;
    /** Whether single copy is on: linked and {@link #requested}. */
    private static final boolean AVAILABLE;
    /** Per thread: the iovecs in the first 32 bytes, a page-aligned bounce buffer of BOUNCE bytes from 4096 on. */
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(2 * 4096 + BOUNCE, 4096));

    static {
        MethodHandle readv = null;
        MethodHandle prctl = null;
        boolean ok = false;
        try {
            if (System.getProperty("os.name", "").startsWith("Linux")) {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                readv = linker.downcallHandle(libc.find("process_vm_readv").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
                prctl = linker.downcallHandle(libc.find("prctl").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                        Linker.Option.firstVariadicArg(1));
                ok = true;
            }
        } catch (RuntimeException | LinkageError e) {
            ok = false;
        }
        READV = readv;
        PRCTL = prctl;
        LINKED = ok;
        AVAILABLE = ok && requestedOrOff();
    }

    private SingleCopy() {
    }

    /**
     * True if single copy is on: {@code -Dtessera.shm.singleCopy=on|off} or
     * {@code TESSERA_SHM_SINGLE_COPY=on|off} (the property wins; also true/false, yes/no, 1/0; any
     * other value is refused, {@link ShmSwitch}); without either, on for Intel processors and AMD
     * before family 26, off for others ({@link dev.tessera.internal.CpuKind#singleCopyByDefault},
     * which gives the measurements).
     */
    static boolean requested() {
        return ShmSwitch.read("tessera.shm.singleCopy", "TESSERA_SHM_SINGLE_COPY",
                dev.tessera.internal.CpuKind.THIS.singleCopyByDefault());
    }

    /** {@link #requested}, or false for a value it refuses (which {@link ShmSwitch#check} reports). */
    private static boolean requestedOrOff() {
        try {
            return requested();
        } catch (dev.tessera.TesseraException e) {
            return false;
        }
    }

    static boolean available() {
        return AVAILABLE;
    }

    /**
     * Whether {@link #read} can work here (process_vm_readv linked), single copy on or off: the
     * transfers use {@link #available}; tests of the read itself use this, so that they run where
     * single copy is off by default (AMD family 26).
     */
    static boolean linked() {
        return LINKED;
    }

    /**
     * Lets other processes read this one (Yama) and returns a native probe word holding a
     * value derived from {@code pid}, whose address the rank publishes; 0 if unavailable.
     */
    static long prepare(long pid) {
        if (!AVAILABLE) {
            return 0;
        }
        try {
            int ignored = (int) PRCTL.invokeExact(PR_SET_PTRACER, -1L);
        } catch (Throwable t) {
            // without Yama there is nothing to allow
        }
        MemorySegment word = Arena.global().allocate(ValueLayout.JAVA_LONG);
        word.set(ValueLayout.JAVA_LONG, 0, PROBE_MAGIC ^ pid);
        return word.address();
    }

    /** True if the peer's probe word can be read and holds its value. */
    static boolean probe(long pid, long probeAddress) {
        if (!AVAILABLE || probeAddress == 0) {
            return false;
        }
        MemorySegment out = Arena.ofAuto().allocate(ValueLayout.JAVA_LONG);
        return read(pid, probeAddress, out, 8) && out.get(ValueLayout.JAVA_LONG, 0) == (PROBE_MAGIC ^ pid);
    }

    /**
     * Reads {@code n} bytes at {@code address} of process {@code pid} into {@code dst}; false on
     * failure. A heap {@code dst}, or a native one within {@link HeapCopy#ALIAS_WINDOW} bytes past
     * the source modulo 4096 (where the kernel's copy crawls), is read through a bounce buffer at
     * the source's own page offset, then copied on by the JIT's stub.
     */
    static boolean read(long pid, long address, MemorySegment dst, long n) {
        MemorySegment scratch = SCRATCH.get();
        MemorySegment iov = scratch.asSlice(0, 32);
        try {
            if (dst.isNative() && !HeapCopy.aliased(dst.address(), address)) {
                return readv(pid, address, dst.address(), n, iov);
            }
            // BOUNCE is a multiple of 4096, so every piece keeps the distance 0 to the bounce buffer
            MemorySegment bounce = scratch.asSlice(4096 + (address & 4095), BOUNCE);
            for (long done = 0; done < n; ) {
                long k = Math.min(BOUNCE, n - done);
                if (!readv(pid, address + done, bounce.address(), k, iov)) {
                    return false;
                }
                MemorySegment.copy(bounce, 0, dst, done, k);
                done += k;
            }
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /** process_vm_readv of {@code n} bytes from the peer's {@code remote} to our {@code local}, retrying partial reads. */
    private static boolean readv(long pid, long remote, long local, long n, MemorySegment iov) throws Throwable {
        long done = 0;
        while (done < n) {
            iov.set(ValueLayout.JAVA_LONG, 0, local + done);
            iov.set(ValueLayout.JAVA_LONG, 8, n - done);
            iov.set(ValueLayout.JAVA_LONG, 16, remote + done);
            iov.set(ValueLayout.JAVA_LONG, 24, n - done);
            long got = (long) READV.invokeExact((int) pid, iov.asSlice(0, 16), 1L, iov.asSlice(16, 16), 1L, 0L);
            if (got <= 0) {
                return false;
            }
            done += got;
        }
        return true;
    }
}
