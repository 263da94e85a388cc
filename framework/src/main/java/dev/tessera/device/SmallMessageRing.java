package dev.tessera.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A one-way ring of small eager messages from one sending thread into one receiving
 * rank's {@link MatchingEngine} (the smp device's message-rate path). The sender writes a
 * message into the next free slot and publishes it without touching the receiver's engine
 * or lock; the receiver moves published slots into its engine (matching them against its
 * posted receives, or queueing them as unexpected) whenever it takes its engine's lock:
 * every engine operation, and {@link MatchingEngine#poll()} from the waiting loop.
 *
 * <p>Layout (native memory, 64-byte aligned): line 0 holds the count of consumed slots
 * (written by consumers, read by the producer only when the ring looks full); then
 * {@code slots} slots of {@link #SLOT_BYTES} bytes (half a cache line), and after them an
 * overflow area of {@code maxEntrySlots - 1} slots. A message takes one entry of
 * {@code ceil((24 + bytes) / SLOT_BYTES)} consecutive slots, so two messages of up to 8 bytes
 * share a line and a receiver that drains a stream takes one line per two of them (stop 70);
 * the first slot holds the sequence number (8 bytes; {@code n + 1} once the
 * entry that starts at slot position {@code n} is written), tag, context, element type code,
 * byte count (4 bytes each), and the payload follows the header without a gap, across as many
 * lines as it needs. An entry that starts near the ring's end runs on into the overflow area
 * (so each entry is contiguous memory) while it still occupies the slot positions at the
 * ring's start in the producer's count of free slots: no wrap-around marker and no split copy.
 * A message therefore moves between the two cores as about the lines its header and payload
 * need (half a line for up to 8 bytes, 17 lines for 1 KiB), written once by the
 * sender and read once by the receiver, with no lock, queue or request line of the receiver
 * touched by the sender. Entries are at most {@link #maxPayload(int)} bytes.
 *
 * <p>Ordering: one producer thread per ring ({@link Producer#owner}); consumers hold the
 * receiving engine's lock, and every engine operation first drains the rings, so a message
 * a sender published before it matched another one directly under that lock (a large or
 * synchronous send, or a small one when the ring was full) is matched first: MPI's
 * non-overtaking order holds across both paths.
 */
public final class SmallMessageRing {

    /**
     * Bytes per slot: half a cache line ({@code tessera.smp.ringSlotBytes}, 32 or 64; 64 gives
     * every message lines of its own, as before stop 70).
     */
    static final int SLOT_BYTES = readSlotBytes();
    /** The consumed count's line, before the slots. */
    private static final int COUNT_LINE = 64;
    private static final int HEADER = 24;
    /** Payload bytes that fit in an entry's first slot, next to the header. */
    public static final int FIRST_SLOT_PAYLOAD = SLOT_BYTES - HEADER;
    /**
     * Largest payload of one entry unless {@code tessera.smp.ringMax} says otherwise; a ring of
     * {@code slots} slots further takes at most what fits in half of them ({@link #maxPayload(int)}).
     * 1 KiB: in the ping-pong on the Intel Xeon (2 vCPUs) 2 KiB entries were slower than the
     * locked path, whose payload goes straight into the posted receive's buffer (lines that the
     * receiver, which does not read them there, never takes over); at 1 KiB the ring is faster.
     */
    public static final int DEFAULT_MAX_PAYLOAD = 1024;
    /** Slots per ring unless {@code tessera.smp.ringSlots} says otherwise (a power of two): 8 KiB. */
    public static final int DEFAULT_SLOTS = 8192 / SLOT_BYTES;

    private static int readSlotBytes() {
        int bytes = Integer.getInteger("tessera.smp.ringSlotBytes", 32);
        if (bytes != 32 && bytes != 64) {
            throw new IllegalArgumentException("-Dtessera.smp.ringSlotBytes must be 32 or 64, got " + bytes);
        }
        return bytes;
    }

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final VarHandle COUNT = ValueLayout.JAVA_INT.varHandle();

    final int source;
    private final long mask;
    private final MemorySegment mem;
    /** Largest payload of one entry on this ring. */
    final int maxPayload;

    SmallMessageRing(int source, int slots, int maxPayload) {
        if (slots < 2 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("ring slots must be a power of two >= 2, got " + slots);
        }
        this.source = source;
        this.mask = slots - 1;
        this.maxPayload = Math.min(Math.max(maxPayload, FIRST_SLOT_PAYLOAD), maxPayload(slots));
        long overflow = entrySlots(this.maxPayload) - 1;
        this.mem = Arena.ofAuto().allocate(COUNT_LINE + (slots + overflow) * SLOT_BYTES, 64);
    }

    /**
     * The largest payload a ring of {@code slots} slots takes in one entry: what fits in half
     * its slots (at least one slot's worth), so a full-size entry never waits for the whole ring.
     */
    public static int maxPayload(int slots) {
        return Math.max(1, slots / 2) * SLOT_BYTES - HEADER;
    }

    /** Slots an entry of {@code bytes} payload bytes occupies (header included). */
    static int entrySlots(int bytes) {
        return (HEADER + bytes + SLOT_BYTES - 1) / SLOT_BYTES;
    }

    private static long slotOffset(long position, long mask) {
        return COUNT_LINE + (position & mask) * SLOT_BYTES;
    }

    /** True if a published slot waits to be consumed (a hint, read without the lock). */
    boolean ready() {
        long pos = (long) LONG.getAcquire(mem, 0L);
        return (long) LONG.getAcquire(mem, slotOffset(pos, mask)) == pos + 1;
    }

    /**
     * Moves published slots into {@code engine} (which matches or queues each, in order); the
     * caller holds the engine's lock. {@code posting}: a receive being posted and not queued yet
     * ({@link MatchingEngine#post}), which a message may match if no queued receive does; the
     * drain stops once it has (the slots after it stay on the ring, in order). Null for none.
     * Returns how many messages it consumed.
     */
    int drainInto(MatchingEngine engine, ReceiveRequest posting) {
        long start = (long) LONG.get(mem, 0L);
        long pos = start;
        int consumed = 0;
        while (posting == null || !posting.isComplete()) {
            long off = slotOffset(pos, mask);
            if ((long) LONG.getAcquire(mem, off) != pos + 1) {
                break;
            }
            int tag = mem.get(INT, off + 8);
            int context = mem.get(INT, off + 12);
            int typeCode = mem.get(INT, off + 16);
            int bytes = mem.get(INT, off + 20);
            engine.arriveSmall(source, tag, context, typeCode, bytes, mem, off + HEADER, posting);
            pos += entrySlots(bytes);
            consumed++;
        }
        if (pos != start) {
            LONG.setRelease(mem, 0L, pos); // the producer may reuse the slots
        }
        return consumed;
    }

    /** The sending side of a ring: used only by its owner thread. */
    public static final class Producer {

        private final SmallMessageRing ring;
        private final MemorySegment mem;
        private final long mask;
        private final long slots;
        /** The thread allowed to offer (the one that opened the ring). */
        public final Thread owner;
        private final MatchingEngine receiver;
        /** The receiver's sleeper count: a view made by the sending thread, so no object of the receiver is read. */
        private final MemorySegment sleeperCount;
        // The two words the owner writes per message sit between 128 bytes of padding on each side
        // (HotSpot lays out fields of one size in declaration order): the collector copies this
        // producer next to the objects it refers to, the ring and the receiver's engine, which the
        // receiving thread reads on every poll; sharing a line with these writes would add a line
        // miss to each message's path on the receiving side.
        @SuppressWarnings("unused") private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
        private long produced;
        private long limit;
        @SuppressWarnings("unused") private long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
        /** Largest payload {@link #offer} takes. */
        public final int maxPayload;
        /**
         * Per slot, at index {@code COVERED_PAD + slot}: its sequence word holds payload bytes of an
         * earlier entry ({@link #guardNextHeader}). Written for multi-slot entries only; the pad of
         * 128 entries on each side keeps those writes off the lines of neighbouring objects.
         */
        private final boolean[] covered;
        private static final int COVERED_PAD = 128;

        Producer(SmallMessageRing ring, Thread owner, MatchingEngine receiver) {
            this.ring = ring;
            this.receiver = receiver;
            this.sleeperCount = receiver.sleeperCount.asSlice(0, 4);
            this.mem = ring.mem;
            this.mask = ring.mask;
            this.slots = mask + 1;
            this.owner = owner;
            this.limit = slots;
            this.maxPayload = ring.maxPayload;
            this.covered = new boolean[(int) slots + 2 * COVERED_PAD];
        }

        /**
         * Publishes a message of at most {@link #maxPayload} bytes; false if the ring has not
         * enough free slots for it (the caller then takes the engine's locked path, which drains
         * the ring). Header and payload go first, into the entry's consecutive lines; the
         * sequence number in its first line is written last, as a volatile store (a full fence:
         * the message is visible before the caller looks whether the receiver sleeps). A release
         * store with the fence moved into the receiver's way into a park (membarrier) was tried
         * in stop 37 and A/B tested on the AMD EPYC and Intel Xeon kinds: not faster, removed.
         */
        public boolean offer(int tag, int context, int typeCode, MemorySegment payload, int bytes) {
            if (bytes > maxPayload) {
                throw new IllegalArgumentException(bytes + " bytes on a ring that takes at most " + maxPayload);
            }
            long p = produced;
            long end = p + entrySlots(bytes);
            if (end > limit) {
                limit = (long) LONG.getAcquire(mem, 0L) + slots;
                if (end > limit) {
                    return false;
                }
            }
            long off = slotOffset(p, mask);
            mem.set(INT, off + 8, tag);
            mem.set(INT, off + 12, context);
            mem.set(INT, off + 16, typeCode);
            mem.set(INT, off + 20, bytes);
            if (bytes == Long.BYTES) {
                mem.set(ValueLayout.JAVA_LONG_UNALIGNED, off + HEADER, payload.get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
            } else if (bytes > 0) {
                MemorySegment.copy(payload, 0, mem, off + HEADER, bytes);
            }
            guardNextHeader(p, end);
            LONG.setVolatile(mem, off, p + 1);
            produced = end;
            return true;
        }

        /**
         * Marks the slots whose sequence word this entry's payload has just covered, and clears
         * the sequence word of the slot where the next entry will start if a payload covered it
         * in an earlier lap. A consumer looks at a sequence word only at the position right after
         * the last entry it consumed, waiting for {@code position + 1}; a payload word left there
         * could hold exactly that value and pass for a published entry. The clear comes before
         * this entry's publication, so the consumer, which looks there only after it has seen
         * the publication, finds zero or an old header's (smaller) number until the next entry
         * is published. Only this thread reads and writes {@link #covered}; streams of one-slot
         * entries, and multi-slot ones that keep starting in the same slots, never clear.
         */
        private void guardNextHeader(long p, long end) {
            int first = COVERED_PAD + (int) (p & mask);
            if (covered[first]) {
                covered[first] = false;
            }
            for (int k = first + 1, last = COVERED_PAD + (int) Math.min((p & mask) + (end - p) - 1, mask); k <= last; k++) {
                if (!covered[k]) {
                    covered[k] = true;
                }
            }
            int next = COVERED_PAD + (int) (end & mask);
            if (covered[next]) {
                covered[next] = false;
                LONG.set(mem, slotOffset(end, mask), 0L);
            }
        }

        /**
         * After an offer: unparks the receiving rank's threads that sleep in a wait, if any.
         * Reads only the receiver's sleeper count (a line of its own), never the receiving
         * engine's object, whose line the receiver writes with every lock.
         */
        public void wakeReceiver() {
            if ((int) COUNT.getVolatile(sleeperCount, 0L) != 0) {
                receiver.wakeSleepers();
            }
        }

        int source() {
            return ring.source;
        }
    }
}
