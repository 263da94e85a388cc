package dev.tessera.comm;

import dev.tessera.device.NodeRegion;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Shared-memory collectives of a communicator whose ranks all map one region of shared
 * memory ({@link NodeRegion}, offered by the shm and smp devices): barrier, bcast, reduce, allreduce,
 * allgather and alltoall move their data through per-rank slots and synchronize through
 * sequence numbers in those slots, as Open MPI's coll/sm does, instead of point-to-point
 * messages.
 *
 * <p>Layout. Member {@code j} owns a live line, {@link NodeRegion#LANE} lane entries of two
 * cache lines (its header lines) and {@link NodeRegion#DEPTH} data slots; its k-th flagged call
 * (k = 1, 2, ...) uses header line k mod LANE, and, if its data does not fit that entry
 * ({@link NodeRegion#LINE_DATA} bytes, or half a slot if less), data slot k mod DEPTH:
 * <pre>
 * live line of j at 64 j
 *   0   long  2 (index + 1) for j's latest collective call on the communicator that does not go
 *             through the slots (0: none yet); a closing rank writes an index past all calls
 *   8   long  the flagged call k of j's latest result share of a split reduction (see Chunks)
 * header line (j, k mod LANE) at 64 members + 128 (LANE j + k mod LANE)
 *   0   long  k, written last (release)
 *   8   long  count       } the call's signature
 *  16   int   call index (low 32 bits)
 *  20   int   root
 *  24   short call code, 26 short element type, 28 int operation
 *  32   data of up to 96 bytes: a call with up to 32 moves one cache line
 * data slot (j, k mod DEPTH) at 64 members (1 + 2 LANE) + (DEPTH j + k mod DEPTH) stride
 *   0   data of more than 1024 bytes (or half a slot), up to slotBytes
 * middle slot (j, k mod MID_DEPTH) at 64 members (1 + 2 LANE) + DEPTH members stride + (MID_DEPTH j + k mod MID_DEPTH) 4096
 *   0   data of more than 96 bytes, up to 1024 (or half a slot)
 * </pre>
 * Which of the two holds a call's data follows from the number of bytes the writer put into
 * it, which every reader knows (the root's count for a bcast, the vector for a reduction...).
 *
 * <p>Protocol. A flagged call k first waits until every member has started its call
 * k - AHEAD (AHEAD = 32 by default where ranks spin, 128 where they sleep, see {@link #ahead}; with data in a data slot
 * k - DEPTH + LAG + 1, in a middle slot k - MID_DEPTH + LAG + 1 or k - AHEAD, whichever is later): a member reads a peer's data of call m during its own call m or m + 1
 * (the result shares of a split reduction), and its right neighbour's header line for the
 * deferred agreement check until it starts its call m + AHEAD at the latest (CHECK_LAG =
 * AHEAD - 1); a writer reuses a line LANE calls later, after every member started call
 * m + LANE - AHEAD >= m + LANE / 2 >= m + AHEAD. So a rank can run up to DEPTH - LAG - 1
 * calls ahead of the slowest in calls with data slots, and in calls whose data fits a lane
 * entry up to AHEAD ahead of the slowest and of its right neighbour, as a
 * bcast root does in a loop (on an oversubscribed node a descheduled member then holds it
 * up once per many calls, not every few). It writes its contribution and signature, then
 * the sequence number (release), and rings the members that sleep. A reader waits for the
 * line's sequence number to reach k (acquire) and reads the call: for a small message, one
 * cache line moves from the writer's core to the reader's.
 *
 * <p>Agreement check ({@link CollectiveCheck}) without any message: a rank compares the
 * signature of every member whose slot it reads (the root for a bcast, every member for
 * allreduce and barrier), and its right ring neighbour's otherwise: left pending at the end
 * of the call (the neighbour may still be in it: reading its line then would pull it back
 * and forth on every call), and compared in a batch when a later call needs the line's
 * reuse (CHECK_LAG calls later), in a blocking wait, at free or at close. Every collective call draws an index in program
 * order ({@link Comm#nextCollectiveIndex}); a flagged call writes its index into its slot's
 * signature, a call that does not go through the slots (nonblocking, vector and object
 * collectives) writes it into the live line. A rank that waits for a member's slot k
 * therefore stops with the mismatch error, never hangs, when that member made another kind
 * of call at that index or went past it (or closed), and with the job's error when a member dies. Calls whose data does not fit a
 * slot (or with a forced algorithm) still publish their slot's signature and sequence, and
 * run the point-to-point algorithms with this check.
 *
 * <p>Chunks. A reduce or allreduce vector larger than a slot goes through the slots as
 * several flagged calls, one chunk of whole elements each, all with the call's index and
 * signature: the slot protocol above pipelines them, and a mismatch shows at the first
 * chunk. The combine of each chunk is split between the ranks ({@link #split}): member j
 * combines elements [share(j), share(j + 1)) of the chunk from every slot, in rank order,
 * writes the result over that part of its own slot (which no other member reads) and
 * publishes its done word (live line + 8); the root of a reduce, or every rank of an
 * allreduce, copies the other members' parts once their done words reach the chunk's call.
 * Those parts are read during the reader's next call at the latest, within the LAG above.
 * Bcast data and allgather blocks larger than a slot go through the slots the same way, a
 * slot's worth of bytes per flagged call ({@link #chunksLarge}). A two-rank reduce of a
 * symmetric operation larger than a slot is not split: the root folds the other's chunks
 * straight into its result ({@link #pairReduceChunks}).
 */
final class NodeCollectives {

    private static final int DEPTH = NodeRegion.DEPTH;
    private static final int LANE = NodeRegion.LANE;
    private static final int MID_DEPTH = NodeRegion.MID_DEPTH;
    private static final int LINE = NodeRegion.LINE_BYTES;
    private static final int SEQ = 0;
    private static final int SIG = 8;
    private static final int DATA = NodeRegion.SLOT_HEADER;
    /** In a member's live line: the flagged call of its latest result share of a split reduction ({@link #split}). */
    private static final int DONE = 8;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Comm comm;
    private final NodeRegion region;
    /** Smallest copy that goes the region's way ({@link NodeRegion#bulkCopyFrom}); smaller ones take {@link MemorySegment#copy}. */
    private final long bulkFrom;
    private final MemorySegment mem;
    private final int p;
    private final int me;
    private final long slot;
    private final long stride;
    private final long linesAt;
    /**
     * Data bytes a call may put into its lane entry: {@link NodeRegion#LINE_DATA}, or half a slot
     * if less (tiny test slots: calls of more than half a slot still use the data slots).
     */
    private final long lineData;
    private final long slotsAt;
    /** Data bytes a call may put into a middle slot: {@link NodeRegion#MID_BYTES}, or half a slot if less. */
    private final long midData;
    private final long midsAt;
    private final int[] worldOf;
    /** Per member: the highest sequence number seen in its slots (so a met condition is not read again). */
    private final long[] seen;
    /**
     * Calls a reader may lag behind in reading a peer's data slot: a rank reads a peer's data of
     * call m during its call m or m + 1 at the latest, so a writer reuses the data slot of call
     * k - DEPTH once every member has started call k - DEPTH + LAG + 1.
     */
    private static final int LAG = 3;
    /**
     * Calls a reader may lag behind in reading a peer's header line (CHECK_LAG = AHEAD - 1): it
     * compares its right neighbour's line of call m before it starts its call m + CHECK_LAG + 1.
     */
    private final int checkLag;
    /** Calls whose data fits a lane entry may run this many calls ahead of the slowest member (AHEAD). */
    private final int ahead;

    /** Default run-ahead where the ranks spin in their waits (see {@link #ahead}). */
    static final int SPIN_AHEAD = 32;

    /**
     * The run-ahead of calls whose data fits a lane entry: TESSERA_SHM_COLL_AHEAD (or the system
     * property tessera.shm.coll.ahead), 1 to LANE / 2; by default LANE / 2 where the ranks'
     * waiting threads sleep (oversubscribed nodes, TESSERA_WAIT=block: a descheduled member then
     * holds the others up once per many calls; 4 shm ranks on 2 cores, 8-byte bcast 0.33-0.35 us
     * at 128 ahead against 0.45-0.49 at 32, docs/performance.md, stop 59) and {@link #SPIN_AHEAD}
     * where they spin (with two spinning ranks on a quiet machine a bcast root or reduce
     * contributor four calls ahead waited for the reader's progress, one round trip between cores
     * per four calls; 32 removed that, docs/performance.md, 2026-11-29). Ranks may differ: a writer
     * reuses a line LANE calls later, once every member started call m + LANE - AHEAD >= m + LANE / 2,
     * and a reader compares its neighbour's line m before it starts its call m + AHEAD <= m + LANE / 2.
     */
    private static int ahead(int rank, boolean waitsBlock) {
        String v = System.getProperty("tessera.shm.coll.ahead", System.getenv().getOrDefault("TESSERA_SHM_COLL_AHEAD", ""));
        if (v.isEmpty()) {
            return waitsBlock ? LANE / 2 : Math.min(SPIN_AHEAD, LANE / 2);
        }
        try {
            int a = Integer.parseInt(v.trim());
            if (a >= 1 && a <= LANE / 2) {
                return a;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new dev.tessera.TesseraException(dev.tessera.ErrorClass.ARG, "rank " + rank + ": TESSERA_SHM_COLL_AHEAD / tessera.shm.coll.ahead: '"
                + v + "' is not a whole number from 1 to " + LANE / 2);
    }
    /** Flagged calls started by this rank, and the call index and signature of each of the last LANE. */
    private long seq;
    private final long[] indexOf = new long[LANE];
    private final CollectiveCheck.Signature[] signatureOf = new CollectiveCheck.Signature[LANE];
    /** Calls up to this one are compared with the right neighbour's; calls up to rightTo need to be. */
    private long rightChecked;
    private long rightTo;
    /** Calls whose data moved through the slots (diagnostics: {@link Comm#sharedMemoryCollectiveCalls}). */
    private final java.util.concurrent.atomic.AtomicLong slotCalls = new java.util.concurrent.atomic.AtomicLong();
    /** Whether the agreement check is on (read at each call: the tuning may change it on every rank). */
    private boolean checking;
    /**
     * Whether one thread at a time calls into this rank (thread levels below MULTIPLE: SINGLE and
     * FUNNELED reject other threads, SERIALIZED has the application order its calls). Then the
     * right-neighbour range is kept without the lock: a lock is two locked instructions per
     * call, and each waits until this call's stores into its lane line (whose previous content a
     * peer holds in its cache) have taken the line back, so a rank could not run ahead of that
     * transfer. With MULTIPLE a thread blocked in a wait may complete the deferred comparisons
     * while another makes a collective call, and the range is kept under the lock.
     */
    private final boolean serial;

    NodeCollectives(Comm comm, NodeRegion region) {
        this.comm = comm;
        this.region = region;
        this.mem = region.memory();
        this.bulkFrom = region.bulkCopyFrom();
        this.p = comm.size();
        this.me = comm.rank();
        this.slot = region.slotBytes();
        this.stride = NodeRegion.slotStride(region.slotBytes());
        this.linesAt = (long) p * NodeRegion.LIVE_BYTES;
        this.lineData = Math.min(NodeRegion.LINE_DATA, region.slotBytes() / 2);
        this.slotsAt = linesAt + (long) p * LANE * LINE;
        this.midData = Math.min(NodeRegion.MID_BYTES, region.slotBytes() / 2);
        this.midsAt = slotsAt + (long) p * DEPTH * stride;
        this.worldOf = new int[p];
        for (int j = 0; j < p; j++) {
            worldOf[j] = comm.group.worldRank(j);
        }
        this.seen = new long[p];
        this.ahead = ahead(comm.rank(), region.waitsBlock());
        this.checkLag = ahead - 1;
        this.serial = comm.env.threadLevel != ThreadLevel.MULTIPLE;
    }

    /**
     * Copies between a rank's buffer and the region: pieces of {@link #bulkFrom} bytes or more
     * through {@link NodeRegion#copy} (the shm device's memcpy), smaller ones straight through
     * {@link MemorySegment#copy}, as before that path existed (with every copy through the region,
     * 8-byte bcasts on 4 shm ranks on 2 cores ran 1.45-2.11x Open MPI against 1.13-2.15x, 7 rounds).
     */
    private void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
        if (bytes >= bulkFrom) {
            region.copy(src, srcOffset, dst, dstOffset, bytes);
        } else {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
        }
    }

    /** Whether this rank's waits sleep (oversubscribed node or TESSERA_WAIT=block): see {@link NodeRegion#waitsBlock}. */
    boolean waitsBlock() {
        return region.waitsBlock();
    }

    long slotCalls() {
        return slotCalls.get();
    }

    /** One more call through the slots: collective calls on a communicator are made one at a time, so no atomic add. */
    private void countSlotCall() {
        slotCalls.setRelease(slotCalls.getPlain() + 1);
    }

    /**
     * Whether bcast ({@code bcast} true) or allgather data of {@code bytes} per rank, larger
     * than a slot, goes through the slots in chunks ({@code tessera.shm.coll.chunks}:
     * {@code auto}, the default: always, but a two-rank bcast only from {@link #BCAST_CHUNKS_FROM}
     * bytes; {@code on}; {@code off}). With 16 KiB slots the point-to-point algorithms were faster
     * on two ranks for allgather and for bcast below 256 KiB (stop 39); with the 64 KiB slots (the
     * default since 2026-11-29) the chunks were faster on two ranks of the Intel Xeon for both (3
     * alternating rounds, p50 us: bcast 128 KiB 10-12 against 22-46, allgather 128 KiB 30-31 against
     * 105-133, 256 KiB 57-66 against 100-222). Depends only on values every rank shares (the
     * call's size, the communicator's size, the properties, which must be the same on every rank).
     */
    boolean chunksLarge(boolean bcast, long bytes) {
        return switch (CHUNKS) {
            case "on" -> true;
            case "auto" -> p > 2 || !bcast || bytes >= BCAST_CHUNKS_FROM;
            default -> false;
        };
    }

    private static final String CHUNKS = System.getProperty("tessera.shm.coll.chunks", "auto");
    /**
     * From this many bytes an allreduce on more than two ranks is split into shares even when it fits a slot
     * (tessera.shm.coll.splitFrom; every rank must be given the same value).
     */
    static final long SPLIT_FROM = Long.getLong("tessera.shm.coll.splitFrom", 16 * 1024);

    /**
     * Smallest two-rank bcast that {@code auto} sends through the slots in chunks
     * ({@code tessera.shm.coll.bcastChunksFrom}, bytes; default 0: every bcast larger than a slot;
     * it was 256 KiB with the 16 KiB slots).
     */
    static final long BCAST_CHUNKS_FROM = Long.getLong("tessera.shm.coll.bcastChunksFrom", 0);

    /** Bytes one rank can contribute to a call through the slots. */
    long slotBytes() {
        return slot;
    }

    private static long live(int j) {
        return (long) j * NodeRegion.LIVE_BYTES;
    }

    /** Where member j's header line of its call k starts (the sequence number, then the signature). */
    private long lineAt(int j, long k) {
        return linesAt + ((long) j * LANE + (int) (k % LANE)) * LINE;
    }

    /**
     * Where member j's data of its call k starts, for a call that puts {@code bytes} bytes into
     * its slot (every member knows how many the writer put): in the lane entry up to
     * {@link #lineData} bytes, else up to {@link #midData} in its middle slot of call k, else in its data slot of call k.
     */
    private long dataAt(int j, long k, long bytes) {
        if (bytes <= lineData) {
            return lineAt(j, k) + DATA;
        }
        if (bytes <= midData) {
            return midsAt + ((long) j * MID_DEPTH + (int) (k % MID_DEPTH)) * NodeRegion.MID_STRIDE;
        }
        return slotsAt + ((long) j * DEPTH + (int) (k % DEPTH)) * stride;
    }

    private static long live(long callIndex, boolean flagged) {
        return ((callIndex + 1) << 1) | (flagged ? 1 : 0);   // flagged calls do not write it today
    }

    /** A collective call at {@code callIndex} that does not go through the flags (see the class comment). */
    void announceUnflagged(long callIndex) {
        LONG.setRelease(mem, live(me), live(callIndex, false));
        region.wake();
    }

    /**
     * The rank closes: a member that waits for a slot this rank did not publish stops with the
     * mismatch error. Not in a failed job (its members report its failure).
     */
    void announceClosed() {
        try {
            comm.device().checkHealthy();
        } catch (RuntimeException failed) {
            return;   // a failed job: the members must see its failure, not a missing call
        }
        // a rank whose main ends by an exception closes before reporting it: the waiters tell the two apart
        // ({@link #reached}) by waiting until its process has exited, when the failure is in the job's state
        LONG.setRelease(mem, live(me), live(Long.MAX_VALUE / 4, false));
        region.wake();
    }

    /** The last call name looked up and its code (names are constants: one map lookup per kind of call). */
    private record CallCode(String call, short code) {
    }

    private CallCode lastCode = new CallCode("", (short) -1);

    private short callCode(CollectiveCheck.Signature signature) {
        CallCode c = lastCode;   // one immutable pair: safe to read from a thread that completes a deferred check
        if (c.call() != signature.call()) {
            c = new CallCode(signature.call(), (short) CollectiveCheck.callCode(signature.call()));
            lastCode = c;
        }
        return c.code();
    }

    /**
     * The call index of this rank's flagged call {@code k} (one of its last LANE). The
     * collectives carry a call as its sequence number k, not as an object: an object per call
     * that the JIT could not keep in registers (it went through {@code start}, {@code publish}
     * and {@code commit}) was a 32-byte allocation on every call (docs/performance.md, stop 65).
     */
    private long callIndexOf(long k) {
        return indexOf[(int) (k % LANE)];
    }

    /**
     * Starts a flagged call: waits until every member has started the previous one, writes
     * {@code data} (if not null) into this rank's slot, then the signature and the sequence.
     */
    long start(CollectiveCheck.Signature signature, MemorySegment data) {
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        return publish(callIndex, signature, data);
    }

    /**
     * Publishes this rank's next flagged call (a whole call, or one chunk of a call whose data
     * goes through the slots in several: every chunk carries the call's index and signature).
     */
    private long publish(long callIndex, CollectiveCheck.Signature signature, MemorySegment data) {
        return publish(callIndex, signature, data, 0, 0);
    }

    /** As above, leaving bytes {@code skipFrom} to {@code skipTo} of {@code data} out of the slot (nobody reads them). */
    private long publish(long callIndex, CollectiveCheck.Signature signature, MemorySegment data, long skipFrom,
            long skipTo) {
        long bytes = data == null ? 0 : data.byteSize();
        long k = reserve(signature, bytes);
        if (bytes > 0) {
            long to = dataAt(me, k, bytes);
            if (skipTo > skipFrom) {
                copy(data, 0, mem, to, skipFrom);
                copy(data, skipTo, mem, to + skipTo, bytes - skipTo);
            } else {
                copy(data, 0, mem, to, bytes);
            }
        }
        return commit(k, callIndex, signature);
    }

    /**
     * The first half of {@link #publish}: waits until this rank may write its next flagged call,
     * which puts {@code bytes} bytes into its slot (every member has started the call that last
     * used the line or data slot, and the right neighbour's calls whose line is reused are
     * compared), and returns that call's sequence number k. The caller writes its data at
     * {@code dataAt(me, k, bytes)}, then {@link #commit}s.
     */
    private long reserve(CollectiveCheck.Signature signature, long bytes) {
        long k = seq + 1;
        if (rightChecked < k - checkLag - 1 && rightTo > rightChecked) {
            long upTo = Math.min(rightTo, k - checkLag - 1);   // its line may be reused once this call is published
            if (serial) {
                awaitCompared(upTo);
            } else {
                verifyRight(upTo);
            }
            verifyRightPublished();   // and the later ones already there, in one batch of reads
        }
        // every member must have started this call: then line k (and data slot k) is read by nobody
        long free = bytes <= lineData ? k - ahead
                : bytes <= midData ? Math.max(k - MID_DEPTH + LAG + 1, k - ahead) : k - DEPTH + LAG + 1;
        if (free >= 1) {
            for (int j = 0; j < p; j++) {
                if (j != me) {
                    await(j, free, indexOf[(int) (free % LANE)], signature, false);
                }
            }
        }
        return k;
    }

    /** The second half of {@link #publish}: call {@code k}'s signature, then its sequence number (release), then the wake-ups. */
    private long commit(long k, long callIndex, CollectiveCheck.Signature signature) {
        seq = k;
        int lane = (int) (k % LANE);
        indexOf[lane] = callIndex;
        if (signatureOf[lane] != signature) {
            signatureOf[lane] = signature;   // a loop of calls repeats one signature (Collectives#signature): no store
        }
        long at = lineAt(me, k);
        mem.set(ValueLayout.JAVA_LONG, at + SIG, signature.count());
        mem.set(ValueLayout.JAVA_INT, at + SIG + 8, (int) callIndex);
        mem.set(ValueLayout.JAVA_INT, at + SIG + 12, signature.root());
        mem.set(ValueLayout.JAVA_SHORT, at + SIG + 16, callCode(signature));
        mem.set(ValueLayout.JAVA_SHORT, at + SIG + 18, (short) signature.type());
        mem.set(ValueLayout.JAVA_INT, at + SIG + 20, signature.op());
        LONG.setRelease(mem, at + SEQ, k);
        region.wake();
        return k;
    }

    /**
     * Waits until member {@code j} has started its flagged call {@code k} (this rank's call
     * {@code k} has index {@code myIndex}), then, if {@code compare} and the check is on,
     * compares its signature with {@code mine}.
     */
    private void await(int j, long k, long myIndex, CollectiveCheck.Signature mine, boolean compare) {
        if (seen[j] < k && !reached(j, k, myIndex, mine)) {
            // while waiting, the pending comparisons with the right neighbour too: a mismatch there may be
            // what keeps j from coming (it made a nonblocking call where this rank made a blocking one)
            if (serial) {
                waiter.set(j, k, myIndex, mine);
                region.awaitUntil(waiter, worldOf[j]);
            } else {
                region.awaitUntil(() -> compareArrivedWhileWaiting() && reachedWhileWaiting(j, k, myIndex, mine), worldOf[j]);
            }
        }
        if (compare && checking) {
            compare(j, k, myIndex, mine);
        }
    }

    /**
     * The condition of {@link #await}'s wait, one object for all of this rank's waits where its
     * calls are {@link #serial} (a lambda capturing the wait's values was an allocation per wait:
     * on 4 ranks on 2 cores, where most calls wait, 40 bytes a call; docs/performance.md, stop 65).
     */
    private final class Waiter implements java.util.function.BooleanSupplier {
        private int j;
        private long k;
        private long myIndex;
        private CollectiveCheck.Signature mine;

        void set(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
            this.j = j;
            this.k = k;
            this.myIndex = myIndex;
            this.mine = mine;
        }

        @Override
        public boolean getAsBoolean() {
            return compareArrivedWhileWaiting() && reachedWhileWaiting(j, k, myIndex, mine);
        }
    }

    private final Waiter waiter = new Waiter();

    /**
     * Whether member {@code j} has started its flagged call {@code k}; throws the mismatch
     * error if its live word shows that it made another kind of call at this rank's index
     * {@code myIndex}, or went past it without a flag.
     */
    boolean reached(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        if (seen[j] >= k) {
            return true;
        }
        long s = (long) LONG.getAcquire(mem, lineAt(j, k) + SEQ);
        if (s >= k) {
            seen[j] = s;
            return true;
        }
        return arrivedAfterAll(j, k, myIndex, mine);
    }

    /**
     * {@link #reached} for a wait's poll loop, with branches of its own. The JIT keeps one branch
     * profile per method: through {@link #reached}, called first on every call, a member is
     * nearly always there already, and compiled code without the "not there" path then trapped
     * (and was thrown away) when a poll loop that had inlined it met the case it polls for, at
     * the start of a timed part as often as not (docs/npb.md, stop 58). Here "not there" is the
     * common case and "there" ends every wait, so both are in the profile.
     */
    private boolean reachedWhileWaiting(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        long s = Math.max(seen[j], (long) LONG.getAcquire(mem, lineAt(j, k) + SEQ));
        if (s < k) {
            return arrivedAfterAll(j, k, myIndex, mine);
        }
        seen[j] = s;
        return true;
    }

    /**
     * Member {@code j} had not started its flagged call {@code k} at the last read of its slot:
     * reads its live word, then the sequence again (a live word written after the slot implies
     * the slot); true if the call has started meanwhile, false if not yet, and the mismatch
     * error if the live word shows another kind of call at this rank's index or one past it.
     */
    private boolean arrivedAfterAll(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        long live = (long) LONG.getAcquire(mem, live(j));
        long s = (long) LONG.getAcquire(mem, lineAt(j, k) + SEQ);
        if (s >= k) {
            seen[j] = s;
            return true;
        }
        long theirs = (live >> 1) - 1;
        if (live != 0 && (theirs > myIndex || theirs == myIndex && (live & 1) == 0)) {
            boolean closed = theirs > Long.MAX_VALUE / 8;
            if (closed && !region.memberExited(worldOf[j])) {
                // a rank closes its session before the exception that ends its main is reported: wait until its
                // process is gone, by then a failure it reports is in the job's state (checked next)
                return false;
            }
            comm.device().checkHealthy();   // a job that failed reports its failure, not what it left undone
            throw CollectiveCheck.mismatch(comm, mine, j, new String[] {"made",
                    mine.call() + " as its collective call number " + (myIndex + 1) + " on this communicator",
                    closed ? "no such call before it closed"
                            : "another kind of collective call (nonblocking, vector or object) as its number "
                            + (Math.min(theirs, myIndex) + 1)});
        }
        return false;
    }

    /** Compares member {@code j}'s signature of call {@code k} with this rank's (aborting the job on a mismatch). */
    private void compare(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        long s = lineAt(j, k) + SIG;
        int theirIndex = mem.get(ValueLayout.JAVA_INT, s + 8);
        if (mem.get(ValueLayout.JAVA_LONG, s) == mine.count() && mem.get(ValueLayout.JAVA_INT, s + 12) == mine.root()
                && mem.get(ValueLayout.JAVA_SHORT, s + 16) == callCode(mine)
                && mem.get(ValueLayout.JAVA_SHORT, s + 18) == (short) mine.type()
                && mem.get(ValueLayout.JAVA_INT, s + 20) == mine.op() && theirIndex == (int) myIndex) {
            return;   // the common case, without allocating the peer's signature
        }
        CollectiveCheck.Signature other = new CollectiveCheck.Signature(
                CollectiveCheck.callName(mem.get(ValueLayout.JAVA_SHORT, s + 16)),
                mem.get(ValueLayout.JAVA_SHORT, s + 18), mem.get(ValueLayout.JAVA_LONG, s),
                mem.get(ValueLayout.JAVA_INT, s + 12), mem.get(ValueLayout.JAVA_INT, s + 20));
        if (mine.difference(other) != null) {
            throw CollectiveCheck.mismatch(comm, mine, j, other);
        }
        if (theirIndex != (int) myIndex) {
            throw CollectiveCheck.mismatch(comm, mine, j, new String[] {"made", mine.call() + " as its collective call number "
                    + (myIndex + 1) + " on this communicator", "it as its number " + (Integer.toUnsignedLong(theirIndex) + 1)
                    + " (the ranks made different numbers of collective calls before it)"});
        }
    }

    /** The agreement check of {@code call} against the right ring neighbour, by its flag. */
    CollectiveCheck rightCheck(long k, CollectiveCheck.Signature signature) {
        return new CollectiveCheck(comm, signature, this, (me + 1) % p, k, callIndexOf(k));
    }

    /** Waits for member {@code j}'s flag of call {@code k} and compares (the flag mode of {@link CollectiveCheck}). */
    void verify(int j, long k, long myIndex, CollectiveCheck.Signature mine) {
        await(j, k, myIndex, mine, true);
    }

    /**
     * Ends call {@code k}, which compared with {@code compared} (-1: nobody; Integer.MAX_VALUE: every
     * member): unless that included the right neighbour, its comparison is made now if its
     * slot is there, else left pending ({@link #tryVerifyRight}, {@link #verifyRight}).
     */
    private void finish(long k, int compared) {
        boolean deferred;
        if (serial) {
            deferred = settle(k, compared);
        } else {
            synchronized (this) {
                deferred = settle(k, compared);
            }
        }
        if (deferred) {
            // left pending without reading the neighbour's slot now: while it is still in its call, that read would
            // pull its line back and forth on every call; the next calls compare in batches (publish), at the latest
            // LAG calls later, and so do a blocking wait, free and close
            comm.deferNodeCheck();
        }
    }

    /**
     * The right-neighbour range at the end of call {@code k} (see {@link #finish}); true when
     * its comparison is left pending. Under the lock, or without it where only one thread at
     * a time calls into the rank ({@link #serial}).
     */
    private boolean settle(long k, int compared) {
        int right = (me + 1) % p;
        // every call up to rightTo is compared (again, if it was already) by the range below; rightTo is
        // always the latest call once any is pending, so no call's slot is compared after its reuse
        if (!checking || (compared == right || compared == Integer.MAX_VALUE) && rightChecked == k - 1) {
            rightChecked = k;
            rightTo = k;
            return false;
        }
        rightTo = k;
        return true;
    }

    /** Compares the right neighbour's pending calls whose slots are published, reading nothing else. */
    private void verifyRightPublished() {
        if (serial) {
            comparePublished();
        } else {
            synchronized (this) {
                comparePublished();
            }
        }
    }

    private void comparePublished() {
        int right = (me + 1) % p;
        while (rightChecked < rightTo) {
            long m = rightChecked + 1;
            long s = seen[right] >= m ? seen[right] : (long) LONG.getAcquire(mem, lineAt(right, m) + SEQ);
            if (s < m) {
                return;
            }
            seen[right] = Math.max(seen[right], s);
            compare(right, m, indexOf[(int) (m % LANE)], signatureOf[(int) (m % LANE)]);
            rightChecked = m;
        }
    }

    /**
     * Compares the right neighbour's pending calls whose slots are there; true when none is
     * left pending. Any thread of the rank may call it (a blocking wait completes deferred checks).
     */
    synchronized boolean tryVerifyRight() {
        return compareArrived();
    }

    /**
     * In a wait: compares the right neighbour's pending calls that have arrived (a mismatch
     * throws), and is always true. The wait never waits for the rest: the neighbour may be held
     * up by this rank's progress (a reduce root that waits, outside the collectives, for a
     * contributor running up to AHEAD calls ahead), and requiring all of them deadlocked that
     * case (stop 44's CI).
     */
    private boolean compareArrivedWhileWaiting() {
        if (rightTo > rightChecked) {
            tryVerifyRightHere();
        }
        return true;
    }

    /** {@link #tryVerifyRight} from the thread in this rank's collective call: without the lock where {@link #serial}. */
    private boolean tryVerifyRightHere() {
        return serial ? compareArrived() : tryVerifyRight();
    }

    private boolean compareArrived() {
        int right = (me + 1) % p;
        while (rightChecked < rightTo) {
            long m = rightChecked + 1;
            CollectiveCheck.Signature mine = signatureOf[(int) (m % LANE)];
            long myIndex = indexOf[(int) (m % LANE)];
            if (!reached(right, m, myIndex, mine)) {
                return false;
            }
            compare(right, m, myIndex, mine);
            rightChecked = m;
        }
        return true;
    }

    /** Waits for and compares the right neighbour's pending calls up to {@code upTo} (all pending: Long.MAX_VALUE). */
    synchronized void verifyRight(long upTo) {
        awaitCompared(upTo);
    }

    private void awaitCompared(long upTo) {
        int right = (me + 1) % p;
        long last = Math.min(upTo, rightTo);
        while (rightChecked < last) {
            long m = rightChecked + 1;
            await(right, m, indexOf[(int) (m % LANE)], signatureOf[(int) (m % LANE)], true);
            rightChecked = m;
        }
    }

    /** Waits for every other member's call {@code k} and compares its signature (see {@link #finish}). */
    private void awaitAll(long k, long index, CollectiveCheck.Signature signature) {
        for (int j = 0; j < p; j++) {
            if (j != me) {
                await(j, k, index, signature, true);
            }
        }
    }

    // ------------------------------------------------------------------ the collectives

    void barrier(CollectiveCheck.Signature signature) {
        long ck = start(signature, null);
        countSlotCall();
        awaitAll(ck, callIndexOf(ck), signature);
        finish(ck, Integer.MAX_VALUE);
    }

    /**
     * Starts a call that goes through the slots as one or more flagged calls (chunks): draws
     * its index, reads the check mode, and counts it once as a shared-memory call.
     */
    private long begin() {
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        countSlotCall();
        return callIndex;
    }

    /**
     * Bcast through the root's slots; data larger than a slot goes through them in chunks of a
     * slot each (flagged calls with the call's index and signature, as the reduction chunks),
     * so the root runs up to DEPTH - LAG - 1 chunks ahead of the slowest reader.
     */
    void bcast(CollectiveCheck.Signature signature, MemorySegment data, int root) {
        long bytes = data.byteSize();
        long callIndex = begin();
        long done = 0;
        do {
            long n = Math.min(slot, bytes - done);
            long ck = publish(callIndex, signature, me != root ? null : n == bytes ? data : data.asSlice(done, n));
            if (me != root) {
                await(root, ck, callIndexOf(ck), signature, true);
                if (n > 0) {
                    copy(mem, dataAt(root, ck, n), data, done, n);
                }
            }
            finish(ck, me == root ? -1 : root);
            done += n;
        } while (done < bytes);
    }

    /**
     * Reduce into {@code data} at the root; {@code send} is this rank's contribution ({@code data}
     * itself when in place; a non-root's {@code data} is not written).
     * A vector that fits a slot goes through it in one flagged call and the root combines;
     * a larger one is split ({@link #split}).
     */
    void reduce(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment data, int count, Op op,
            Datatype type, int root) {
        if ((long) count * type.byteSize() > slot) {
            split(signature, send, data, count, op, type, root);
            return;
        }
        if (FOLD_LINE && p > 2 && (long) count * type.byteSize() <= lineData && op.foldsScalar(type)) {
            // the root reads its own contribution where it is: only the others' go through their lane entries
            long ck = start(signature, me != root ? send : null);
            countSlotCall();
            if (me == root) {
                awaitAll(ck, callIndexOf(ck), signature);
                foldLine(ck, send, data, count, op, type);
            }
            finish(ck, me == root ? Integer.MAX_VALUE : -1);
            return;
        }
        boolean pair = pairwise(op);
        // a two-rank root folds the other's slot and its own send buffer straight into data (foldInto)
        boolean into = pair && me == root && send != data;
        if (send != data && me == root && !into) {
            copy(send, 0, data, 0, data.byteSize());
        }
        // with two ranks and a symmetric operation the root combines the other's slot into its own vector
        // (x1 op x0 = x0 op x1), so its own contribution need not go through its slot
        long ck = start(signature, me != root || !pair ? data : null);
        countSlotCall();
        if (me == root) {
            awaitAll(ck, callIndexOf(ck), signature);
            if (into) {
                foldInto(ck, send, data, count, op, type);
            } else {
                combine(ck, data, count, op, type, pair);
            }
        }
        finish(ck, me == root ? Integer.MAX_VALUE : -1);
    }

    /**
     * Allreduce of {@code send} into {@code data} (the same segment when in place): a vector that fits a slot goes through it in one
     * flagged call and every rank combines all of it; a larger one is split ({@link #split}), and so is one of
     * {@link #SPLIT_FROM} bytes or more on more than two ranks, where combining everything on every rank costs more than
     * the split's second wait (4 ranks on 2 cores, 64 KiB slots, 32 KiB: 50-60 us whole, 24-35 us split).
     */
    void allreduce(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment data, int count, Op op,
            Datatype type) {
        long bytes = (long) count * type.byteSize();
        if (bytes > slot || (p > 2 && bytes >= SPLIT_FROM && op.builtIn())) {
            split(signature, send, data, count, op, type, -1);
            return;
        }
        if (FOLD_LINE && p > 2 && bytes <= lineData && op.foldsScalar(type)) {
            long ck = start(signature, send);
            countSlotCall();
            awaitAll(ck, callIndexOf(ck), signature);
            foldLine(ck, send, data, count, op, type);
            finish(ck, Integer.MAX_VALUE);
            return;
        }
        boolean into = pairwise(op) && send != data;   // see foldInto
        if (send != data && !into) {
            copy(send, 0, data, 0, data.byteSize());
        }
        long ck = start(signature, into ? send : data);
        countSlotCall();
        awaitAll(ck, callIndexOf(ck), signature);
        if (into) {
            foldInto(ck, send, data, count, op, type);
        } else {
            combine(ck, data, count, op, type, pairwise(op));
        }
        finish(ck, Integer.MAX_VALUE);
    }

    /**
     * A reduce ({@code root} >= 0) or allreduce ({@code root} < 0) of a vector larger than a
     * slot: chunk by chunk, every rank combines its share of the chunk (elements
     * {@link #share}(n, me) to share(n, me + 1)) from every rank's slot, writes the result
     * over that share of its own slot (nobody else reads it there) and publishes its done
     * word; the root (or, for allreduce, every rank) then copies the others' result shares.
     * It collects chunk m's shares after publishing chunk m + 1, so the ranks combine chunk
     * m + 1 while the shares of chunk m cross. Each element is still combined in rank order,
     * by one rank, so non-commutative operations and every rank of an allreduce agree.
     */
    private void split(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment data, int count, Op op,
            Datatype type, int root) {
        long callIndex = begin();
        if (!op.builtIn()) {
            wholeChunks(callIndex, signature, send, data, count, op, type, root);
            return;
        }
        if (root >= 0 && pairwise(op) && PAIR_REDUCE_WHOLE) {
            pairReduceChunks(callIndex, signature, send, data, count, op, type, root);
            return;
        }
        boolean pair = pairwise(op);
        boolean gathers = root < 0 || me == root;   // ends with the whole result in data
        long es = type.byteSize();
        int per = chunkElements(es);
        long lastK = 0;
        long lastAt = 0;
        int lastN = 0;
        int done = 0;
        do {
            int n = Math.min(per, count - done);
            MemorySegment part = send.asSlice(done * es, n * es);
            MemorySegment out = gathers ? data.asSlice(done * es, n * es) : null;
            long lo = share(n, me) * es;
            long hi = share(n, me + 1) * es;
            // two ranks, symmetric op: a gathering rank folds the other's share into its own vector, so its own
            // share need not go through its slot; otherwise every share is read from the slots
            boolean inPlace = pair && gathers;
            long ck = publish(callIndex, signature, part, inPlace ? lo : 0, inPlace ? hi : 0);
            awaitAll(ck, callIndexOf(ck), signature);
            long chunk = n * es;
            long mine = dataAt(me, ck, chunk) + lo;
            if (hi > lo) {
                if (inPlace) {
                    if (send != data) {
                        copy(part, lo, out, lo, hi - lo);
                    }
                    op.apply(mem.asSlice(dataAt(1 - me, ck, chunk) + lo, hi - lo), out.asSlice(lo, hi - lo),
                            share(n, me + 1) - share(n, me), type);
                } else if (pair) {
                    // a reduce contributor: x(root) op x(me) straight into its own slot's share (a op b = b op a)
                    op.apply(mem.asSlice(dataAt(1 - me, ck, chunk) + lo, hi - lo), mem.asSlice(mine, hi - lo),
                            share(n, me + 1) - share(n, me), type);
                } else {
                    MemorySegment into = gathers ? out.asSlice(lo, hi - lo) : scratch(hi - lo);
                    combineShare(ck, chunk, into, lo, share(n, me + 1) - share(n, me), op, type);
                    if (!gathers) {
                        copy(into, 0, mem, mine, hi - lo);
                    }
                }
                if (gathers && root < 0) {
                    copy(out, lo, mem, mine, hi - lo);   // the others collect it from there
                }
            }
            if (!gathers || root < 0) {
                LONG.setRelease(mem, live(me) + DONE, ck);
                region.wake();
            }
            finish(ck, Integer.MAX_VALUE);
            if (gathers && lastN > 0) {
                collect(lastK, data, lastAt, lastN, es);
            }
            lastK = ck;
            lastAt = done * es;
            lastN = n;
            done += n;
        } while (done < count);
        if (gathers) {
            collect(lastK, data, lastAt, lastN, es);
        }
    }

    /**
     * Chunks combined whole, for user operations: a user function may treat a run of
     * elements as one value (a 2x2 matrix of 4 longs, say), which a share boundary could cut,
     * so the root (reduce) or every rank (allreduce) combines each whole chunk, as before the
     * split. Chunk boundaries fall at multiples of a slot's worth of elements (a power of two).
     */
    private void wholeChunks(long callIndex, CollectiveCheck.Signature signature, MemorySegment send, MemorySegment data,
            int count, Op op, Datatype type, int root) {
        boolean gathers = root < 0 || me == root;
        long es = type.byteSize();
        int per = chunkElements(es);
        int done = 0;
        do {
            int n = Math.min(per, count - done);
            long ck = publish(callIndex, signature, send.asSlice(done * es, n * es));
            if (gathers) {
                awaitAll(ck, callIndexOf(ck), signature);
                combine(ck, data.asSlice(done * es, n * es), n, op, type, false);   // every x from the slots
            }
            finish(ck, gathers ? Integer.MAX_VALUE : -1);
            done += n;
        } while (done < count);
    }

    /**
     * Whether a two-rank reduce of a symmetric built-in operation larger than a slot goes
     * through {@link #pairReduceChunks} rather than the split ({@code tessera.shm.coll.pairReduce},
     * default on; every rank must be given the same value).
     */
    static final boolean PAIR_REDUCE_WHOLE = !"off".equals(System.getProperty("tessera.shm.coll.pairReduce", "on"));

    /**
     * Reduce of two ranks with a symmetric operation ({@link #pairwise}), chunk by chunk: the
     * other rank only copies each chunk of its vector into its slot, the root folds that slot
     * straight into its own result (x(other) op x(root) = x0 op x1 element by element) and puts
     * nothing into its own slot. The root has to read the other's whole vector in any case; the
     * split ({@link #split}) also sends the root's half over and the other's results back, half
     * as much again between the cores, and makes each chunk wait for the other rank's combine.
     * The contributor runs up to DEPTH - LAG - 1 chunks ahead, so its copies overlap the root's folds.
     */
    private void pairReduceChunks(long callIndex, CollectiveCheck.Signature signature, MemorySegment send,
            MemorySegment data, int count, Op op, Datatype type, int root) {
        boolean isRoot = me == root;
        long es = type.byteSize();
        int per = chunkElements(es);
        int done = 0;
        do {
            int n = Math.min(per, count - done);
            long bytes = n * es;
            long ck = publish(callIndex, signature, isRoot ? null : send.asSlice(done * es, bytes));
            if (isRoot) {
                awaitAll(ck, callIndexOf(ck), signature);
                MemorySegment out = data.asSlice(done * es, bytes);
                MemorySegment theirs = mem.asSlice(dataAt(1 - me, ck, bytes), bytes);
                if (send == data) {
                    op.apply(theirs, out, n, type);
                } else if (!op.applyInto(theirs, send.asSlice(done * es, bytes), out, n, type)) {
                    copy(send, done * es, out, 0, bytes);
                    op.apply(theirs, out, n, type);
                }
            }
            finish(ck, isRoot ? Integer.MAX_VALUE : -1);
            done += n;
        } while (done < count);
    }

    /** First element of member {@code i}'s share of a chunk of {@code n} elements (even: MINLOC/MAXLOC pairs stay whole). */
    private int share(int n, int i) {
        return i >= p ? n : (int) ((long) n * i / p) & ~1;
    }

    /** into = x0 op x1 op ... op x(p-1) over {@code n} elements at byte {@code lo} of the slots of call {@code k}. */
    private void combineShare(long k, long chunk, MemorySegment into, long lo, int n, Op op, Datatype type) {
        long bytes = into.byteSize();
        copy(mem, dataAt(p - 1, k, chunk) + lo, into, 0, bytes);
        for (int j = p - 2; j >= 0; j--) {
            op.apply(mem.asSlice(dataAt(j, k, chunk) + lo, bytes), into, n, type);
        }
    }

    /** Copies the other members' result shares of chunk call {@code k} ({@code n} elements at byte {@code at} of data). */
    private void collect(long k, MemorySegment data, long at, int n, long es) {
        for (int j = 0; j < p; j++) {
            long lo = share(n, j) * es;
            long hi = share(n, j + 1) * es;
            if (j == me || hi == lo) {
                continue;
            }
            awaitDone(j, k);
            copy(mem, dataAt(j, k, n * es) + lo, data, at + lo, hi - lo);
        }
    }

    /** Waits until member {@code j} has published its result share of its flagged call {@code k}. */
    private void awaitDone(int j, long k) {
        long word = live(j) + DONE;
        if ((long) LONG.getAcquire(mem, word) < k) {
            region.awaitUntil(() -> compareArrivedWhileWaiting() && (long) LONG.getAcquire(mem, word) >= k, worldOf[j]);
        }
    }

    /** A scratch segment of at least {@code bytes} (up to a slot), kept for the next calls. */
    private MemorySegment scratch(long bytes) {
        if (scratch == null) {
            scratch = java.lang.foreign.Arena.ofAuto().allocate(slot, 64);
        }
        return scratch.asSlice(0, bytes);
    }

    private MemorySegment scratch;

    /** Elements of {@code elementBytes} bytes in one chunk: a slot's worth, even (MINLOC and MAXLOC take pairs). */
    private int chunkElements(long elementBytes) {
        return (int) Math.min(Integer.MAX_VALUE, slot / elementBytes) & ~1;
    }

    /**
     * Whether the combine may fold the other rank's slot straight into this rank's vector: two
     * ranks and an operation with a op b = b op a element by element ({@link Op#symmetric}), so
     * both get the rank-order result without the copy; else every rank folds in rank order.
     */
    private boolean pairwise(Op op) {
        return p == 2 && op.symmetric();
    }

    /**
     * Two ranks, symmetric operation, not in place: data = x(other) op send in one pass where the
     * operation has a kernel for it ({@link Op#applyInto}), else send copied into data and folded
     * as {@link #combine} does; the same bits either way, one pass over data fewer.
     */
    private void foldInto(long k, MemorySegment send, MemorySegment data, int count, Op op, Datatype type) {
        long bytes = data.byteSize();
        if (bytes == 0) {
            return;
        }
        MemorySegment theirs = peerData(1 - me, k, bytes);
        if (!op.applyInto(theirs, send, data, count, type)) {
            copy(send, 0, data, 0, bytes);
            op.apply(theirs, data, count, type);
        }
    }

    /**
     * Whether reductions on more than two ranks of vectors that fit a lane entry fold where the data lies
     * ({@link #foldLine}); {@code -Dtessera.shm.coll.foldLine=off} combines them through copies as larger ones
     * are (for comparisons). Two ranks keep their pair path ({@link #foldInto}, one kernel call), which the
     * fold did not beat there (stop 66: 0.98-1.06 of it, and 1.15-1.41 at 16 floats in an element-wise form).
     */
    static final boolean FOLD_LINE = !"off".equals(System.getProperty("tessera.shm.coll.foldLine", "on"));

    /**
     * data = x0 op (x1 op (... op x(p-1))) for a vector that fits a lane entry ({@link #lineData}), read where
     * each x lies: this rank's in {@code own}, the others' in their lane entries of call {@code k}, which lie
     * LANE lines apart from one member to the next. data takes x(p-1), then each member's vector is folded into
     * it, in the order {@link #combine} uses, so the bits are the same, without its copies of every member's
     * entry, slices and array-or-segment dispatch ({@link ReduceKernels#foldFrom}); on 4 ranks a reduce root
     * made six copies and three kernel calls for one 8-byte vector. In place ({@code own} is {@code data}) this
     * rank's vector is kept aside first, unless it is the last. Only where {@link Op#foldsScalar} holds.
     */
    private void foldLine(long k, MemorySegment own, MemorySegment data, int count, Op op, Datatype type) {
        long bytes = (long) count * type.byteSize();
        if (bytes == 0) {
            return;
        }
        long first = linesAt + (long) (int) (k % LANE) * LINE + DATA;   // member 0's data of call k
        long step = (long) LANE * LINE;   // from one member's lane entry of call k to the next member's
        int last = p - 1;
        if (own == data && me != last) {
            own = kept(own, 0, bytes);   // in place: this rank's contribution is folded after data is overwritten
        }
        if (last == me) {
            copy(own, 0, data, 0, bytes);
        } else {
            copy(mem, first + last * step, data, 0, bytes);
        }
        int code = op.checkCode();
        for (int j = last - 1; j >= 0; j--) {
            if (j == me) {
                ReduceKernels.foldFrom(code, type, own, 0, data, count);
            } else {
                ReduceKernels.foldFrom(code, type, mem, first + j * step, data, count);
            }
        }
    }

    /**
     * {@code bytes} bytes (up to {@link #lineData}) of {@code from} at {@code at} in a kept segment of exactly
     * that size, valid until the next call (see {@link #peerData}); a new one where calls may come from
     * several threads.
     */
    private MemorySegment kept(MemorySegment from, long at, long bytes) {
        MemorySegment s;
        if (!serial) {
            s = java.lang.foreign.Arena.ofAuto().allocate(bytes, 64);
        } else {
            s = small[(int) bytes];
            if (s == null) {
                if (smallBase == null) {
                    smallBase = java.lang.foreign.Arena.ofAuto().allocate(lineData, 64);
                }
                s = smallBase.asSlice(0, bytes);
                small[(int) bytes] = s;
            }
        }
        copy(from, at, s, 0, bytes);
        return s;
    }

    /**
     * data = x0 op x1 op ... op x(p-1) for this chunk, in rank order (so non-commutative
     * operations and every rank agree); {@code pair}: data (this rank's x) = x(other) op data.
     */
    private void combine(long k, MemorySegment data, int count, Op op, Datatype type, boolean pair) {
        long bytes = data.byteSize();
        if (bytes == 0) {
            return;
        }
        if (pair) {
            op.apply(peerData(1 - me, k, bytes), data, count, type);
            return;
        }
        copy(mem, dataAt(p - 1, k, bytes), data, 0, bytes);
        for (int j = p - 2; j >= 0; j--) {
            op.apply(peerData(j, k, bytes), data, count, type);
        }
    }

    /**
     * Member {@code j}'s data of call {@code k} ({@code bytes} bytes) as a segment for an
     * operation to read. A small call's data (up to {@link #lineData}) is copied into a kept
     * segment of exactly that size, so that a loop of small reductions allocates nothing (a slice
     * of the shared memory per member and call was 40 bytes of garbage a call on 2 ranks, 168 on
     * 4; docs/performance.md, stop 65); larger data is read in place. The kept segment is only
     * valid until the next call of this method: the operation reads it before that.
     */
    private MemorySegment peerData(int j, long k, long bytes) {
        if (bytes > lineData || !serial) {
            return mem.asSlice(dataAt(j, k, bytes), bytes);
        }
        return kept(mem, dataAt(j, k, bytes), bytes);
    }

    /** {@link #peerData}'s kept segments by size, slices of {@code smallBase}. */
    private final MemorySegment[] small = new MemorySegment[NodeRegion.LINE_DATA + 1];
    private MemorySegment smallBase;

    /**
     * Allgather: {@code mine} is this rank's block, {@code data} the receive buffer (p blocks of
     * mine's size). A block larger than a slot goes through the slots in chunks of a slot each.
     */
    void allgather(CollectiveCheck.Signature signature, MemorySegment mine, MemorySegment data) {
        allgather(signature, mine, data, false);
    }

    /**
     * As above; {@code copyOwn}: {@code mine} is the caller's send buffer, not yet in {@code data}, and is copied
     * into this rank's block of it a chunk at a time, after the chunk is published and while the others' chunks
     * are on their way (instead of all of it before the first chunk, then out of data into the slot).
     */
    void allgather(CollectiveCheck.Signature signature, MemorySegment mine, MemorySegment data, boolean copyOwn) {
        long block = mine.byteSize();
        long callIndex = begin();
        long done = 0;
        do {
            long n = Math.min(slot, block - done);
            long ck = publish(callIndex, signature, n == block ? mine : mine.asSlice(done, n));
            if (copyOwn) {
                copy(mine, done, data, me * block + done, n);
            }
            for (int j = 0; j < p; j++) {
                if (j != me) {
                    await(j, ck, callIndexOf(ck), signature, true);
                    copy(mem, dataAt(j, ck, n), data, j * block + done, n);
                }
            }
            finish(ck, Integer.MAX_VALUE);
            done += n;
        } while (done < block);
    }

    /** Alltoall: {@code send} holds p blocks (block j goes to rank j), {@code recv} receives p blocks. */
    void alltoall(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment recv, long blockBytes) {
        long ck = start(signature, send);
        countSlotCall();
        for (int j = 0; j < p; j++) {
            if (j != me) {
                await(j, ck, callIndexOf(ck), signature, true);
                copy(mem, dataAt(j, ck, p * blockBytes) + me * blockBytes, recv, j * blockBytes, blockBytes);
            } else {
                copy(send, me * blockBytes, recv, me * blockBytes, blockBytes);
            }
        }
        finish(ck, Integer.MAX_VALUE);
    }

    /**
     * Alltoall of blocks too large for one slot ({@link AlltoallDecision#inSlotChunks}): chunk by
     * chunk, each a flagged call with the call's index and signature. With two ranks see
     * {@link #exchangePair}; with more, a chunk is the next equal piece of every other rank's
     * block, written from the send buffer straight into the slot at {@code j * piece} (this rank's own
     * piece is left out; one copy into the slot and one out of it, as for every chunked call). A rank
     * copies its pieces out of the others' slots while they publish their next chunks (up to
     * DEPTH - LAG - 1 chunks ahead), so the copies into and out of the slots overlap, and no
     * message matching or ring hand-off is involved.
     */
    void alltoallChunks(CollectiveCheck.Signature signature, MemorySegment send, MemorySegment recv, long blockBytes) {
        if (p == 2) {
            exchangePair(signature, send.asSlice((1 - me) * blockBytes, blockBytes),
                    recv.asSlice((1 - me) * blockBytes, blockBytes), send.asSlice(me * blockBytes, blockBytes),
                    recv.asSlice(me * blockBytes, blockBytes));
            return;
        }
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        countSlotCall();
        long piece = slot / p >= 128 ? slot / p & ~63L : Math.max(1, slot / p);
        for (long off = 0; off < blockBytes; off += piece) {
            long n = Math.min(piece, blockBytes - off);
            // the others' pieces straight into this rank's slot, packed at j * n (no staging copy)
            long k = reserve(signature, p * n);
            long to = dataAt(me, k, p * n);
            for (int j = 0; j < p; j++) {
                if (j != me) {
                    copy(send, j * blockBytes + off, mem, to + j * n, n);
                }
            }
            long ck = commit(k, callIndex, signature);
            // this rank's own piece while the others' pieces are on their way (see exchangePair)
            copy(send, me * blockBytes + off, recv, me * blockBytes + off, n);
            for (int j = 0; j < p; j++) {
                if (j != me) {
                    await(j, ck, callIndexOf(ck), signature, true);
                    copy(mem, dataAt(j, ck, p * n) + me * n, recv, j * blockBytes + off, n);
                }
            }
            finish(ck, Integer.MAX_VALUE);
        }
    }

    /**
     * Two ranks: sends {@code toOther} to the other rank and receives {@code fromOther} from it
     * through the slots, a slot's worth per flagged call (at least one call, as many as the longer
     * direction needs: both ranks count the same when their counts agree, which the signature
     * carries). Alltoall of two ranks and alltoallv of two ranks use it; own blocks are copied by
     * the caller, so only the other rank's block goes through the slot.
     */
    void exchangePair(CollectiveCheck.Signature signature, MemorySegment toOther, MemorySegment fromOther) {
        exchangePair(signature, toOther, fromOther, null, null);
    }

    /**
     * As above; with {@code ownFrom} and {@code ownTo} (this rank's own block of a two-rank alltoall), the own
     * block is copied a slot's worth at a time after each chunk is published, while the other rank's chunk is
     * on its way, instead of all of it before the first chunk. The same bytes move; against the old order
     * the two-rank alltoall was within the noise of the Intel Xeon VM, 4 ranks on 2 cores leaned faster at
     * 64-256 KiB (docs/performance.md, stop 44).
     */
    private void exchangePair(CollectiveCheck.Signature signature, MemorySegment toOther, MemorySegment fromOther,
            MemorySegment ownFrom, MemorySegment ownTo) {
        long callIndex = comm.nextCollectiveIndex(true);
        checking = CollectiveCheck.enabled(comm.env.tuning);
        countSlotCall();
        int other = 1 - me;
        long out = toOther.byteSize();
        long in = fromOther.byteSize();
        long off = 0;
        do {
            long n = Math.min(slot, Math.max(0, out - off));
            long ck = publish(callIndex, signature, n > 0 ? toOther.asSlice(off, n) : null);
            if (ownFrom != null) {
                long own = Math.min(slot, Math.max(0, ownFrom.byteSize() - off));
                if (own > 0) {
                    copy(ownFrom, off, ownTo, off, own);
                }
            }
            await(other, ck, callIndexOf(ck), signature, true);
            long m = Math.min(slot, Math.max(0, in - off));
            if (m > 0) {
                copy(mem, dataAt(other, ck, m), fromOther, off, m);
            }
            finish(ck, Integer.MAX_VALUE);
            off += slot;
        } while (off < Math.max(out, in));
    }

    /**
     * Whether a two-rank {@code collective} whose messages carry {@code messageBytes} each goes point to point by
     * the device's single copy of heap arrays ({@link PairCopyDecision}) instead of through the slots.
     * Every rank gives the same answer for the same size (the device's answer is the same on every member).
     */
    boolean pairCopy(String collective, long messageBytes) {
        try {
            return PairCopyDecision.choose(collective, messageBytes, p, p == 2 && region.singleCopies(messageBytes),
                    region.sameAddressSpace());
        } catch (dev.tessera.TesseraException e) {
            throw new dev.tessera.TesseraException(e.errorClass(), "rank " + me + ": " + collective + ": " + e.getMessage());
        }
    }

    /**
     * Whether the members share one address space ({@link NodeRegion#sameAddressSpace}: smp ranks), where
     * a point-to-point message is copied once at any size whatever the ranks' waits.
     */
    boolean sameAddressSpace() {
        return region.sameAddressSpace();
    }

    /** Calls that went point to point by {@link #pairCopy} (diagnostics: {@link Comm#singleCopyCollectiveCalls}). */
    long pairCopyCalls() {
        return pairCopyCalls.get();
    }

    private final java.util.concurrent.atomic.AtomicLong pairCopyCalls = new java.util.concurrent.atomic.AtomicLong();

    /** The channel of a call that {@link #pairCopy} sends point to point: {@link #channel}, counted. */
    CollectiveChannel pairCopyChannel(CollectiveCheck.Signature signature, Datatype type) {
        pairCopyCalls.setRelease(pairCopyCalls.getPlain() + 1);
        return channel(signature, type);
    }

    /** A heap scratch of {@code bytes} for a two-rank reduce's receive ({@link PairCopyAlgorithms#reduce}), kept for the next calls. */
    MemorySegment pairScratch(long bytes) {
        if (pairScratch == null || pairScratch.byteSize() < bytes) {
            pairScratch = MemorySegment.ofArray(new long[(int) ((bytes + 7) / 8)]);
        }
        return pairScratch.asSlice(0, bytes);
    }

    private MemorySegment pairScratch;

    /**
     * A call that runs a point-to-point algorithm (its data does not fit a slot, or an
     * algorithm is forced): publishes the flag, and returns the channel whose agreement check
     * compares the right neighbour's flag.
     */
    CollectiveChannel channel(CollectiveCheck.Signature signature, Datatype type) {
        long ck = start(signature, null);
        synchronized (this) {
            // the channel's own check compares this call before it blocks; the range keeps covering it
            if (!checking) {
                rightChecked = ck;
            }
            rightTo = ck;
        }
        if (checking) {
            comm.deferNodeCheck();
        }
        int tag = (int) (callIndexOf(ck) & (Comm.COLLECTIVE_TAG_SPAN - 1));
        return new CollectiveChannel(comm, signature.call(), tag, type,
                checking ? rightCheck(ck, signature) : null);
    }
}
