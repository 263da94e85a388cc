package dev.tessera.device.shm;

import static dev.tessera.device.shm.ShmLayout.CELL_HEADER;
import static dev.tessera.device.shm.ShmLayout.RING_CELLS;
import static dev.tessera.device.shm.ShmLayout.RING_HEAD;
import static dev.tessera.device.shm.ShmLayout.C_SEQ;

import java.lang.foreign.MemorySegment;

/**
 * One single-producer/single-consumer ring of fixed cells in the shared file: the producer
 * fills cell {@code i} (counting from 0 over the ring's life), then stores {@code i + 1}
 * into the cell's sequence word with release; the consumer polls the sequence word of the
 * cell it expects next with acquire, processes the cell, then publishes {@code head + 1}
 * with release. The producer caches {@code head} and rereads it only when the cached value
 * says the ring is full. So a message needs no index line between the cores: the consumer
 * waits on the very cache line the producer writes, and a message of up to
 * {@link ShmLayout#INLINE_BYTES} bytes travels as that one line (what Open MPI's fast boxes
 * do). One instance per side per process; the producer side must be used by one thread at
 * a time (the device locks per destination). Rings start empty, with the file.
 *
 * <p>Cells are addressed by their offset in {@link #segment()} ({@link #claimAt},
 * {@link #peekAt}): the small-message path reads and writes a cell's header without making a
 * slice object per message.
 */
final class ShmRing {

    private final MemorySegment ring;
    private final int cells;
    private final int cellBytes;
    /** Producer: the consumer's head as last read. */
    private long cachedHead;
    /** Producer: the next cell to fill; consumer: the next cell to read. */
    private long mine;

    ShmRing(MemorySegment file, long offset, int cellBytes, int cells, boolean producer) {
        this.ring = file.asSlice(offset, ShmLayout.ringBytes(cellBytes, cells));
        this.cells = cells;
        this.cellBytes = cellBytes;
        this.mine = ShmLayout.getLongAcquire(ring, RING_HEAD);
        this.cachedHead = mine;
    }

    int payloadCapacity() {
        return cellBytes - CELL_HEADER;
    }

    int cellBytes() {
        return cellBytes;
    }

    /** The ring's memory: cell offsets from {@link #claimAt} and {@link #peekAt} are relative to it. */
    MemorySegment segment() {
        return ring;
    }

    // ------------------------------------------------------------------ producer side

    /** Offset of the next free cell, or -1 if the ring is full. Fill it, then {@link #publish()}. */
    long claimAt() {
        if (mine - cachedHead >= cells) {
            cachedHead = ShmLayout.getLongAcquire(ring, RING_HEAD);
            if (mine - cachedHead >= cells) {
                return -1;
            }
        }
        return cellOffset(mine);
    }

    /**
     * True if {@code k} cells are free: the next {@code k} calls of {@link #claimAt()}, each
     * followed by its {@link #publish()}, find room (the consumer only frees cells).
     */
    boolean hasRoom(int k) {
        if (mine + k - cachedHead > cells) {
            cachedHead = ShmLayout.getLongAcquire(ring, RING_HEAD);
            return mine + k - cachedHead <= cells;
        }
        return true;
    }

    /** The next free cell, or null if the ring is full. Fill it, then {@link #publish()}. */
    MemorySegment claim() {
        long at = claimAt();
        return at < 0 ? null : ring.asSlice(at, cellBytes);
    }

    /** Publishes the cell {@link #claimAt()} returned: its header and payload must be written. */
    void publish() {
        long at = cellOffset(mine);
        mine++;
        ShmLayout.setLongRelease(ring, at + C_SEQ, mine);
    }

    // ------------------------------------------------------------------ consumer side

    /** Offset of the next filled cell, or -1 if the ring is empty. Read it, then {@link #release()}. */
    long peekAt() {
        long at = cellOffset(mine);
        return ShmLayout.getLongAcquire(ring, at + C_SEQ) == mine + 1 ? at : -1;
    }

    /** The next filled cell, or null if the ring is empty. Read it, then {@link #release()}. */
    MemorySegment peek() {
        long at = peekAt();
        return at < 0 ? null : ring.asSlice(at, cellBytes);
    }

    /**
     * Frees the cell {@link #peekAt()} returned and publishes the head to the producer. (Publishing
     * once per N cells, -Dtessera.shm.releaseBatch of stop 37, was A/B tested on the AMD EPYC and
     * Intel Xeon kinds, not faster, and removed in stop 38.)
     */
    void release() {
        mine++;
        ShmLayout.setLongRelease(ring, RING_HEAD, mine);
    }

    private long cellOffset(long index) {
        return RING_CELLS + (index % cells) * cellBytes;
    }
}
