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

    // ------------------------------------------------------------------ producer side

    /** The next free cell, or null if the ring is full. Fill it, then {@link #publish()}. */
    MemorySegment claim() {
        if (mine - cachedHead >= cells) {
            cachedHead = ShmLayout.getLongAcquire(ring, RING_HEAD);
            if (mine - cachedHead >= cells) {
                return null;
            }
        }
        return cell(mine);
    }

    /** Publishes the cell {@link #claim()} returned: its header and payload must be written. */
    void publish() {
        MemorySegment cell = cell(mine);
        mine++;
        ShmLayout.setLongRelease(cell, C_SEQ, mine);
    }

    // ------------------------------------------------------------------ consumer side

    /** The next filled cell, or null if the ring is empty. Read it, then {@link #release()}. */
    MemorySegment peek() {
        long at = RING_CELLS + (mine % cells) * cellBytes;
        return ShmLayout.getLongAcquire(ring, at + C_SEQ) == mine + 1 ? ring.asSlice(at, cellBytes) : null;
    }

    void release() {
        mine++;
        ShmLayout.setLongRelease(ring, RING_HEAD, mine);
    }

    private MemorySegment cell(long index) {
        return ring.asSlice(RING_CELLS + (index % cells) * cellBytes, cellBytes);
    }
}
