package dev.tessera.device.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The layout of a shm job's shared file. All fields are native-endian (every rank maps the
 * file on the same machine); ring indices are written with release and read with acquire.
 *
 * <pre>
 * header (HEADER_BYTES)
 *   0   long  MAGIC                         written last by the creator (release): the file is ready
 *   8   int   size (local ranks)
 *  12   int   cell bytes
 *  16   int   cells per ring
 *  20   int   attached ranks (CAS); the rank that completes the count unlinks the file
 *  24   int   abort: failed rank + 1, 0 if none
 *  28   int   abort reason length
 *  32   int   bytes of one slot of the world communicator's collective region (0: no region)
 *  36   int   lines of each small-message lane (LANE_LINES)
 *  40   int   largest payload of a lane entry (LANE_MAX)
 *  64 + 64 r  per rank: +0 long pid, +8 int state (0 absent, 1 attached, 2 closed cleanly),
 *             +16 long address of its single-copy probe word (0: none), +24 int single copy:
 *             0 not known yet, 1 this rank can read every peer's memory, 2 it cannot; +28 int
 *             heap single copy ({@code HeapCopy}): 0 not known yet, 1 on for this rank, 2 off
 *  2048       abort reason, UTF-8, up to 2048 bytes
 * rings, one per ordered pair (src, dst), at HEADER_BYTES + (src * size + dst) * ringBytes
 *   0   heap single-copy slot of the pair (HeapCopy): int state, int id, long address,
 *       long length                                       own cache line
 *  64   long  head   (consumer: next cell to read)        own cache line
 * 128   cells, each CELL_HEADER bytes of header then payload; the consumer polls the next
 *       cell's sequence word, not an index, so a message moves between the cores from the
 *       cell's first cache line, holding its header, sequence and (up to 16 B) payload
 * 128 + cells * cell bytes: the small-message lane of the pair (ShmLane)
 *   0   long  head   (consumer: next line to read)         own cache line
 *  64   LANE_LINES lines of 64 bytes, then an overflow area of lines for an entry that starts
 *       near the end; entries of one or more lines:
 *         0 int kind: L_MSG (a whole standard message, payload inline), L_CELL (the next message
 *           starts in the ring's cells: a FIRST or SINGLE cell, published before this entry),
 *           L_ACK (a synchronous send matched, or a single-copy message read: id at 20)
 *         4 int tag, 8 int context, 12 int element type code, 16 int payload bytes, 20 int id
 *        24 long sequence: written last (release): 1 + the entry's first line counted over the
 *           lane's life
 *        32 payload, running on through the entry's lines
 *       Every message of the pair has an entry, in send order: the lane is the order in which
 *       the receiver matches the pair's messages (MPI non-overtaking) whichever path carries
 *       the payload; a receiver reads a FIRST or SINGLE cell only when its L_CELL entry comes
 *       up, and a message's MORE cells as they arrive.
 * doorbells, one per rank, after the rings at HEADER_BYTES + size * size * ringBytes + 64 r
 *   0   int   sequence: the futex word the rank sleeps on; a sender adds 1 and wakes it
 *   4   int   sleepers: threads of the rank that announced they are about to sleep (or sleep)
 *   8   int   1 if the rank may sleep (blocking wait): peers ring it after writing to it
 * the world communicator's collective region, after the doorbells, when its slot size is not 0
 *   laid out by dev.tessera.comm.NodeCollectives (see dev.tessera.device.NodeRegion for its size)
 * cell header
 *   0   int   kind: FIRST (first piece of a message), MORE (continuation), ACK (synchronous send
 *               matched, or single-copy message read), SINGLE (a message the receiver reads from
 *               the sender's memory: the 8-byte address of the sender's buffer, at 48)
 *   4   int   tag
 *   8   int   context
 *  12   int   element type code
 *  16   long  total message length (FIRST)
 *  24   int   message id (sync sends and their ACK)
 *  28   int   flags: SYNC
 *  32   int   bytes of payload in this cell
 *  40   long  sequence: written last (release): 1 + the number of cells the ring carried
 *               before this one (1, 2, 3, ...), so a cell left from the previous lap never
 *               reads as new
 *  48   payload of up to INLINE_BYTES (16) bytes; larger payloads start at CELL_HEADER
 * </pre>
 */
final class ShmLayout {

    static final long MAGIC = 0x5445535345524131L;
    static final int HEADER_BYTES = 4096;
    static final int OFF_MAGIC = 0;
    static final int OFF_SIZE = 8;
    static final int OFF_CELL_BYTES = 12;
    static final int OFF_CELLS = 16;
    static final int OFF_ATTACHED = 20;
    static final int OFF_ABORT = 24;
    static final int OFF_ABORT_LEN = 28;
    static final int OFF_COLL_SLOT = 32;
    static final int OFF_RANKS = 64;
    static final int RANK_STRIDE = 64;
    static final int R_PROBE = 16;
    static final int R_SINGLE_COPY = 24;
    static final int R_HEAP_COPY = 28;
    static final int OFF_ABORT_TEXT = 2048;
    static final int MAX_ABORT_TEXT = 2048;

    static final int RING_HEAD = 64;
    static final int RING_CELLS = 128;
    static final int OFF_LANE_LINES = 36;
    static final int OFF_LANE_MAX = 40;

    static final int LANE_LINE = 64;
    /**
     * Lines of each pair's small-message lane ({@code tessera.shm.laneLines}, a power of two
     * (rounded down), at least 16; default 1024: 64 KiB, as many 8-byte messages, 60 of 1 KiB).
     */
    static final int LANE_LINES = Integer.highestOneBit(Math.max(16, Integer.getInteger("tessera.shm.laneLines", 1024)));
    /**
     * Largest payload of a standard message that travels inline in the lane
     * ({@code tessera.shm.laneMax}, default 1 KiB; larger messages go through the cells, with a
     * one-line L_CELL entry in the lane; 0: only those entries). At most half the lane.
     */
    static final int LANE_MAX = Math.max(0, Math.min(Integer.getInteger("tessera.shm.laneMax", 1024),
            LANE_LINES / 2 * 64 - 32));
    /**
     * Lines a lane's producer goes between looks at whether the lane is empty, to rewind to its
     * first line ({@code tessera.shm.laneWindow}, default 128: 8 KiB; 0: never rewind). A window
     * shorter than the lane's largest entry plus one line, or longer than a quarter of the lane
     * ({@code tessera.shm.laneLines}), also turns the rewind off. See {@link ShmLane}.
     */
    static final int LANE_WINDOW = Integer.getInteger("tessera.shm.laneWindow", 128);
    static final int LANE_ENTRY_HEADER = 32;
    static final int L_KIND = 0;
    static final int L_TAG = 4;
    static final int L_CONTEXT = 8;
    static final int L_TYPE = 12;
    static final int L_LENGTH = 16;
    static final int L_ID = 20;
    static final int L_SEQ = 24;
    static final int L_PAYLOAD = LANE_ENTRY_HEADER;
    static final int L_MSG = 1;
    static final int L_CELL = 2;
    static final int L_ACK = 3;

    static final int DOORBELL_BYTES = 64;
    static final int D_SEQUENCE = 0;
    static final int D_SLEEPERS = 4;
    static final int D_SLEEPS = 8;

    static final int CELL_HEADER = 64;
    static final int C_KIND = 0;
    static final int C_TAG = 4;
    static final int C_CONTEXT = 8;
    static final int C_TYPE = 12;
    static final int C_TOTAL = 16;
    static final int C_ID = 24;
    static final int C_FLAGS = 28;
    static final int C_CHUNK = 32;
    static final int C_SEQ = 40;
    static final int C_INLINE = 48;
    /** Payloads up to this many bytes sit in the cell's first cache line, after its header. */
    static final int INLINE_BYTES = CELL_HEADER - C_INLINE;

    static final int FIRST = 1;
    static final int MORE = 2;
    static final int ACK = 3;
    static final int SINGLE = 4;
    static final int FLAG_SYNC = 1;
    /** On a SINGLE cell: the payload is a heap array, read through the pair's slot ({@link HeapCopy}). */
    static final int FLAG_HEAP = 2;

    static final int STATE_ATTACHED = 1;
    static final int STATE_CLOSED = 2;

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private ShmLayout() {
    }

    /** Where a cell's payload of {@code chunk} bytes starts: inline in the header's line if it fits. */
    static long payloadOffset(long chunk) {
        return chunk <= INLINE_BYTES ? C_INLINE : CELL_HEADER;
    }

    static long ringBytes(int cellBytes, int cells) {
        return RING_CELLS + (long) cellBytes * cells + laneBytes();
    }

    /** Bytes of a lane: its head's line, its lines, and the overflow area (an entry's lines but one). */
    static long laneBytes() {
        return LANE_LINE + (long) (LANE_LINES + ShmLane.linesFor(LANE_MAX) - 1) * LANE_LINE;
    }

    /** Where the lane of the pair (src, dst) starts: after the ring's cells. */
    static long laneOffset(int src, int dst, int size, int cellBytes, int cells) {
        return ringOffset(src, dst, size, cellBytes, cells) + RING_CELLS + (long) cellBytes * cells;
    }

    static long fileBytes(int size, int cellBytes, int cells) {
        return fileBytes(size, cellBytes, cells, 0);
    }

    static long fileBytes(int size, int cellBytes, int cells, int collSlot) {
        return collOffset(size, cellBytes, cells) + collBytes(size, collSlot);
    }

    /** Where the world communicator's collective region starts: after the doorbells. */
    static long collOffset(int size, int cellBytes, int cells) {
        return HEADER_BYTES + (long) size * size * ringBytes(cellBytes, cells) + (long) size * DOORBELL_BYTES;
    }

    /** Bytes of the world communicator's collective region (flags, then two slots per rank). */
    static long collBytes(int size, int collSlot) {
        return collSlot == 0 ? 0 : dev.tessera.device.NodeRegion.bytes(size, collSlot);
    }

    /** The doorbell of local rank {@code rank}: its own cache line, after every ring. */
    static long doorbellOffset(int rank, int size, int cellBytes, int cells) {
        return HEADER_BYTES + (long) size * size * ringBytes(cellBytes, cells) + (long) rank * DOORBELL_BYTES;
    }

    static long ringOffset(int src, int dst, int size, int cellBytes, int cells) {
        return HEADER_BYTES + ((long) src * size + dst) * ringBytes(cellBytes, cells);
    }

    static long rankOffset(int rank) {
        return OFF_RANKS + (long) rank * RANK_STRIDE;
    }

    static long getLongAcquire(MemorySegment s, long offset) {
        return (long) LONG.getAcquire(s, offset);
    }

    static void setLongRelease(MemorySegment s, long offset, long value) {
        LONG.setRelease(s, offset, value);
    }

    static int getIntAcquire(MemorySegment s, long offset) {
        return (int) INT.getAcquire(s, offset);
    }

    static void setIntRelease(MemorySegment s, long offset, int value) {
        INT.setRelease(s, offset, value);
    }

    static int getAndAddInt(MemorySegment s, long offset, int delta) {
        return (int) INT.getAndAdd(s, offset, delta);
    }

    static boolean casInt(MemorySegment s, long offset, int expect, int value) {
        return INT.compareAndSet(s, offset, expect, value);
    }
}
