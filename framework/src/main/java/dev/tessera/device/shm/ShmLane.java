package dev.tessera.device.shm;

import static dev.tessera.device.shm.ShmLayout.LANE_ENTRY_HEADER;
import static dev.tessera.device.shm.ShmLayout.LANE_LINE;
import static dev.tessera.device.shm.ShmLayout.L_SEQ;

import java.lang.foreign.MemorySegment;

/**
 * The packed small-message lane of one ordered pair of ranks, beside its ring of cells
 * ({@link ShmLayout}): a single-producer/single-consumer ring of 64-byte lines holding
 * entries of one or more consecutive lines (a header of {@link ShmLayout#LANE_ENTRY_HEADER}
 * bytes, then the payload, contiguous), so a stream of small messages is read line after
 * line and the hardware prefetcher runs ahead of the consumer, where every message in a cell
 * was a cold line 32 KiB from the previous one.
 *
 * <p>Lines are counted from 0 over the lane's life; an entry starting at line {@code a} is
 * published by storing {@code a + 1} into its header's sequence word with release, and the
 * consumer polls the sequence word of the line where it expects the next entry. An entry that
 * starts near the end of the lane's {@link #lines} lines runs on into an overflow area behind
 * them (one contiguous copy); the lines at the lane's start that it stands for still count as
 * used. A sequence word that an earlier lap's payload covered could hold any value, even the
 * one the consumer waits for: the producer clears it (in the same publication as the entry
 * before it) whenever the next entry's first line was not a header line before. To clear it
 * the producer needs that line consumed, so it keeps one line free: an entry of {@code k}
 * lines needs {@code k + 1} free lines.
 *
 * <p>A ping-pong would walk the whole lane, {@code lines} lines, before it came back to a line
 * either core still holds in its first-level cache. So the producer rewinds when the lane is
 * empty: every {@link ShmLayout#LANE_WINDOW} lines it reads the consumer's head, and if the
 * consumer has read everything, the next entry starts at the next lap's first line instead,
 * and a rewind mark, the negated sequence number the consumer expects, goes where it polls
 * (published after the entry); the lines between count as used. A request-reply exchange stays
 * in the lane's first lines; a stream, whose lane is not empty, uses all of it.
 *
 * <p>The producer side is used by one thread at a time (the device's lock per destination).
 */
final class ShmLane {

    private final MemorySegment lane;
    /** Lines of the lane, not counting the overflow area (a power of two). */
    private final int lines;
    private final int mask;
    /** Producer: for each line, true if a header's sequence word (or zero) is there, false if payload is. */
    private final boolean[] headerAt;
    /** Producer: the consumer's head as last read. */
    private long cachedHead;
    /** Producer: the first line of the next entry; consumer: the first line of the next entry to read. */
    private long mine;
    /** Producer: lines of the entry {@link #claimAt} returned. */
    private int claimed;
    /** Producer: the line where the entry {@link #claimAt} returned starts ({@link #mine}, or the next lap's first line). */
    private long start;
    /** Producer: the line from which the next claim looks whether the lane is empty (rewind); Long.MAX_VALUE: never. */
    private long nextLook;
    private final int window;

    ShmLane(MemorySegment file, long offset, boolean producer) {
        this(file, offset, producer, ShmLayout.LANE_WINDOW);
    }

    /** A lane whose producer looks whether to rewind every {@code window} lines (0: never). */
    ShmLane(MemorySegment file, long offset, boolean producer, int window) {
        this.lines = ShmLayout.LANE_LINES;
        this.mask = lines - 1;
        this.lane = file.asSlice(offset, ShmLayout.laneBytes());
        this.mine = ShmLayout.getLongAcquire(lane, 0);
        this.cachedHead = mine;
        this.headerAt = producer ? new boolean[lines] : null;
        this.window = window;
        // rewinding needs the entry to fit before the line it is skipped from (claimAt)
        this.nextLook = window > 0 && window >= ShmLane.linesFor(ShmLayout.LANE_MAX) + 1 && window * 4 <= lines
                ? (mine | mask) + 1 - lines + window : Long.MAX_VALUE;
        if (producer) {
            java.util.Arrays.fill(headerAt, true);   // the file starts zeroed: no word reads as a sequence number
        }
    }

