package dev.tessera.device.shm;

import dev.tessera.device.DeviceRequest;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.WaitMode;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A job's shared segment allocated in this process, with every rank marked attached (by this
 * process's pid), and one {@link ShmDevice} per rank on it. Tests drive all ranks' progress
 * from one thread, so the device's protocol is tested without processes or timing.
 */
final class InProcessShmRanks implements AutoCloseable {

    final int size;
    final int cellBytes;
    final int cells;
    final Arena arena;
    final MemorySegment file;
    final JobFailure failure = new JobFailure();
    private final ShmDevice[] ranks;

    /** {@code size} spinning ranks, each with its own matching engine. */
    InProcessShmRanks(int size, int cellBytes, int cells) {
        this.size = size;
        this.cellBytes = cellBytes;
        this.cells = cells;
        this.arena = Arena.ofShared();
        this.file = arena.allocate(ShmLayout.fileBytes(size, cellBytes, cells), 64);
        for (int r = 0; r < size; r++) {
            file.set(ValueLayout.JAVA_LONG, ShmLayout.rankOffset(r), ProcessHandle.current().pid());
            file.set(ValueLayout.JAVA_INT, ShmLayout.rankOffset(r) + 8, ShmLayout.STATE_ATTACHED);
        }
        this.ranks = new ShmDevice[size];
        for (int r = 0; r < size; r++) {
            ranks[r] = device(r, WaitMode.SPIN);
        }
    }

    /** Cell payload capacity: the cell less its header. */
    int capacity() {
        return cellBytes - ShmLayout.CELL_HEADER;
    }

    ShmDevice rank(int r) {
        return ranks[r];
    }

    /** A further device for rank {@code r} on the same segment (for example, one that blocks). */
    ShmDevice device(int r, WaitMode mode) {
        int[] nodeRanks = new int[size];
        for (int i = 0; i < size; i++) {
            nodeRanks[i] = i;
        }
        return new ShmDevice(file, r, size, cellBytes, cells, capacity(), failure, new MatchingEngine(), nodeRanks, mode);
    }

    /**
     * Drives every rank's progress until each request completes; fails (instead of polling
     * forever) once the test's timeout interrupts this thread.
     */
    void untilComplete(DeviceRequest... requests) {
        for (DeviceRequest r : requests) {
            for (long polls = 1; !r.isComplete(); polls++) {
                for (ShmDevice d : ranks) {
                    d.progress();
                }
                if ((polls & 0xFFFFF) == 0 && Thread.currentThread().isInterrupted()) {
                    throw new AssertionError("a request did not complete (" + polls + " polls)");
                }
            }
        }
    }

    /** {@code n} bytes that differ with {@code seed} and along the array. */
    static byte[] pattern(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7 + 1);
        }
        return b;
    }

    @Override
    public void close() {
        arena.close();
    }
}
