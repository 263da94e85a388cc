package dev.tessera.device.shm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.JobFailure;
import dev.tessera.device.WaitMode;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Creates or joins a shm job's shared file and returns the rank's device. Rank 0 creates
 * the file, writes the header and publishes the magic word last; the others wait for the
 * magic. Every rank records its pid and counts itself in; the rank that completes the
 * count unlinks the file, so nothing is left in /dev/shm even if ranks are killed later
 * (the mappings stay valid). A rank that never attaches is named in the timeout error.
 */
public final class ShmFile {

    /** Default cell size: 32 KiB (a message up to 32 KiB - 64 B fits one cell). */
    public static final int DEFAULT_CELL_BYTES = 32 * 1024;
    /** Default cells per ring: 32 (1 MiB per ring). */
    public static final int DEFAULT_CELLS = 32;

    private ShmFile() {
    }

    /** Joins a pure shm job: local ranks are world ranks. */
    public static ShmDevice join(Path path, int rank, int size, Duration timeout, JobFailure failure) {
        return join(path, rank, size, timeout, failure, new dev.tessera.device.MatchingEngine(),
                java.util.stream.IntStream.range(0, size).toArray(), WaitMode.resolve(System.getenv(), rank, size));
    }

    /**
     * Joins as local rank {@code rank} of {@code size} ranks sharing {@code path}, whose world
     * ranks are {@code world}; arrivals go into {@code engine} (shared with other transports
     * by the auto device); {@code wait} says whether its waiting threads sleep ({@link WaitMode#BLOCK})
     * or poll.
     */
    public static ShmDevice join(Path path, int rank, int size, Duration timeout, JobFailure failure,
                                 dev.tessera.device.MatchingEngine engine, int[] world, WaitMode wait) {
        int cellBytes = Integer.getInteger("tessera.shm.cellBytes", DEFAULT_CELL_BYTES);
        int cells = Integer.getInteger("tessera.shm.cells", DEFAULT_CELLS);
        int collSlot = collectiveSlotBytes(System.getenv(), rank, wait);
        ShmSwitch.check(rank);
        long bytes = ShmLayout.fileBytes(size, cellBytes, cells, collSlot);
        long deadline = System.nanoTime() + timeout.toNanos();
        MemorySegment file;
        try {
            if (rank == 0) {
                Files.deleteIfExists(path);
                file = map(path, bytes, true);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_SIZE, size);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_CELL_BYTES, cellBytes);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_CELLS, cells);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_COLL_SLOT, collSlot);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_LANE_LINES, ShmLayout.LANE_LINES);
                file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_LANE_MAX, ShmLayout.LANE_MAX);
                ShmLayout.setLongRelease(file, ShmLayout.OFF_MAGIC, ShmLayout.MAGIC);
            } else {
                // the header first: rank 0's collective switch and slot size decide the file's length
                while (!Files.exists(path) || Files.size(path) < ShmLayout.HEADER_BYTES) {
                    waitOrFail(deadline, rank, "shared file " + path + " was not created by rank 0");
                }
                MemorySegment header = map(path, ShmLayout.HEADER_BYTES, false);
                while (ShmLayout.getLongAcquire(header, ShmLayout.OFF_MAGIC) != ShmLayout.MAGIC) {
                    waitOrFail(deadline, rank, "shared file " + path + " was not initialised by rank 0");
                }
                if (header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_SIZE) != size
                        || header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_CELL_BYTES) != cellBytes
                        || header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_CELLS) != cells
                        || header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_LANE_LINES) != ShmLayout.LANE_LINES
                        || header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_LANE_MAX) != ShmLayout.LANE_MAX) {
                    throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": shared file " + path
                            + " belongs to a job of another shape");
                }
                collSlot = header.get(ValueLayout.JAVA_INT, ShmLayout.OFF_COLL_SLOT);
                bytes = ShmLayout.fileBytes(size, cellBytes, cells, collSlot);
                // rank 0 mapped (so sized) the whole file before it wrote the magic word
                file = map(path, bytes, false);
            }
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": cannot map shared file " + path + ": " + e, e);
        }
        long me = ShmLayout.rankOffset(rank);
        file.set(ValueLayout.JAVA_LONG, me, ProcessHandle.current().pid());
        file.set(ValueLayout.JAVA_LONG, me + ShmLayout.R_PROBE, SingleCopy.prepare(ProcessHandle.current().pid()));
        // Whether this rank may sleep is known before it counts itself in: peers read it once all have.
        file.set(ValueLayout.JAVA_INT, ShmLayout.doorbellOffset(rank, size, cellBytes, cells) + ShmLayout.D_SLEEPS,
                wait == WaitMode.BLOCK ? 1 : 0);
        ShmLayout.setIntRelease(file, me + 8, ShmLayout.STATE_ATTACHED);
        int count;
        do {
            count = ShmLayout.getIntAcquire(file, ShmLayout.OFF_ATTACHED);
        } while (!ShmLayout.casInt(file, ShmLayout.OFF_ATTACHED, count, count + 1));
        if (count + 1 == size) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException ignored) {
                // the launcher removes it at the end of the job
            }
        }
        while (ShmLayout.getIntAcquire(file, ShmLayout.OFF_ATTACHED) < size) {
            if (System.nanoTime() > deadline) {
                throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + rank + ": startup timeout after "
                        + timeout.toSeconds() + " s: rank(s) " + missing(file, size) + " never attached to " + path);
            }
            LockSupport.parkNanos(1_000_000L);
        }
        return new ShmDevice(file, rank, size, cellBytes, cells, cellBytes - ShmLayout.CELL_HEADER, failure, engine, world,
                wait, collSlot);
    }

    /**
     * Default bytes of one slot of the shared-memory collective region (per rank, 8 slots each)
     * when the ranks spin. It was 16 KiB until 2026-11-29: on two spinning ranks of an Intel Xeon
     * a 256 KiB bcast in 16 KiB chunks took 32 us and in 64 KiB chunks 17 us (reduce 77 and 50 us),
     * a chunk costing about 1-2 us beyond its copy (docs/performance.md, "Slot size and the
     * two-rank reduce"); the same as {@link #DEFAULT_BLOCKING_COLL_SLOT_BYTES} now.
     */
    public static final int DEFAULT_COLL_SLOT_BYTES = 64 * 1024;
    /**
     * Default slot bytes when the ranks' waiting threads sleep (more ranks than cores, or
     * TESSERA_WAIT=block): bcast, allgather and reductions larger than a slot go through the
     * slots in chunks, and on an oversubscribed node each chunk may wait for a descheduled
     * rank, so fewer, larger chunks.
     */
    public static final int DEFAULT_BLOCKING_COLL_SLOT_BYTES = 64 * 1024;

    /**
     * The slot size of the world communicator's shared-memory collective region that rank 0
     * writes into the header (the other ranks take rank 0's): 0 when TESSERA_SHM_COLL (or
     * the system property tessera.shm.coll) is {@code off}, else tessera.shm.coll.slotBytes
     * (default 64 KiB, spinning or blocking: {@link #DEFAULT_COLL_SLOT_BYTES},
     * {@link #DEFAULT_BLOCKING_COLL_SLOT_BYTES}; rounded up to a cache line).
     */
    static int collectiveSlotBytes(java.util.Map<String, String> env, int rank, WaitMode wait) {
        String mode = System.getProperty("tessera.shm.coll", env.getOrDefault("TESSERA_SHM_COLL", "on"));
        if (mode.equals("off")) {
            return 0;
        }
        if (!mode.equals("on")) {
            throw new TesseraException(ErrorClass.ARG, "rank " + rank + ": TESSERA_SHM_COLL / tessera.shm.coll: unknown value '"
                    + mode + "' (valid: on, off)");
        }
        int slot = Integer.getInteger("tessera.shm.coll.slotBytes",
                wait == WaitMode.BLOCK ? DEFAULT_BLOCKING_COLL_SLOT_BYTES : DEFAULT_COLL_SLOT_BYTES);
        if (slot < 64 || slot > (1 << 26)) {
            throw new TesseraException(ErrorClass.ARG, "rank " + rank + ": tessera.shm.coll.slotBytes " + slot
                    + " is outside 64 B - 64 MiB");
        }
        return (slot + 63) & ~63;
    }

    private static MemorySegment map(Path path, long bytes, boolean create) throws IOException {
        try (FileChannel ch = create
                ? dev.tessera.device.OwnerOnlyFiles.createNew(path) // 0600: nobody else may map the job's messages
                : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, bytes, Arena.global());
        }
    }

    private static void waitOrFail(long deadline, int rank, String what) {
        if (System.nanoTime() > deadline) {
            throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + rank + ": startup timeout: " + what);
        }
        LockSupport.parkNanos(2_000_000L);
    }

    private static List<Integer> missing(MemorySegment file, int size) {
        List<Integer> out = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (ShmLayout.getIntAcquire(file, ShmLayout.rankOffset(r) + 8) == 0) {
                out.add(r);
            }
        }
        return out;
    }
}