    /** Lines of an entry with {@code payload} bytes. */
    static int linesFor(int payload) {
        return (LANE_ENTRY_HEADER + payload + LANE_LINE - 1) / LANE_LINE;
    }

    /** The lane's memory: entry offsets from {@link #claimAt} and {@link #peekAt} are relative to it. */
    MemorySegment segment() {
        return lane;
    }

    // ------------------------------------------------------------------ producer side

    /**
     * Offset of room for an entry with {@code payload} bytes (at most {@link ShmLayout#LANE_MAX}),
     * or -1 if the lane is too full. Fill it, then {@link #publish()}.
     */
    long claimAt(int payload) {
        int k = linesFor(payload);
        if (mine >= nextLook && ((int) mine & mask) >= window) {
            cachedHead = ShmLayout.getLongAcquire(lane, 0);
            if (cachedHead == mine) {
                // empty, at least window lines into the lap (> k): start again at the next lap's first line
                claimed = k;
                start = (mine | mask) + 1;
                return lineOffset(start);
            }
            nextLook = mine + window;
        }
        if (mine + k - cachedHead >= lines) {
            cachedHead = ShmLayout.getLongAcquire(lane, 0);
            if (mine + k - cachedHead >= lines) {
                return -1;
            }
        }
        claimed = k;
        start = mine;
        return lineOffset(mine);
    }

    /** Publishes the entry {@link #claimAt} returned: its header (but the sequence word) and payload must be written. */
    void publish() {
        int k = claimed;
        long from = mine;
        mine = start;
        int p = (int) mine & mask;
        int next = (int) (mine + k) & mask;
        if (!headerAt[next]) {
            // a payload word of an earlier lap could pass for the next entry's sequence number: clear it
            // (that line is consumed: the claim kept it free), published with this entry
            lane.set(java.lang.foreign.ValueLayout.JAVA_LONG, LANE_LINE + (long) next * LANE_LINE + L_SEQ, 0L);
            headerAt[next] = true;
        }
        headerAt[p] = true;
        for (int q = p + 1; q < p + k && q < lines; q++) {
            headerAt[q] = false;
        }
        long at = LANE_LINE + (long) p * LANE_LINE;
        mine += k;
        ShmLayout.setLongRelease(lane, at + L_SEQ, mine - k + 1);
        if (from != start) {
            // the rewind mark where the consumer polls (a header line: the entry before cleared it)
            ShmLayout.setLongRelease(lane, lineOffset(from) + L_SEQ, -(from + 1));
            nextLook = start + window;
        }
    }

    // ------------------------------------------------------------------ consumer side

    /** Offset of the next entry, or -1 if none is published yet. Read it, then {@link #release(int)}. */
    long peekAt() {
        long at = lineOffset(mine);
        long seq = ShmLayout.getLongAcquire(lane, at + L_SEQ);
        if (seq == mine + 1) {
            return at;
        }
        if (seq == -(mine + 1)) {
            // a rewind mark: the entry is at the next lap's first line (published before the mark)
            mine = (mine | mask) + 1;
            at = lineOffset(mine);
            return ShmLayout.getLongAcquire(lane, at + L_SEQ) == mine + 1 ? at : -1;
        }
        return -1;
    }

    /** True if an entry (or a rewind mark) waits; without side effects, for a look from outside the consumer's lock. */
    boolean ready() {
        long line = mine;
        long seq = ShmLayout.getLongAcquire(lane, lineOffset(line) + L_SEQ);
        return seq == line + 1 || seq == -(line + 1);
    }

    /** Frees the entry {@link #peekAt()} returned, of {@code k} lines, and publishes the head to the producer. */
    void release(int k) {
        mine += k;
        ShmLayout.setLongRelease(lane, 0, mine);
    }

    private long lineOffset(long line) {
        return LANE_LINE + (line & mask) * LANE_LINE;
    }
}
