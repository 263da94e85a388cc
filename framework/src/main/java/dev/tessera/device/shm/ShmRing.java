package dev.tessera.device.shm;

import static dev.tessera.device.shm.ShmLayout.CELL_HEADER;
import static dev.tessera.device.shm.ShmLayout.RING_CELLS;
import static dev.tessera.device.shm.ShmLayout.RING_HEAD;
import static dev.tessera.device.shm.ShmLayout.RING_TAIL;

import java.lang.foreign.MemorySegment;

/**
 * One single-producer/single-consumer ring of fixed cells in the shared file (Agrona's
 * OneToOneRingBuffer idea, with fixed cells): the producer fills the cell at {@code tail},
 * then publishes {@code tail + 1} with a release store; the consumer reads {@code tail}
 * with acquire, processes the cell at {@code head}, then publishes {@code head + 1} with
 * release. Each side caches the other's index and rereads it only when the cached value
 * says the ring is full (producer) or empty (consumer), so the common case touches no
 * contended cache line. One instance per side per process; the producer side must be
 * used by one thread at a time (the device locks per destination).
 */
final class ShmRing {

    private final MemorySegment ring;
    private final int cells;
    private final int cellBytes;
    private long cachedOther;
    private long mine;

    ShmRing(MemorySegment file, long offset, int cellBytes, int cells, boolean producer) {
        this.ring = file.asSlice(offset, ShmLayout.ringBytes(cellBytes, cells));
        this.cells = cells;
        this.cellBytes = cellBytes;
        this.mine = ShmLayout.getLongAcquire(ring, producer ? RING_TAIL : RING_HEAD);
        this.cachedOther = ShmLayout.getLongAcquire(ring, producer ? RING_HEAD : RING_TAIL);
    }

    int payloadCapacity() {
        return cellBytes - CELL_HEADER;
    }

    // ------------------------------------------------------------------ producer side

    /** The next free cell, or null if the ring is full. Fill it, then {@link #publish()}. */
    MemorySegment claim() {
        if (mine - cachedOther >= cells) {
            cachedOther = ShmLayout.getLongAcquire(ring, RING_HEAD);
            if (mine - cachedOther >= cells) {
                return null;
            }
        }
        return cell(mine);
    }

    void publish() {
        mine++;
        ShmLayout.setLongRelease(ring, RING_TAIL, mine);
    }

    // ------------------------------------------------------------------ consumer side

    /** The next filled cell, or null if the ring is empty. Read it, then {@link #release()}. */
    MemorySegment peek() {
        if (mine >= cachedOther) {
            cachedOther = ShmLayout.getLongAcquire(ring, RING_TAIL);
            if (mine >= cachedOther) {
                return null;
            }
        }
        return cell(mine);
    }

    void release() {
        mine++;
        ShmLayout.setLongRelease(ring, RING_HEAD, mine);
    }

    private MemorySegment cell(long index) {
        return ring.asSlice(RING_CELLS + (index % cells) * cellBytes, cellBytes);
    }
}
