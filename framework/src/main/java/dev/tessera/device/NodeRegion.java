package dev.tessera.device;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * Shared memory that every member of one communicator maps, offered by a device whose ranks
 * share a machine (the shm device, in its shared file; the smp device, in the JVM's memory), for the comm layer's shared-memory collectives
 * ({@code dev.tessera.comm.NodeCollectives}). The device only provides the memory, zeroed
 * when the job starts, and its way of waiting; the comm layer lays the memory out: one
 * cache line per member for its latest call index and its latest combined chunk, then
 * {@link #LANE} lane entries per member (each {@link #LINE_BYTES} bytes: a {@link #SLOT_HEADER}-byte
 * header, sequence number and call signature, followed by up to {@link #LINE_DATA} bytes of a
 * call's data, the first 32 in the header's cache line), then {@link #DEPTH} data slots of
 * {@link #slotBytes()} bytes per member for data that does not fit a lane entry, then
 * {@link #MID_DEPTH} middle slots of {@link #MID_BYTES} bytes per member for data that does not fit a lane
 * entry but fits one of those (and half a data slot).
 */
public interface NodeRegion {

    /** Bytes of each member's line for its latest call index and latest combined chunk. */
    int LIVE_BYTES = 64;
    /** Data slots per member (for data larger than {@link #LINE_DATA} bytes). */
    int DEPTH = 8;
    /**
     * Lane entries per member: one per flagged call, so calls whose data fits an entry can run far
     * ahead (up to LANE / 2 calls where ranks sleep in their waits). 256: 4 shm ranks on 2 cores,
     * 7 alternating rounds against 64 entries (32 ahead), medians: 8-byte bcast 0.315 against 0.429
     * us, 64-byte 0.327 against 0.468, 8-byte reduce 0.356 against 0.498, but 64-byte reduce 0.621
     * against 0.552 (the lane's lines no longer stay in L1); 128 entries gained 7-12 % on all four;
     * 1024 split between 0.21 and 0.99 us (docs/performance.md, stop 59).
     */
    int LANE = 256;
    /**
     * Middle slots per member, for data of more than {@link #LINE_DATA} bytes up to {@link #MID_BYTES}: calls with such
     * data may run up to MID_DEPTH - 4 calls ahead of the slowest member, where the {@link #DEPTH} data slots allow 4.
     * 4 shm ranks on 2 cores, a loop of 128-byte reduces: 1.9-2.3x Open MPI's time through the 8 data slots, 0.8-1.3x
     * through 32 middle slots (medians of alternating rounds, docs/performance.md, stop 73).
     */
    int MID_DEPTH = 32;
    /** Bytes of a middle slot: data up to this size (and half a data slot) goes through the middle slots. */
    int MID_BYTES = 1024;
    /**
     * Bytes between two middle slots: a page, so that what a reader's prefetchers fetch past its call's data is not
     * the next call's slot, which the writer is filling (2 shm ranks, 1 KiB bcast: 0.61 of Open MPI's time with
     * 1 KiB between the slots, 0.48 with 4 KiB, 0.33-0.41 through the data slots; docs/performance.md, stop 73).
     */
    int MID_STRIDE = 4096;
    /** Bytes of a lane entry: two cache lines (data of up to 32 bytes moves in one). */
    int LINE_BYTES = 128;
    /** Bytes of a lane entry's header: a call's data of up to {@link #LINE_DATA} bytes follows it. */
    int SLOT_HEADER = 32;
    /** Data bytes that fit a lane entry after its header. */
    int LINE_DATA = LINE_BYTES - SLOT_HEADER;

    /** Bytes between two data slots: the slot's bytes rounded up to cache lines. */
    static long slotStride(int slotBytes) {
        return ((long) slotBytes + 63) & ~63L;
    }

    /** Bytes of a region of {@code members} members with slots of {@code slotBytes} data bytes. */
    static long bytes(int members, int slotBytes) {
        return (long) members * LIVE_BYTES + (long) members * LANE * LINE_BYTES
                + (long) members * DEPTH * slotStride(slotBytes) + (long) members * MID_DEPTH * MID_STRIDE;
    }

    /** The region: laid out as the class comment says, zero when the job starts. */
    MemorySegment memory();

    /** Number of members (the communicator's size). */
    int members();

    /** Bytes of one data slot. */
    int slotBytes();

    /**
     * Waits until {@code ready} holds, the way the device waits for a transfer: spinning
     * while it drives the device's progress, then sleeping when waiting threads sleep
     * (oversubscribed nodes). Throws the job's error if the job fails, and an error naming
     * {@code worldPeer} if that rank dies, so a wait for a dead member never hangs.
     */
    void awaitUntil(BooleanSupplier ready, int worldPeer);

    /** Whether the process of member {@code worldPeer} has exited (for a member that said it closed). */
    boolean memberExited(int worldPeer);

    /** Whether this rank's waiting threads sleep (oversubscribed nodes, TESSERA_WAIT=block). */
    default boolean waitsBlock() {
        return false;
    }

    /**
     * Whether a point-to-point message of {@code bytes} bytes from a Java heap array goes by single
     * copy (the receiver reads the sender's array in place) between any two members, both ways. The
     * same answer on every member (the device decides it from what every member published), so the
     * members agree on a collective path chosen by it. By default false.
     */
    default boolean singleCopies(long bytes) {
        return false;
    }

    /**
     * Whether every member is a thread of this process (the smp device): a point-to-point message
     * between two members is then one copy from buffer to buffer at any size, whatever their waits.
     */
    default boolean sameAddressSpace() {
        return false;
    }

    /** After a member published a flag: wakes the members that sleep in {@link #awaitUntil}. */
    void wake();

    /**
     * The smallest copy the collectives pass to {@link #copy}; smaller ones they make with
     * {@link java.lang.foreign.MemorySegment#copy} themselves. By default none.
     */
    default long bulkCopyFrom() {
        return Long.MAX_VALUE;
    }

    /**
     * Copies {@code bytes} bytes between a member's buffer and the region (or between two
     * buffers) for the collectives: {@link MemorySegment#copy} by default; a device whose
     * region is shared with other processes may copy large pieces another way.
     */
    default void copy(java.lang.foreign.MemorySegment src, long srcOffset, java.lang.foreign.MemorySegment dst,
            long dstOffset, long bytes) {
        java.lang.foreign.MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
    }
}
