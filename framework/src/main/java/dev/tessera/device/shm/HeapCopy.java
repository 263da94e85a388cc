package dev.tessera.device.shm;

import dev.tessera.device.NativeHelpers;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Single copy of a message whose send buffer is a Java heap array: the receiver reads the array
 * with process_vm_readv while the sender holds it still. A heap array's address exists only
 * inside a critical downcall (the collector cannot run during one), so the sender, once the
 * receiver has matched the message, calls {@code tessera_shm_offer} (a small C helper,
 * {@code tessera_shm.c}, compiled with the system's C compiler on first use and cached under
 * {@code ~/.cache/tessera/shm/<key>/}) with the array as argument: it publishes the address in
 * the pair's slot and waits until the receiver has read it, or withdraws after
 * {@link #OFFER_NANOS} if the receiver has not started, so the sender's thread reaches a
 * safepoint at least that often (plus one read once the receiver has started). The receiver
 * reads into its buffer, a heap array too, through {@code tessera_shm_read}, also critical. A
 * message larger than {@link #PIECE_BYTES} is offered and read a piece at a time, the sender's
 * thread back in Java between pieces.
 *
 * <p>{@code -Dtessera.shm.heapSingleCopy=true|false} or {@code TESSERA_SHM_HEAP_SINGLE_COPY=1|0}
 * (the property wins; default on); used only where single copy for native memory is on
 * ({@link SingleCopy#requested()}), from {@link #MIN_BYTES} to {@link #MAX_BYTES}, with spinning
 * waits (not where a rank may sleep on its doorbell, as ranks that outnumber the cores do by
 * default), between ranks in different processes, one message per ordered pair of ranks at a
 * time (the pair has one slot; others take the ring meanwhile).
 * Without a working C compiler ({@code -Dtessera.shm.cc}, default {@code cc}) heap arrays take
 * the ring as before.
 */
final class HeapCopy {

    /**
     * Smallest heap message sent by single copy ({@code tessera.shm.heapSingleCopyMin}, default 8 KiB;
     * 16 KiB, native memory's threshold, up to stop 73). On the AMD EPYC Zen 4 VM an 8 KiB ping-pong
     * through the ring took 0.44-0.46x Open MPI's time while the VM's cross-core line transfers
     * were fast and 1.35-1.44x while they were slow, by single copy 0.95-1.14x at both; NPB MG
     * class A at 2x1, whose coarse faces are 8-16 KiB, ran 0.41-0.49 s against 0.46-0.53 (4
     * alternating rounds, docs/performance.md, stop 74).
     */
    static final long MIN_BYTES = Long.getLong("tessera.shm.heapSingleCopyMin", 8 * 1024);
    /**
     * Largest ({@code tessera.shm.heapSingleCopyMax}, bytes; default: no limit). Messages larger than
     * {@link #PIECE_BYTES} are offered a piece at a time.
     */
    static final long MAX_BYTES = Long.getLong("tessera.shm.heapSingleCopyMax", Long.MAX_VALUE);
    /**
     * Largest piece of a message offered at once ({@code tessera.shm.heapSingleCopyPiece}, default
     * 2 MiB). The sender's thread stays in the critical call while the receiver reads a piece,
     * about 0.1 ms per MiB, and every other thread of its JVM that reaches a safepoint waits that
     * long; between pieces it returns to Java. Up to stop 73 this was the largest message, and
     * larger ones took the ring: on the Intel Xeon VM a 4 MiB ping-pong took 398-470 us by single
     * copy and 353-375 us through the ring (stop 47), but on the AMD EPYC Zen 4 VM the ring's copy
     * into the cells fell to the VM's slow level in whole jobs (4 MiB 1.7-1.9 ms against Open MPI's
     * 0.4, docs/performance.md, stops 71 and 74).
     */
    static final long PIECE_BYTES = Math.max(4096, Long.getLong("tessera.shm.heapSingleCopyPiece", 2L << 20));
    /**
     * Largest message for which the device tells the collectives that heap arrays go by single
     * copy ({@code NodeRegion#singleCopies}): the collectives' choices between the slots and point to
     * point were measured up to it (PairCopyDecision).
     */
    static final long COLLECTIVE_MAX_BYTES = Math.min(MAX_BYTES, 2L << 20);
    /** Longest wait of the sender inside the helper before the receiver starts reading. */
    static final long OFFER_NANOS = Long.getLong("tessera.shm.heapOfferMicros", 50) * 1000L;
    /**
     * Longest wait inside the helper of a sender that offers before the receiver has matched
     * (POSTED: the receiver then reads at its match, one hand-over less), at most
     * {@link #PRE_OFFERS} times per message ({@code tessera.shm.heapPreOfferMicros}, 0: never).
     */
    static final long PRE_OFFER_NANOS = Long.getLong("tessera.shm.heapPreOfferMicros", 5) * 1000L;
    static final int PRE_OFFERS = 4;
    /**
     * Whether a rank that finds its peer's offer waiting while it has a message of its own for that
     * peer offers its own first and reads the peer's from inside that offer
     * ({@code tessera.shm.heapOfferFirst}, default on; {@code off}: it reads first, then offers). Two
     * ranks that send to each other at once (a two-rank alltoall or allgather by single copy) then
     * copy at the same time on both cores: read first, the peer sat in its offer until the read
     * was done and then read ours, one copy after the other (Intel Xeon, alltoall of 256 KiB: 16
     * us against 25-27, docs/performance.md, stop 55).
     */
    static final boolean OFFER_FIRST = !"off".equals(System.getProperty("tessera.shm.heapOfferFirst", "on").trim());

    static final int IDLE = 0;
    static final int POSTED = 1;
    static final int READY = 2;
    static final int OFFERED = 3;
    static final int READING = 4;
    static final int DONE = 5;
    static final int FAILED = 6;

    /** Slot fields (a 64-byte line per ordered pair). */
    static final int S_STATE = 0;
    static final int S_ID = 4;
    static final int S_ADDRESS = 8;
    static final int S_LENGTH = 16;
    /** Where the offered piece starts in the message (long), and whether pieces follow it (int, nonzero). */
    static final int S_OFFSET = 24;
    static final int S_MORE = 32;

    /** Result bits of {@link #offer}. */
    static final int R_DONE = 1;
    static final int R_WITHDRAWN = 2;
    static final int R_GONE = 4;
    static final int R_SERVED = 8;
    static final int R_SERVE_FAILED = 16;
    static final int R_NOT_READY = 32;
    /** With {@link #R_SERVED}: the piece served was not the message's last. */
    static final int R_MORE = 64;

    private static final String SOURCE = "tessera_shm.c";

    private HeapCopy() {
    }

    /** The helper, loaded on first use; {@link #why} says why not if it is null. */
    private static final class Helper {
        static final MethodHandle OFFER;
        static final MethodHandle READ;
        static final MethodHandle COPY;
        static final MethodHandle ALIASED;
        static final MethodHandle COPY_MODE;
        static final MethodHandle LAST_WAY;
        static final String STATUS;

        static {
            MethodHandle offer = null;
            MethodHandle read = null;
            MethodHandle copy = null;
            MethodHandle aliased = null;
            MethodHandle copyMode = null;
            MethodHandle lastWay = null;
            String status;
            try {
                Path so = build();
                Linker linker = Linker.nativeLinker();
                SymbolLookup lib = SymbolLookup.libraryLookup(so, Arena.global());
                Linker.Option critical = Linker.Option.critical(true);
                offer = linker.downcallHandle(lib.find("tessera_shm_offer").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_LONG), critical);
                read = linker.downcallHandle(lib.find("tessera_shm_read").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), critical);
                copy = linker.downcallHandle(lib.find("tessera_shm_copy").orElseThrow(),
                        FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), critical);
                aliased = linker.downcallHandle(lib.find("tessera_shm_aliased").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG), critical);
                copyMode = linker.downcallHandle(lib.find("tessera_shm_copy_mode").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
                lastWay = linker.downcallHandle(lib.find("tessera_shm_copy_last_way").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT));
                status = "on (helper " + so + ")";
            } catch (RuntimeException | LinkageError | IOException e) {
                offer = null;
                read = null;
                copy = null;
                aliased = null;
                copyMode = null;
                lastWay = null;
                status = "off: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = "off: interrupted while compiling the helper";
            }
            OFFER = offer;
            READ = read;
            COPY = copy;
            ALIASED = aliased;
            COPY_MODE = copyMode;
            LAST_WAY = lastWay;
            STATUS = status;
        }
    }

    /**
     * The helper's {@code tessera_shm_copy(dst, src, n)} (void; critical, so its arguments may be
     * heap arrays), the sender's copy of a piece into a cell: for pieces of 16 KiB or more, memcpy
     * or non-temporal stores as {@link #copyMode} says ({@link CellCopy}); memcpy for smaller ones;
     * 64-byte moves instead of memcpy where the destination lies within {@link #ALIAS_WINDOW} bytes
     * past the source modulo 4096 ({@link #aliased}). Null without the helper. Builds the helper
     * on first call.
     */
    static MethodHandle copyHandle() {
        return Helper.COPY;
    }

    /**
     * Sets how {@link #copyHandle}'s copy takes pieces of 16 KiB or more, for the whole process:
     * 0 adaptive, 1 memcpy, 2 non-temporal stores ({@code tessera.shm.cellCopy}), and forgets the
     * calling thread's cost figures. Returns the mode in force (2 becomes 1 off x86-64), or -1
     * without the helper.
     */
    static int copyMode(int mode) {
        if (Helper.COPY_MODE == null) {
            return -1;
        }
        try {
            return (int) Helper.COPY_MODE.invokeExact(mode);
        } catch (Throwable t) {
            throw new IllegalStateException("shm: the helper failed", t);
        }
    }

    /** How this thread's last copy of 16 KiB or more went: 0 memcpy, 1 non-temporal stores; -1 without the helper (tests). */
    static int lastCopyWay() {
        if (Helper.LAST_WAY == null) {
            return -1;
        }
        try {
            return (int) Helper.LAST_WAY.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("shm: the helper failed", t);
        }
    }

    /**
     * The distances, modulo 4096, by which a destination may lie past its source before a copy
     * slows down: 1 to ALIAS_WINDOW - 1 bytes. On the AMD EPYC Zen 4 VM rep movsb, which glibc's
     * memcpy uses for copies of a few KiB to about the L3's size and the kernel uses for
     * process_vm_readv, moved 2-3 GB/s at distances of 1 to 15 bytes and 11-55 GB/s at every other
     * (all 4096 scanned; docs/performance.md, stop 71). Java arrays are 8-byte aligned, so two of
     * them can be 8 bytes apart; two rank JVMs that allocate the same buffers in the same order
     * often are, and a whole job's messages of one size then crawled. The JIT's copy stub
     * ({@link MemorySegment#copy}) is not affected. The helper ({@code tessera_shm.c}) has the same
     * constant.
     */
    static final int ALIAS_WINDOW = 16;

    /** True if a copy from address {@code src} to address {@code dst} lies in the aliasing window. */
    static boolean aliased(long dst, long src) {
        long d = (dst - src) & 4095;
        return d != 0 && d < ALIAS_WINDOW;
    }

    /** The helper's own answer to {@link #aliased} for a native {@code dst} (tests); -1 without the helper. */
    static int helperAliased(MemorySegment dst, long src) {
        if (Helper.ALIASED == null) {
            return -1;
        }
        try {
            return (int) Helper.ALIASED.invokeExact(dst, src);
        } catch (Throwable t) {
            throw new IllegalStateException("shm: the helper failed", t);
        }
    }

    /**
     * True if heap arrays go by single copy ({@code tessera.shm.heapSingleCopy}, then
     * TESSERA_SHM_HEAP_SINGLE_COPY; default on) and the helper works. Builds the helper on first call.
     */
    static boolean available() {
        return requested() && SingleCopy.available() && Helper.OFFER != null;
    }

    /** What {@code tessera info} prints for this path. */
    static String status() {
        try {
            requested();
            SingleCopy.requested();
        } catch (dev.tessera.TesseraException e) {
            return "refused: " + e.getMessage();
        }
        if (!requested()) {
            return "off (tessera.shm.heapSingleCopy / TESSERA_SHM_HEAP_SINGLE_COPY)";
        }
        if (!SingleCopy.available()) {
            return "off (single copy is off)";
        }
        return Helper.STATUS;
    }

    static boolean requested() {
        return ShmSwitch.read("tessera.shm.heapSingleCopy", "TESSERA_SHM_HEAP_SINGLE_COPY", true);
    }

    /**
     * The sender's offer of {@code src} (a piece of a heap array: the message's bytes from
     * {@code offset}; {@code more}: pieces follow) through {@code slot}, READY; while it waits,
     * serves the piece offered in {@code in} (may be {@link MemorySegment#NULL}) into {@code dst}
     * (the first {@code m} bytes of the receive buffer, the piece at its own offset). Returns the
     * helper's result bits.
     */
    static int offer(MemorySegment slot, MemorySegment src, long offset, boolean more, long peerPid, long spinNanos,
                     MemorySegment in, long inPid, MemorySegment dst, long m) {
        try {
            return (int) Helper.OFFER.invokeExact(slot, src, src.byteSize(), offset, more ? 1 : 0, (int) peerPid,
                    spinNanos, in, (int) inPid, dst, m);
        } catch (Throwable t) {
            throw new IllegalStateException("shm heap single copy: the helper failed", t);
        }
    }

    /**
     * Reads {@code n} bytes at {@code address} of process {@code pid} into {@code dst} (heap or
     * native); false on failure. Where {@code dst} lies in the aliasing window past the source
     * ({@link #aliased}), the helper reads through a bounce buffer of 64 KiB half a page away
     * from the source and copies on from there.
     */
    static boolean read(long pid, long address, MemorySegment dst, long n) {
        if (Helper.READ == null) {
            return SingleCopy.read(pid, address, dst, n);
        }
        try {
            return (long) Helper.READ.invokeExact((int) pid, dst.asSlice(0, n), address, n) == n;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Links the helper's two downcalls while the device starts, as {@link CellCopy#link} does for
     * memcpy: {@link dev.tessera.device.Posix#LINK_CALLS} offers through a private idle slot (each
     * answers {@link #R_NOT_READY} at once) and as many reads of no bytes. Without it, two spinning
     * ranks generated four lambda form classes per rank JVM in the first 0.2 s of the heat example's
     * solve (docs/performance.md, stop 68).
     *
     * @throws IllegalStateException if the helper answers an idle slot's offer with anything else
     */
    static void link() {
        if (Helper.OFFER == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment slot = arena.allocate(64, 64);   // IDLE: every field 0
            MemorySegment src = arena.allocate(8, 8);
            long pid = ProcessHandle.current().pid();
            for (int i = 0; i < dev.tessera.device.Posix.LINK_CALLS; i++) {
                int r = offer(slot, src, 0, false, pid, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0);
                if (r != R_NOT_READY) {
                    throw new IllegalStateException("shm heap single copy: the helper answered " + r
                            + " to an offer through an idle slot (expected " + R_NOT_READY + ")");
                }
                read(pid, src.address(), src, 0);
            }
        }
    }

    /** Compiles the helper unless a cached build exists; returns the shared library. */
    private static Path build() throws IOException, InterruptedException {
        String source;
        try (InputStream in = HeapCopy.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IOException(SOURCE + " missing from the Tessera jar");
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String cc = System.getProperty("tessera.shm.cc", "cc");
        String key = NativeHelpers.key(source, cc, System.getProperty("os.arch"));
        Path dir = NativeHelpers.cacheDir(System.getenv()).resolve("shm").resolve(key);
        Path so = dir.resolve("libtessera_shm.so");
        if (Files.isRegularFile(so)) {
            return so;
        }
        Files.createDirectories(dir);
        Path src = Files.createTempFile(dir, "tessera_shm", ".c");
        Path tmp = Files.createTempFile(dir, "libtessera_shm", ".so.tmp");
        try {
            Files.writeString(src, source);
            List<String> cmd = List.of(cc, "-shared", "-fPIC", "-O2", "-o", tmp.toString(), src.toString());
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new IOException("no C compiler (" + cc + "): " + e.getMessage());
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("compiling the helper failed: " + String.join(" ", cmd) + "\n" + out.strip());
            }
            NativeHelpers.publish(tmp, so);
            return so;
        } finally {
            Files.deleteIfExists(tmp);
            Files.deleteIfExists(src);
        }
    }
}
