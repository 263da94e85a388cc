package dev.tessera.device.shm;

import static dev.tessera.device.shm.ShmLayout.ACK;
import static dev.tessera.device.shm.ShmLayout.C_CHUNK;
import static dev.tessera.device.shm.ShmLayout.C_CONTEXT;
import static dev.tessera.device.shm.ShmLayout.C_INLINE;
import static dev.tessera.device.shm.ShmLayout.C_FLAGS;
import static dev.tessera.device.shm.ShmLayout.C_ID;
import static dev.tessera.device.shm.ShmLayout.C_KIND;
import static dev.tessera.device.shm.ShmLayout.C_TAG;
import static dev.tessera.device.shm.ShmLayout.C_TOTAL;
import static dev.tessera.device.shm.ShmLayout.C_TYPE;
import static dev.tessera.device.shm.ShmLayout.FIRST;
import static dev.tessera.device.shm.ShmLayout.FLAG_HEAP;
import static dev.tessera.device.shm.ShmLayout.FLAG_SYNC;
import static dev.tessera.device.shm.ShmLayout.LANE_MAX;
import static dev.tessera.device.shm.ShmLayout.L_ACK;
import static dev.tessera.device.shm.ShmLayout.L_CELL;
import static dev.tessera.device.shm.ShmLayout.L_CONTEXT;
import static dev.tessera.device.shm.ShmLayout.L_ID;
import static dev.tessera.device.shm.ShmLayout.L_KIND;
import static dev.tessera.device.shm.ShmLayout.L_LENGTH;
import static dev.tessera.device.shm.ShmLayout.L_MSG;
import static dev.tessera.device.shm.ShmLayout.L_PAYLOAD;
import static dev.tessera.device.shm.ShmLayout.L_TAG;
import static dev.tessera.device.shm.ShmLayout.L_TYPE;
import static dev.tessera.device.shm.ShmLayout.MORE;
import static dev.tessera.device.shm.ShmLayout.SINGLE;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.BackoffIdleStrategy;
import dev.tessera.device.MatchingDevice;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.ReceiveRequest;
import dev.tessera.device.WaitMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Ranks in separate processes on one machine, through a shared file mapped by every rank
 * ({@link ShmLayout}): per ordered pair of ranks, one SPSC ring of fixed cells and, beside
 * it, a packed lane of 64-byte lines ({@link ShmLane}).
 *
 * <p>Every message has an entry in the pair's lane, in send order, and the receiver matches
 * the pair's messages in the lane's order (MPI non-overtaking). A standard message of up to
 * {@link ShmLayout#LANE_MAX} bytes is its entry: header and payload in consecutive lines, so
 * a stream of small messages is read line after line (in cells 32 KiB apart each was a cold
 * line). A larger or synchronous message travels as a FIRST cell (envelope, total length,
 * first piece of payload) and as many MORE cells as its payload needs; its lane entry is one
 * line (L_CELL) written after the FIRST cell is published, and the receiver reads the FIRST
 * cell when that entry comes up, the MORE cells as they come. Acknowledgements are lane
 * entries too. The ring is the pipeline for large messages: the sender fills cells while
 * the receiver drains them. A receiver that has the receive posted when FIRST arrives copies every piece
 * straight into the receive buffer; otherwise the pieces gather in a private buffer that
 * a later receive copies from. A synchronous send completes when its ACK entry comes back,
 * sent by the receiver the moment the message is matched.
 *
 * <p>Progress is driven by the threads that wait ({@link #progress}, one at a time): it
 * drains inbound rings, pushes queued outbound pieces, and every 100 ms checks that the
 * peers' processes are alive and that no rank has aborted the job.
 *
 * <p>An idle poll ({@link #progress} finding nothing) reads each inbound ring's next sequence
 * word and each outbound queue's size and takes no lock; the progress flag is taken only when
 * there is something to do. Waiting ({@link #await}) polls; a spinning wait first polls those
 * words back to back for a few microseconds, then pauses between polls as every device does
 * (a pause costs about 25 ns on AMD EPYC, so a message arriving during one waited for it). In
 * {@link WaitMode#BLOCK} mode (chosen when the node's
 * ranks outnumber its cores, or by TESSERA_WAIT) a waiter that found nothing for a short
 * spin sleeps on its rank's doorbell, a futex word in the shared file ({@link Futex}). It
 * first reads the doorbell's sequence, then counts itself in the doorbell's sleepers (an
 * atomic add, a full fence), then polls once more, and sleeps only if that found nothing
 * and the sequence is unchanged. A peer that publishes a cell into one of its rings, or
 * frees cells of a ring it fills, fences and then reads the sleepers: so either the
 * sleeper's last poll sees the cell, or the peer sees the sleeper, adds 1 to the sequence
 * and wakes it (no lost wake-up). Peers ring only ranks that announced in the shared file
 * that they may sleep, so spinning jobs pay nothing for it. A sleeper wakes at least every
 * 100 ms to check the peers' liveness.
 */
public final class ShmDevice extends MatchingDevice {

    private final MemorySegment file;
    private final int rank;
    private final int size;
    private final long eagerLimit;
    private final Outbound[] outbound;
    private final ShmRing[] inbound;
    private final ShmLane[] inLanes;
    private final Assembly[] current;
    private final Map<Integer, Outgoing> awaitingAck = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger();
    /**
     * 1 while a thread drives progress, else 0: taken only by compare-and-set, never waited for
     * (a thread that finds it taken returns: the holder makes the progress), and released with a
     * plain release store. Not reentrant: a callback run while draining that calls
     * {@link #progress} gets false instead of reading the cell being processed a second time.
     */
    @SuppressWarnings("unused")   // through PROGRESSING
    private volatile int progressing;
    private static final VarHandle PROGRESSING;

    static {
        try {
            PROGRESSING = java.lang.invoke.MethodHandles.lookup().findVarHandle(ShmDevice.class, "progressing", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private boolean tryProgressing() {
        return PROGRESSING.compareAndSet(this, 0, 1);
    }

    private void doneProgressing() {
        PROGRESSING.setRelease(this, 0);
    }
    private final long[] peerPids;
    private long nextLivenessCheck;
    private int idlePolls;
    private volatile boolean closed;

    /** World rank of each local rank (identity for a pure shm job), and the inverse. */
    private final int[] world;
    private final int[] localOfWorld;

    /** Per peer: 1 if it reads single-copy messages, 2 if not, 0 not known yet. */
    private final int[] peerSingleCopy;

    /** True if heap arrays may go by single copy from this rank ({@link HeapCopy}). */
    private final boolean heapCopy;
    /** Per peer: the heap single-copy slot of the pair (this rank, peer), this rank the sender. */
    private final MemorySegment[] outSlot;
    /** Per peer: the heap single-copy slot of the pair (peer, this rank), this rank the receiver. */
    private final MemorySegment[] inSlot;
    /** Per peer: the matched heap single-copy message this rank has yet to read, or null. */
    private final java.util.concurrent.atomic.AtomicReferenceArray<HeapRead> heapIn;
    private final AtomicInteger heapSent = new AtomicInteger();

    /** Blocking wait: sleep on {@link #doorbell} after {@link #SPIN_POLLS} empty polls. */
    private final boolean blocking;
    /** Offset of this rank's doorbell in the file. */
    private final long doorbell;
    /** Per peer: offset of its doorbell if it may sleep (ring it after writing to it), else -1. */
    private final long[] peerBells;
    /** Taken by the one thread of this rank that sleeps on the doorbell; other waiters park briefly. */
    private final AtomicBoolean doorbellTaken = new AtomicBoolean();
    private volatile long nextSleepCheck;
    /** Sleeps on the doorbell so far (diagnostics and tests). */
    private final AtomicInteger sleeps = new AtomicInteger();
    /** Yields of blocking request waits so far (diagnostics and tests). */
    private final AtomicInteger yields = new AtomicInteger();

    /** Polls of a shared-memory collective's condition between two calls of {@link #progress} while waiting. */
    private static final int CONDITION_POLLS = 16;

    /** The world communicator's shared-memory collective region, or null (TESSERA_SHM_COLL=off). */
    private final Region worldRegion;
    /**
     * {@code -Dtessera.shm.coll.memcpy} (then TESSERA_SHM_COLL_MEMCPY; default on): the world
     * region's collectives copy pieces of {@link CellCopy#MIN_BYTES} or more with memcpy ({@link #regionCopy}).
     */
    private final boolean collMemcpy;

    /**
     * Empty polls before a blocking waiter sleeps (a microsecond or two). Blocking mode is for
     * ranks that outnumber the cores: the peer a rank waits for is then usually not running, and
     * every poll spent waiting for it is taken from a rank that has work. On 4 shm ranks on 2
     * cores (the heat example) 20 polls gave a shorter solve than 200 in 8 of 9 interleaved sets
     * and less CPU time in 7 of 9, by up to a quarter; 2000 polls took 15 % more of both
     * (docs/performance.md, 2026-11-24).
     */
    static final int SPIN_POLLS = Integer.getInteger("tessera.wait.spins", 20);
    /**
     * How long a blocking request wait yields its core, polling between yields, after its
     * {@link #SPIN_POLLS} empty polls and before it sleeps on the doorbell
     * ({@code tessera.wait.yieldMicros}, default 1000; 0: no yield phase). The peer a rank
     * waits for is then usually the other rank of its core: a yield runs it at once and keeps
     * this rank on its core and runnable, where a sleep costs a futex wake-up, often on the
     * other core, per exchange. On 4 shm ranks on 2 cores (the heat example, Intel Xeon, the
     * job alone under the machine lock, 13 alternating pairs of 1,352 steps) 1 ms of yields
     * took the solve from 3.22 to 2.87 s at the median (faster in 10 of 13 pairs) and the
     * job's CPU from 9.6 to 8.6 s; a 338-step solve, mostly JIT warm-up, did not change
     * beyond its spread (docs/performance.md, stop 43). On a machine shared with other work a
     * yield hands the core to that work for its time slice, as a sleep does. The collectives'
     * waits have their own ({@code tessera.shm.coll.yieldMicros}).
     */
    static final long WAIT_YIELD_NANOS = Long.getLong("tessera.wait.yieldMicros", 1000) * 1000L;
    /** Longest sleep on the doorbell before the sleeper checks its peers' liveness. */
    private static final long SLEEP_NANOS = Long.getLong("tessera.shm.sleepMillis", 100) * 1_000_000L;
    private static final MemorySegment SLEEP_TIMEOUT = Futex.available() ? Futex.timeout(SLEEP_NANOS) : null;

    ShmDevice(MemorySegment file, int rank, int size, int cellBytes, int cells, long eagerLimit, JobFailure failure,
              MatchingEngine engine, int[] world, WaitMode wait) {
        this(file, rank, size, cellBytes, cells, eagerLimit, failure, engine, world, wait, 0);
    }

    ShmDevice(MemorySegment file, int rank, int size, int cellBytes, int cells, long eagerLimit, JobFailure failure,
              MatchingEngine engine, int[] world, WaitMode wait, int collSlot) {
        super(engine, failure, wait == WaitMode.BLOCK ? IdleStrategy.backoff() : BackoffIdleStrategy.LONG_SPIN);
        this.collMemcpy = ShmSwitch.read("tessera.shm.coll.memcpy", "TESSERA_SHM_COLL_MEMCPY", true);
        this.worldRegion = collSlot == 0 ? null : new Region(file.asSlice(ShmLayout.collOffset(size, cellBytes, cells),
                ShmLayout.collBytes(size, collSlot)), size, collSlot);
        this.blocking = wait == WaitMode.BLOCK;
        this.doorbell = ShmLayout.doorbellOffset(rank, size, cellBytes, cells);
        this.peerBells = new long[size];
        for (int p = 0; p < size; p++) {
            long bell = ShmLayout.doorbellOffset(p, size, cellBytes, cells);
            peerBells[p] = p != rank && Futex.available()
                    && ShmLayout.getIntAcquire(file, bell + ShmLayout.D_SLEEPS) == 1 ? bell : -1;
        }
        this.world = world.clone();
        int max = java.util.Arrays.stream(world).max().orElse(0);
        this.localOfWorld = new int[max + 1];
        java.util.Arrays.fill(localOfWorld, -1);
        for (int i = 0; i < world.length; i++) {
            localOfWorld[world[i]] = i;
        }
        this.file = file;
        this.rank = rank;
        this.size = size;
        this.eagerLimit = eagerLimit;
        this.outbound = new Outbound[size];
        this.inbound = new ShmRing[size];
        this.inLanes = new ShmLane[size];
        this.current = new Assembly[size];
        this.peerPids = new long[size];
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                outbound[p] = new Outbound(new ShmRing(file, ShmLayout.ringOffset(rank, p, size, cellBytes, cells),
                        cellBytes, cells, true), new ShmLane(file, ShmLayout.laneOffset(rank, p, size, cellBytes, cells), true),
                        file, peerBells[p]);
                inbound[p] = new ShmRing(file, ShmLayout.ringOffset(p, rank, size, cellBytes, cells), cellBytes, cells, false);
                inLanes[p] = new ShmLane(file, ShmLayout.laneOffset(p, rank, size, cellBytes, cells), false);
            }
            peerPids[p] = file.get(ValueLayout.JAVA_LONG, ShmLayout.rankOffset(p));
        }
        this.peerSingleCopy = new int[size];
        boolean readsAll = SingleCopy.available();
        for (int p = 0; p < size && readsAll; p++) {
            if (p != rank) {
                readsAll = SingleCopy.probe(peerPids[p], file.get(ValueLayout.JAVA_LONG, ShmLayout.rankOffset(p) + ShmLayout.R_PROBE));
            }
        }
        ShmLayout.setIntRelease(file, ShmLayout.rankOffset(rank) + ShmLayout.R_SINGLE_COPY, readsAll ? 1 : 2);
        this.outSlot = new MemorySegment[size];
        this.inSlot = new MemorySegment[size];
        this.heapIn = new java.util.concurrent.atomic.AtomicReferenceArray<>(size);
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                // the first line of each ring is reserved: the pair's heap single-copy slot
                outSlot[p] = file.asSlice(ShmLayout.ringOffset(rank, p, size, cellBytes, cells), 64);
                inSlot[p] = file.asSlice(ShmLayout.ringOffset(p, rank, size, cellBytes, cells), 64);
            }
        }
        this.heapCopy = !blocking && readsAll && HeapCopy.available();
        ShmLayout.setIntRelease(file, ShmLayout.rankOffset(rank) + ShmLayout.R_HEAP_COPY, heapCopy ? 1 : 2);
        CellCopy.link();
        Futex.link();
        if (heapCopy) {
            HeapCopy.link();
        }
        failure.onRankDeath(this::failPendingWith);
    }

    /**
     * True if a message from the heap array {@code buffer} can go to local rank {@code dest} by
     * single copy ({@link HeapCopy}): from {@link HeapCopy#MIN_BYTES} to {@link HeapCopy#MAX_BYTES},
     * to a peer in another process that reads this one's memory and does not sleep on its doorbell.
     */
    private boolean heapSingleCopy(MemorySegment buffer, int dest) {
        long n = buffer.byteSize();
        return heapCopy && n >= HeapCopy.MIN_BYTES && n <= HeapCopy.MAX_BYTES && !buffer.isNative()
                && !buffer.isReadOnly() && peerBells[dest] < 0 && peerPids[dest] != peerPids[rank]
                && singleCopyPeer(dest);
    }

    private boolean singleCopyPeer(int dest) {
        int known = peerSingleCopy[dest];
        if (known == 0) {
            known = ShmLayout.getIntAcquire(file, ShmLayout.rankOffset(dest) + ShmLayout.R_SINGLE_COPY);
            peerSingleCopy[dest] = known;
        }
        return known == 1;
    }

    /** True if heap arrays may go by single copy from this rank (diagnostics and tests). */
    boolean heapSingleCopy() {
        return heapCopy;
    }

    /** Messages from heap arrays that peers have read by single copy so far (diagnostics and tests). */
    int heapSingleCopies() {
        return heapSent.get();
    }

    /** True if a message of {@code n} bytes from {@code buffer} can go to local rank {@code dest} by single copy. */
    private boolean singleCopy(MemorySegment buffer, int dest) {
        if (buffer.byteSize() < SingleCopy.MIN_BYTES || !buffer.isNative()) {
            return false;
        }
        int known = peerSingleCopy[dest];
        if (known == 0) {
            known = ShmLayout.getIntAcquire(file, ShmLayout.rankOffset(dest) + ShmLayout.R_SINGLE_COPY);
            peerSingleCopy[dest] = known;
        }
        return known == 1;
    }

    @Override
    public String name() {
        return "shm";
    }

    /** This rank's world rank. */
    @Override
    public int rank() {
        return world[rank];
    }

    /** True if {@code worldRank} is one of this shared file's ranks. */
    public boolean reaches(int worldRank) {
        return worldRank >= 0 && worldRank < localOfWorld.length && localOfWorld[worldRank] >= 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    // ------------------------------------------------------------------ sending

    /** A message (or an ACK) on its way into a ring. */
    private static final class Outgoing {
        final MemorySegment payload;
        final int kind;
        final int tag;
        final int context;
        final int typeCode;
        final int id;
        final boolean sync;
        final DeviceRequest request;
        /** The local index of the rank it goes to (set for sends, for failing them if that rank dies). */
        int peer = -1;
        long written;
        boolean firstSent;
        boolean allWritten;
        boolean acked;
        /** A SINGLE message from a heap array: the receiver reads it while the sender offers it ({@link HeapCopy}). */
        boolean heap;
        /** Offers made before the receiver matched ({@link HeapCopy#PRE_OFFERS} at most). */
        int preOffers;
        /** Bytes of a heap single-copy message the receiver has read: where its next piece starts. */
        long heapOffset;

        Outgoing(MemorySegment payload, int kind, int tag, int context, int typeCode, int id, boolean sync,
                 DeviceRequest request) {
            this.payload = payload;
            this.kind = kind;
            this.tag = tag;
            this.context = context;
            this.typeCode = typeCode;
            this.id = id;
            this.sync = sync;
            this.request = request;
        }

        synchronized void written() {
            allWritten = true;
            if (request != null && (!sync || acked)) {
                request.completeSend();
            }
        }

        synchronized void acknowledged() {
            acked = true;
            if (allWritten) {
                request.completeSend();
            }
        }
    }

    /**
     * The producer side of the ring to one peer and the queue of pieces not yet in it, guarded
     * by {@link #lock()}: a reentrant lock taken with one compare-and-set of its owner and
     * released with a release store (a monitor costs a second atomic on release, and this lock
     * is on every small message's path). A thread that finds it taken spins briefly, then
     * yields: holders only write cells (at most one ring's worth) and complete requests.
     */
    private static final class Outbound {
        final ShmRing ring;
        /** The pair's lane: every message's entry in send order, small messages' payloads inline. */
        final ShmLane lane;
        final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
        /** Size of the queue, readable without the lock: progress skips idle peers with one volatile read. */
        volatile int queued;
        /** The heap single-copy message to this peer not yet read (one at a time: the pair has one slot), or null. */
        volatile Outgoing heap;
        private final MemorySegment file;
        /** The peer's doorbell if it may sleep, else -1. */
        private final long bell;
        /** The thread that holds the lock, or null. */
        @SuppressWarnings("unused")   // through OWNER
        private volatile Thread owner;
        /** How many times the owner holds it (reentrant: completing a request may run a callback that sends). */
        private int holds;

        Outbound(ShmRing ring, ShmLane lane, MemorySegment file, long bell) {
            this.ring = ring;
            this.lane = lane;
            this.file = file;
            this.bell = bell;
        }

        private void lock() {
            Thread me = Thread.currentThread();
            if (OWNER.compareAndSet(this, null, me)) {
                holds = 1;
                return;
            }
            if (OWNER.getOpaque(this) == me) {
                holds++;
                return;
            }
            for (int spins = 0; !OWNER.compareAndSet(this, null, me); spins++) {
                if (spins < 100) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            holds = 1;
        }

        private void unlock() {
            if (--holds == 0) {
                OWNER.setRelease(this, null);
            }
        }

        /** Wakes the peer if it sleeps: after cells were published. */
        private void ringPeer() {
            if (bell >= 0) {
                ring(file, bell);
            }
        }

        /** Writes queued pieces while there is room; true if anything was written. */
        boolean push() {
            lock();
            try {
                return pushLocked();
            } finally {
                unlock();
            }
        }

        private boolean pushLocked() {
            boolean any = false;
            Outgoing m;
            MemorySegment entries = lane.segment();
            while ((m = queue.peek()) != null) {
                if (m.kind == ACK) {
                    long at = lane.claimAt(0);
                    if (at < 0) {
                        return rang(any);
                    }
                    laneHeader(entries, at, L_ACK, 0, 0, 0, 0, m.id);
                    lane.publish();
                    m.firstSent = true;
                    any = true;
                } else if (m.kind == SINGLE && !m.firstSent) {
                    long mark = lane.claimAt(0);
                    MemorySegment cell = mark < 0 ? null : ring.claim();
                    if (cell == null) {
                        return rang(any);
                    }
                    cell.set(ValueLayout.JAVA_INT, C_KIND, SINGLE);
                    cell.set(ValueLayout.JAVA_INT, C_TAG, m.tag);
                    cell.set(ValueLayout.JAVA_INT, C_CONTEXT, m.context);
                    cell.set(ValueLayout.JAVA_INT, C_TYPE, m.typeCode);
                    cell.set(ValueLayout.JAVA_LONG, C_TOTAL, m.payload.byteSize());
                    cell.set(ValueLayout.JAVA_INT, C_ID, m.id);
                    cell.set(ValueLayout.JAVA_INT, C_FLAGS, m.heap ? FLAG_SYNC | FLAG_HEAP : FLAG_SYNC);
                    cell.set(ValueLayout.JAVA_INT, C_CHUNK, 0);
                    cell.set(ValueLayout.JAVA_LONG, C_INLINE, m.heap ? 0 : m.payload.address());
                    ring.publish();
                    laneHeader(entries, mark, L_CELL, 0, 0, 0, 0, 0);
                    lane.publish();
                    m.firstSent = true;
                    m.written = m.payload.byteSize();
                    any = true;
                } else if (!m.firstSent && !m.sync && m.payload.byteSize() <= LANE_MAX) {
                    int n = (int) m.payload.byteSize();
                    long at = lane.claimAt(n);
                    if (at < 0) {
                        return rang(any);
                    }
                    laneMessage(entries, at, m.payload, m.tag, m.context, m.typeCode);
                    lane.publish();
                    m.firstSent = true;
                    m.written = n;
                    any = true;
                }
                while (!m.firstSent || m.written < m.payload.byteSize()) {
                    long mark = -1;
                    if (!m.firstSent && (mark = lane.claimAt(0)) < 0) {
                        return rang(any);
                    }
                    MemorySegment cell = ring.claim();
                    if (cell == null) {
                        return rang(any);
                    }
                    int chunk = (int) Math.min(m.firstSent ? ring.payloadCapacity() : firstPiece(ring),
                            m.payload.byteSize() - m.written);
                    cell.set(ValueLayout.JAVA_INT, C_KIND, m.firstSent ? MORE : m.kind);
                    cell.set(ValueLayout.JAVA_INT, C_TAG, m.tag);
                    cell.set(ValueLayout.JAVA_INT, C_CONTEXT, m.context);
                    cell.set(ValueLayout.JAVA_INT, C_TYPE, m.typeCode);
                    cell.set(ValueLayout.JAVA_LONG, C_TOTAL, m.payload.byteSize());
                    cell.set(ValueLayout.JAVA_INT, C_ID, m.id);
                    cell.set(ValueLayout.JAVA_INT, C_FLAGS, m.sync ? FLAG_SYNC : 0);
                    cell.set(ValueLayout.JAVA_INT, C_CHUNK, chunk);
                    if (chunk > 0) {
                        CellCopy.copy(m.payload, m.written, cell, ShmLayout.payloadOffset(chunk), chunk);
                    }
                    ring.publish();
                    if (!m.firstSent) {
                        // the message's place in the pair's order: its FIRST cell is published before
                        laneHeader(entries, mark, L_CELL, 0, 0, 0, 0, 0);
                        lane.publish();
                    }
                    m.written += chunk;
                    m.firstSent = true;
                    any = true;
                }
                queue.poll();
                queued = queue.size();
                m.written();
            }
            return rang(any);
        }

        private boolean rang(boolean written) {
            if (written) {
                ringPeer();
            }
            return written;
        }

        /**
         * The direct path: a standard send of at most {@link #directMax} bytes goes straight into
         * the lane or the ring when nothing is queued before it and the ring has room for all its
         * cells (no queue entry, complete at once; above {@link #SPLIT_MIN} a lead piece, then the
         * rest); false if it must take the queue.
         */
        boolean tryDirect(MemorySegment payload, int tag, int context, int typeCode) {
            lock();
            try {
                return tryDirectLocked(payload, tag, context, typeCode);
            } finally {
                unlock();
            }
        }

        private boolean tryDirectLocked(MemorySegment payload, int tag, int context, int typeCode) {
            if (!queue.isEmpty()) {
                return false;
            }
            int n = (int) payload.byteSize();
            if (n <= LANE_MAX) {
                // header and payload in consecutive lines of the lane, published by the header's sequence word
                long at = lane.claimAt(n);
                if (at < 0) {
                    return false;
                }
                laneMessage(lane.segment(), at, payload, tag, context, typeCode);
                lane.publish();
                ringPeer();
                return true;
            }
            // a message of one cell's payload or less; above SPLIT_MIN a lead piece, then the rest
            int lead = leadPiece(n, ring);
            int piece = Math.min(PIECE_BYTES, ring.payloadCapacity());
            int pieces = lead == n ? 1 : 1 + (n - lead + piece - 1) / piece;
            long mark = lane.claimAt(0);
            if (mark < 0 || !ring.hasRoom(pieces)) {
                return false;
            }
            MemorySegment cells = ring.segment();
            long at = ring.claimAt();
            cells.set(ValueLayout.JAVA_INT, at + C_KIND, FIRST);
            cells.set(ValueLayout.JAVA_INT, at + C_TAG, tag);
            cells.set(ValueLayout.JAVA_INT, at + C_CONTEXT, context);
            cells.set(ValueLayout.JAVA_INT, at + C_TYPE, typeCode);
            cells.set(ValueLayout.JAVA_LONG, at + C_TOTAL, n);
            cells.set(ValueLayout.JAVA_INT, at + C_ID, 0);
            cells.set(ValueLayout.JAVA_INT, at + C_FLAGS, 0);
            cells.set(ValueLayout.JAVA_INT, at + C_CHUNK, lead);
            if (lead > 0) {
                MemorySegment.copy(payload, 0, cells, at + ShmLayout.payloadOffset(lead), lead);
            }
            ring.publish();
            laneHeader(lane.segment(), mark, L_CELL, 0, 0, 0, 0, 0);
            lane.publish();
            ringPeer();
            // the receiver sees the message and matches it while the rest is copied in behind it
            for (int written = lead; written < n; ) {
                int chunk = Math.min(piece, n - written);
                at = ring.claimAt();
                cells.set(ValueLayout.JAVA_INT, at + C_KIND, MORE);
                cells.set(ValueLayout.JAVA_LONG, at + C_TOTAL, n);
                cells.set(ValueLayout.JAVA_INT, at + C_CHUNK, chunk);
                CellCopy.copy(payload, written, cells, at + ShmLayout.payloadOffset(chunk), chunk);
                ring.publish();
                ringPeer();
                written += chunk;
            }
            return true;
        }

        void add(Outgoing m) {
            lock();
            try {
                queue.add(m);
                queued = queue.size();
            } finally {
                unlock();
            }
        }
    }

    /**
     * Largest payload of a message's FIRST cell ({@code tessera.shm.firstPiece}, default 8 KiB,
     * at most a cell's payload); the MORE cells after it are filled. The receiver starts copying a
     * message out of the ring once its FIRST cell is published, so a small first piece lets the
     * two copies overlap sooner: a message of one cell's size is copied in and out as two
     * pieces in a pipeline instead of one after the other.
     */
    static final int FIRST_PIECE = Integer.getInteger("tessera.shm.firstPiece", 8 * 1024);

    private static int firstPiece(ShmRing ring) {
        return FIRST_PIECE > 0 ? Math.min(FIRST_PIECE, ring.payloadCapacity()) : ring.payloadCapacity();
    }

    /**
     * Largest standard message that the direct path ({@link Outbound#tryDirect}) writes straight
     * into the ring, complete at once, when nothing is queued before it ({@code tessera.shm.directMax},
     * default 16 KiB; at least {@link #FIRST_PIECE}, at most a cell's payload). Above it, and when
     * the ring has no room, a message takes the queue. Heap arrays and native segments that go by
     * single copy ({@link HeapCopy#MIN_BYTES}, {@link SingleCopy#MIN_BYTES}) do not take it.
     */
    static final int DIRECT_MAX = Integer.getInteger("tessera.shm.directMax", 16 * 1024);
    /**
     * A direct message larger than this ({@code tessera.shm.splitMin}) is split: a lead piece of
     * {@link #LEAD_PIECE} bytes in its FIRST cell, published (with its lane entry) before the
     * rest is copied, then MORE cells of at most {@link #PIECE_BYTES}. The receiver needs about 1
     * us from the publication of a FIRST cell to the start of its copy (the lane line, the cell's
     * header, matching: docs/performance.md, stop 44's trace); a small lead piece lets the sender's
     * copy of the rest run in that time instead of before it (stop 48).
     */
    static final int SPLIT_MIN = Integer.getInteger("tessera.shm.splitMin", 4 * 1024);
    static final int LEAD_PIECE = Math.max(0, Integer.getInteger("tessera.shm.leadPiece", 2 * 1024));
    static final int PIECE_BYTES = Math.max(1024, Integer.getInteger("tessera.shm.pieceBytes", 32 * 1024));

    private static int directMax(ShmRing ring) {
        return Math.min(Math.max(DIRECT_MAX, firstPiece(ring)), ring.payloadCapacity());
    }

    /** Payload bytes of the FIRST cell of a direct message of {@code n} bytes (at most a cell's payload). */
    private static int leadPiece(int n, ShmRing ring) {
        if (n <= SPLIT_MIN || LEAD_PIECE >= n) {
            return n;
        }
        return Math.min(LEAD_PIECE, ring.payloadCapacity());
    }

    /** Writes a lane entry's header, all but its sequence word ({@link ShmLane#publish}). */
    private static void laneHeader(MemorySegment entries, long at, int kind, int tag, int context, int typeCode, int length,
                                   int id) {
        entries.set(ValueLayout.JAVA_INT, at + L_KIND, kind);
        entries.set(ValueLayout.JAVA_INT, at + L_TAG, tag);
        entries.set(ValueLayout.JAVA_INT, at + L_CONTEXT, context);
        entries.set(ValueLayout.JAVA_INT, at + L_TYPE, typeCode);
        entries.set(ValueLayout.JAVA_INT, at + L_LENGTH, length);
        entries.set(ValueLayout.JAVA_INT, at + ShmLayout.L_ID, id);
    }

    /** Writes a whole standard message into the lane entry at {@code at}: header and payload, not the sequence word. */
    private static void laneMessage(MemorySegment entries, long at, MemorySegment payload, int tag, int context,
                                    int typeCode) {
        int n = (int) payload.byteSize();
        laneHeader(entries, at, L_MSG, tag, context, typeCode, n, 0);
        if (n > 0) {
            MemorySegment.copy(payload, 0, entries, at + L_PAYLOAD, n);
        }
    }

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = java.lang.invoke.MethodHandles.lookup().findVarHandle(Outbound.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * What a send that went straight into the ring returns: complete from the start, and
     * shared (such a send has no status and nothing left to cancel), so the small-message path
     * makes no request object and no atomic completion.
     */
    private static final DeviceRequest SENT = sent();

    private static DeviceRequest sent() {
        DeviceRequest r = new DeviceRequest(DeviceRequest.Kind.SEND);
        r.completeSend();
        return r;
    }

    /** Sends to a world rank of this shared file. */
    @Override
    public DeviceRequest isend(MemorySegment buffer, int worldDest, int tag, int context, int typeCode, boolean synchronous) {
        failure.check();
        failure.checkPeer(world[rank], worldDest, "send to");
        if (!reaches(worldDest)) {
            throw new TesseraException(ErrorClass.RANK, "rank " + world[rank] + ": rank " + worldDest
                    + " is not on this machine's shared memory");
        }
        int dest = localOfWorld[worldDest];
        if (dest == rank) {
            return deliverLocally(engine, buffer, new Envelope(world[rank], tag, context, buffer.byteSize(), typeCode),
                    !synchronous && buffer.byteSize() <= eagerLimit, new DeviceRequest(DeviceRequest.Kind.SEND));
        }
        Outbound direct = outbound[dest];
        // single copy first: from SingleCopy.MIN_BYTES it beats the ring's two copies even within one cell
        boolean single = singleCopy(buffer, dest);
        if (!synchronous && !single && (buffer.byteSize() <= LANE_MAX || buffer.byteSize() <= directMax(direct.ring))
                && (buffer.byteSize() < HeapCopy.MIN_BYTES || !heapSingleCopy(buffer, dest))
                && direct.tryDirect(buffer, tag, context, typeCode)) {
            return SENT;
        }
        // a heap array by single copy if the pair's slot is free (IDLE: its last message was read)
        boolean heap = !single && heapSingleCopy(buffer, dest)
                && ShmLayout.casInt(outSlot[dest], HeapCopy.S_STATE, HeapCopy.IDLE, HeapCopy.POSTED);
        DeviceRequest send = new DeviceRequest(DeviceRequest.Kind.SEND);
        boolean acked = synchronous || single || heap;
        int id = acked ? nextId.incrementAndGet() : 0;
        Outgoing m = new Outgoing(buffer, single || heap ? SINGLE : FIRST, tag, context, typeCode, id, acked, send);
        m.peer = dest;
        m.heap = heap;
        if (acked) {
            awaitingAck.put(id, m);
        }
        Outbound ob = outbound[dest];
        if (heap) {
            ob.heap = m;   // before its cell: the receiver cannot be READY earlier
        }
        ob.add(m);
        ob.push();
        return send;
    }

    private void sendAck(int peer, int id) {
        Outbound ob = outbound[peer];
        ob.add(new Outgoing(MemorySegment.NULL, ACK, 0, 0, 0, id, false, null));
        ob.push();
    }

    // ------------------------------------------------------------------ receiving

    /** A message arriving in pieces from one peer: into a matched receive, or into a private buffer. */
    private final class Assembly {
        final Envelope env;
        final ReceiveRequest target;
        final long limit;
        final Unexpected unexpected;
        long received;

        Assembly(Envelope env, ReceiveRequest target, Unexpected unexpected) {
            this.env = env;
            this.target = target;
            this.unexpected = unexpected;
            this.limit = target == null ? env.byteCount() : target.acceptableBytes(env);
        }

        /** Takes the payload of the cell at {@code at} in {@code cells}; true when the message is complete. */
        boolean take(MemorySegment cells, long at, int chunk) {
            long from = at + ShmLayout.payloadOffset(chunk);
            if (target != null) {
                long n = Math.min(chunk, limit - received);
                if (n > 0) {
                    MemorySegment.copy(cells, from, target.buffer(), received, n);
                }
            } else if (chunk > 0) {
                // into the array itself (Unsafe.copyMemory), not segment to segment: see BufferedMessage.copyOf
                MemorySegment.copy(cells, ValueLayout.JAVA_BYTE, from, unexpected.bytes, (int) received, chunk);
            }
            received += chunk;
            return received >= env.byteCount();
        }

        void finish() {
            if (target != null) {
                target.accept(env, (dst, n) -> { });
            } else {
                unexpected.completed();
            }
        }
    }

    /** A message that arrived before its receive: buffered as its pieces come; a receive may match it early. */
    private final class Unexpected extends IncomingMessage {
        final byte[] bytes;
        final MemorySegment data;
        final boolean sync;
        final int id;
        private boolean done;
        private ReceiveRequest waiting;

        Unexpected(Envelope env, boolean sync, int id) {
            super(env);
            this.bytes = new byte[Math.toIntExact(env.byteCount())];
            this.data = bytes.length == 0 ? MemorySegment.NULL : MemorySegment.ofArray(bytes);
            this.sync = sync;
            this.id = id;
        }

        @Override
        public void deliver(ReceiveRequest receive) {
            if (sync) {
                sendAck(localOfWorld[envelope.source()], id);
            }
            synchronized (this) {
                if (!done) {
                    waiting = receive;
                    return;
                }
            }
            receive.accept(envelope, this);
        }

        void completed() {
            ReceiveRequest r;
            synchronized (this) {
                done = true;
                r = waiting;
            }
            if (r != null) {
                r.accept(envelope, this);
            }
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            MemorySegment.copy(data, 0, destination, 0, byteCount);
        }
    }

    // ------------------------------------------------------------------ progress

    @Override
    public boolean progress() {
        if ((idlePolls & 255) != 255 && !workInSight()) {
            // an idle poll reads each inbound ring's next sequence word and each queue's size, and takes
            // no lock; every 256th goes through the lock below and reads the clock for the liveness check
            idlePolls++;
            return false;
        }
        if (!tryProgressing()) {
            return false;
        }
        try {
            return progressHeld();
        } finally {
            doneProgressing();
        }
    }

    /** One round of progress, by the thread that holds {@link #progressing}. */
    private boolean progressHeld() {
        boolean any = false;
        for (int p = 0; p < size; p++) {
            if (p != rank && !failure.isDead(world[p])) {   // a dead rank's ring is left as it is
                any |= drain(p);
                if (outbound[p].queued > 0) {
                    any |= outbound[p].push();
                }
                if (outbound[p].heap != null || heapIn.get(p) != null) {
                    any |= heapProgress(p);
                }
            }
        }
        // liveness every 100 ms, reading the clock only every 256th idle poll (it costs as much as a poll)
        if (!any && (++idlePolls & 255) == 0) {
            long now = System.nanoTime();
            if (now >= nextLivenessCheck) {
                nextLivenessCheck = now + 100_000_000L;
                checkPeers();
            }
        }
        return any;
    }

    /** Polls without a pause at the start of a spinning wait ({@link #await}); 0 leaves them out. */
    static final int TIGHT_POLLS = Integer.getInteger("tessera.shm.tightPolls", 1024);

    /**
     * True if a cell waits in an inbound ring or a piece in an outbound queue. Read without the
     * progress lock, so only a hint: a thread that sees nothing polls again, one that sees
     * something takes the lock and looks properly.
     */
    private boolean workInSight() {
        for (int p = 0; p < size; p++) {
            if (p != rank && (inLanes[p].ready() || outbound[p].queued > 0
                    || current[p] != null && inbound[p].peekAt() >= 0
                    || outbound[p].heap != null || heapIn.get(p) != null)) {
                return true;
            }
        }
        return false;
    }

    private boolean drain(int peer) {
        boolean any = drainRing(peer);
        if (any && peerBells[peer] >= 0) {
            ring(file, peerBells[peer]);   // cells were freed: the peer may sleep waiting for room
        }
        return any;
    }

    /**
     * Reads the peer's lane in order: whole small messages from their entries, acknowledgements,
     * and for an L_CELL entry the message that starts in the ring's next cell. The MORE cells of
     * a message of several cells are read as they come, before the lane; while such a message is
     * still arriving, the lane is read up to its next L_CELL entry (that message's FIRST cell is
     * behind the one arriving).
     */
    private boolean drainRing(int peer) {
        boolean any = current[peer] != null && drainMore(peer);
        ShmLane lane = inLanes[peer];
        MemorySegment entries = lane.segment();
        long at;
        while ((at = lane.peekAt()) >= 0) {
            int kind = entries.get(ValueLayout.JAVA_INT, at + L_KIND);
            if (kind == L_MSG) {
                int n = entries.get(ValueLayout.JAVA_INT, at + L_LENGTH);
                if (n < 0 || n > LANE_MAX) {
                    return corruptEntry(peer, any, "a message of " + n + " bytes (the lane holds up to " + LANE_MAX + ")");
                }
                any = true;
                laneMessage(peer, lane, entries, at, n);
                if (n <= RUN_BYTES) {
                    laneMessages(peer, lane, entries);
                }
                continue;
            }
            if (kind == L_ACK) {
                any = true;
                Outgoing m = awaitingAck.remove(entries.get(ValueLayout.JAVA_INT, at + L_ID));
                lane.release(1);
                if (m != null) {
                    m.acknowledged();
                }
                continue;
            }
            if (kind != L_CELL) {
                return corruptEntry(peer, any, "unknown kind " + kind);
            }
            if (current[peer] != null) {
                return any;   // the message of several cells before this one is still arriving
            }
            any = true;
            lane.release(1);
            if (!cellMessage(peer)) {
                return any;
            }
        }
        return any;
    }

    private boolean corruptEntry(int peer, boolean any, String what) {
        failure.report(world[peer], new TesseraException(ErrorClass.INTERN, "corrupt shared-memory cell from rank "
                + world[peer] + ": lane entry: " + what));
        return any;
    }

    /**
     * The message whose L_CELL entry the lane just gave: its FIRST or SINGLE cell is the ring's
     * next (published before the entry), then whatever of its MORE cells has arrived. False if
     * the cells are corrupt (reported).
     */
    private boolean cellMessage(int peer) {
        ShmRing ring = inbound[peer];
        MemorySegment cells = ring.segment();
        long at = ring.peekAt();
        if (at < 0) {
            failure.report(world[peer], new TesseraException(ErrorClass.INTERN, "corrupt shared-memory cell from rank "
                    + world[peer] + ": a lane entry names a cell that is not there"));
            return false;
        }
        int kind = cells.get(ValueLayout.JAVA_INT, at + C_KIND);
        int chunk = cells.get(ValueLayout.JAVA_INT, at + C_CHUNK);
        String bad = corruption(ring, cells, at, kind, chunk);
        if (bad == null && kind != FIRST && kind != SINGLE) {
            bad = "a message starting with a cell of kind " + kind;
        }
        if (bad != null) {
            // sizes from the cell are checked before use: no out-of-bounds slice, no negative allocation
            failure.report(world[peer], new TesseraException(ErrorClass.INTERN, "corrupt shared-memory cell from rank "
                    + world[peer] + ": " + bad));
            return false;
        }
        if (kind == SINGLE) {
            Envelope env = envelope(peer, cells, at);
            int id = cells.get(ValueLayout.JAVA_INT, at + C_ID);
            long address = cells.get(ValueLayout.JAVA_LONG, at + C_INLINE);
            boolean heap = (cells.get(ValueLayout.JAVA_INT, at + C_FLAGS) & FLAG_HEAP) != 0;
            ring.release();
            IncomingMessage m = heap ? new HeapCopyMessage(env, peer) : new SingleCopyMessage(env, peer, id, address);
            ReceiveRequest r = engine.arrive(m);
            if (r != null) {
                m.deliver(r);
            } else if (heap) {
                // unexpected: read it now into a buffer of its own, so that its sender's send
                // completes as a buffered one would (a blocking send never waits for a receive)
                ((HeapCopyMessage) m).fetchUnexpected();
            }
            return true;
        }
        if (wholeMessage(ring, cells, at, kind, chunk)) {
            // a whole standard message in one cell: one copy, into the posted receive if there is one
            oneCellMessage(peer, ring, cells, at, chunk);
            return true;
        }
        Assembly a = arrival(peer, cells, at);
        boolean complete = a.take(cells, at, chunk);
        ring.release();
        if (complete) {
            a.finish();
            return true;
        }
        current[peer] = a;
        drainMore(peer);
        return true;
    }

    /** The MORE cells that have arrived of the message of several cells now arriving ({@link #current}). */
    private boolean drainMore(int peer) {
        ShmRing ring = inbound[peer];
        MemorySegment cells = ring.segment();
        boolean any = false;
        long at;
        while (current[peer] != null && (at = ring.peekAt()) >= 0) {
            any = true;
            int kind = cells.get(ValueLayout.JAVA_INT, at + C_KIND);
            int chunk = cells.get(ValueLayout.JAVA_INT, at + C_CHUNK);
            String bad = corruption(ring, cells, at, kind, chunk);
            if (bad == null && kind != MORE) {
                bad = "a cell of kind " + kind + " inside a message of several cells";
            }
            if (bad != null) {
                failure.report(world[peer], new TesseraException(ErrorClass.INTERN, "corrupt shared-memory cell from rank "
                        + world[peer] + ": " + bad));
                return any;
            }
            Assembly a = current[peer];
            boolean complete = a.take(cells, at, chunk);
            ring.release();
            if (complete) {
                current[peer] = null;
                a.finish();
            }
        }
        return any;
    }

    /**
     * True if the cell at {@code at} (of a kind already checked) holds a whole standard message
     * of {@code chunk} bytes (at most a cell's payload).
     */
    private static boolean wholeMessage(ShmRing ring, MemorySegment cells, long at, int kind, int chunk) {
        return kind == FIRST && (cells.get(ValueLayout.JAVA_INT, at + C_FLAGS) & FLAG_SYNC) == 0
                && chunk == cells.get(ValueLayout.JAVA_LONG, at + C_TOTAL)
                && chunk >= 0 && chunk <= ring.payloadCapacity();
    }

    /** Largest lane message that a run of small messages ({@link #laneMessages}) copies under the engine's lock. */
    static final int RUN_BYTES = 1024;

    /** True if the lane entry at {@code at} is a sound whole message of at most {@link #RUN_BYTES} bytes. */
    private static boolean smallLaneMessage(MemorySegment entries, long at) {
        int n = entries.get(ValueLayout.JAVA_INT, at + L_LENGTH);
        return entries.get(ValueLayout.JAVA_INT, at + L_KIND) == L_MSG && n >= 0 && n <= RUN_BYTES && n <= LANE_MAX;
    }

    /**
     * After a small message, the run of small lane messages that follows it, if any: the run
     * takes the engine's lock once (each arrival matches under it) instead of once per message. The
     * run ends at the first entry that is not such a message (or is not there yet); the caller's
     * loop takes that one, so the peer's messages are matched in the lane's order.
     */
    private void laneMessages(int peer, ShmLane lane, MemorySegment entries) {
        long at = lane.peekAt();
        if (at < 0 || !smallLaneMessage(entries, at)) {
            return;   // a lone message (the ping-pong case) took the lock once, in arrive
        }
        engine.lock();
        try {
            do {
                laneMessageHeld(peer, lane, entries, at, entries.get(ValueLayout.JAVA_INT, at + L_LENGTH));
                at = lane.peekAt();
            } while (at >= 0 && smallLaneMessage(entries, at));
        } finally {
            engine.unlock();
        }
    }

    /**
     * A whole standard message in the lane entry at {@code at}: copied straight from the lane
     * into the posted receive it matches, or into a new array if none is posted yet; then the
     * entry is released.
     */
    private void laneMessage(int peer, ShmLane lane, MemorySegment entries, long at, int n) {
        int tag = entries.get(ValueLayout.JAVA_INT, at + L_TAG);
        int type = entries.get(ValueLayout.JAVA_INT, at + L_TYPE);
        ReceiveRequest r = engine.arrive(world[peer], tag, entries.get(ValueLayout.JAVA_INT, at + L_CONTEXT), n, type,
                entries, at + L_PAYLOAD);
        laneAccepted(r, peer, lane, entries, at, n, tag, type);
    }

    /** {@link #laneMessage} in a run, under the engine's lock that {@link #laneMessages} holds. */
    private void laneMessageHeld(int peer, ShmLane lane, MemorySegment entries, long at, int n) {
        int tag = entries.get(ValueLayout.JAVA_INT, at + L_TAG);
        int type = entries.get(ValueLayout.JAVA_INT, at + L_TYPE);
        ReceiveRequest r = engine.arriveHeld(world[peer], tag, entries.get(ValueLayout.JAVA_INT, at + L_CONTEXT), n, type,
                entries, at + L_PAYLOAD);
        laneAccepted(r, peer, lane, entries, at, n, tag, type);
    }

    /** The lane message's copy into {@code r} (its match, if any), then the entry's release. */
    private void laneAccepted(ReceiveRequest r, int peer, ShmLane lane, MemorySegment entries, long at, int n, int tag, int type) {
        if (r != null) {
            r.accept(world[peer], tag, n, type, entries, at + L_PAYLOAD);
        }
        lane.release(ShmLane.linesFor(n));
    }

    /**
     * A whole standard message in the cell at {@code at}: copied straight from the cell into
     * the posted receive it matches, or into a new array if none is posted yet; then the cell
     * is released.
     */
    private void oneCellMessage(int peer, ShmRing ring, MemorySegment cells, long at, int chunk) {
        ReceiveRequest r = arriveWhole(peer, cells, at, chunk);
        if (r != null) {
            acceptWhole(r, peer, cells, at, chunk);
        }
        ring.release();
    }

    /**
     * A standard message of one cell at {@code at} arrives: the posted receive it matches
     * (the caller copies into it before releasing the cell), or null once it is queued as a
     * copy in a new array (a slice of the cell is made only then). No envelope object.
     */
    private ReceiveRequest arriveWhole(int peer, MemorySegment cells, long at, int chunk) {
        return engine.arrive(world[peer], cells.get(ValueLayout.JAVA_INT, at + C_TAG),
                cells.get(ValueLayout.JAVA_INT, at + C_CONTEXT), chunk, cells.get(ValueLayout.JAVA_INT, at + C_TYPE),
                cells, at + ShmLayout.payloadOffset(chunk));
    }

    private void acceptWhole(ReceiveRequest r, int peer, MemorySegment cells, long at, int chunk) {
        r.accept(world[peer], cells.get(ValueLayout.JAVA_INT, at + C_TAG), chunk,
                cells.get(ValueLayout.JAVA_INT, at + C_TYPE), cells, at + ShmLayout.payloadOffset(chunk));
    }

    /** What is wrong with a cell's header (kind, payload bytes, message length), or null if it is sound. */
    private static String corruption(ShmRing ring, MemorySegment cells, long at, int kind, int chunk) {
        if (kind < FIRST || kind > SINGLE) {
            return "unknown kind " + kind;
        }
        if (kind == ACK) {
            return null;
        }
        long total = cells.get(ValueLayout.JAVA_LONG, at + C_TOTAL);
        if (kind == FIRST || kind == SINGLE) {
            if (total < 0) {
                return "message length " + total;
            }
        }
        if (kind == FIRST || kind == MORE) {
            if (chunk < 0 || chunk > ring.payloadCapacity() || (kind == FIRST && chunk > total)) {
                return chunk + " payload bytes (a cell holds " + ring.payloadCapacity()
                        + (kind == FIRST ? ", the message " + total : "") + ")";
            }
        }
        return null;
    }

    private Envelope envelope(int peer, MemorySegment cells, long at) {
        return new Envelope(world[peer], cells.get(ValueLayout.JAVA_INT, at + C_TAG),
                cells.get(ValueLayout.JAVA_INT, at + C_CONTEXT), cells.get(ValueLayout.JAVA_LONG, at + C_TOTAL),
                cells.get(ValueLayout.JAVA_INT, at + C_TYPE));
    }

    /**
     * A message whose payload stays in the sender's memory until a receive matches it: then
     * the receiver reads it straight into the receive buffer ({@link SingleCopy}) and
     * acknowledges, which completes the send.
     */
    private final class SingleCopyMessage extends IncomingMessage {
        private final int peer;
        private final int id;
        private final long address;

        SingleCopyMessage(Envelope env, int peer, int id, long address) {
            super(env);
            this.peer = peer;
            this.id = id;
            this.address = address;
        }

        @Override
        public void deliver(ReceiveRequest receive) {
            try {
                receive.accept(envelope, this);
            } finally {
                sendAck(peer, id);
            }
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            if (!SingleCopy.read(peerPids[peer], address, destination, byteCount)) {
                TesseraException e = new TesseraException(ErrorClass.PROC_FAILED, "rank " + world[rank]
                        + ": reading a message from the memory of rank " + world[peer] + " (pid " + peerPids[peer]
                        + ") failed: the process died or the kernel refused");
                failure.rankDied(world[peer], e);
                throw e;
            }
        }
    }

    /**
     * A message whose payload stays in the sender's heap array until a receive matches it: then
     * the receiver marks the pair's slot READY, the sender offers the array's address from inside
     * the helper ({@link HeapCopy}), and the receiver's progress reads it straight into the receive
     * buffer and marks the slot DONE, which completes both sides. Matching never waits: the read
     * happens in a later round of progress (or in this rank's own offer, {@link #heapOffer}).
     */
    private final class HeapCopyMessage extends IncomingMessage {
        private final int peer;
        // An unexpected message is read into a buffer of its own (fetchUnexpected); guarded by this.
        private boolean matched;
        private boolean fetching;
        private MemorySegment held;
        private TesseraException fetchFailed;
        private ReceiveRequest waiting;

        HeapCopyMessage(Envelope env, int peer) {
            super(env);
            this.peer = peer;
        }

        /** Reads the message into a buffer of its own unless a receive has matched it meanwhile. */
        void fetchUnexpected() {
            synchronized (this) {
                if (matched) {
                    return;
                }
                fetching = true;
            }
            MemorySegment buffer = MemorySegment.ofArray(new byte[Math.toIntExact(envelope.byteCount())]);
            heapIn.set(peer, new HeapRead(this, null, buffer));
            ShmLayout.casInt(inSlot[peer], HeapCopy.S_STATE, HeapCopy.POSTED, HeapCopy.READY);
        }

        /** The read of an unexpected message ended: hand it to a receive that matched meanwhile, if any. */
        void fetched(MemorySegment buffer, TesseraException failed) {
            ReceiveRequest r;
            synchronized (this) {
                fetching = false;
                held = buffer;
                fetchFailed = failed;
                r = waiting;
                waiting = null;
            }
            if (r != null) {
                complete(r);
            }
        }

        private void complete(ReceiveRequest receive) {
            if (fetchFailed != null) {
                receive.complete(envelope.source(), envelope.tag(), 0, envelope.typeCode(), fetchFailed);
            } else {
                receive.accept(envelope, this);
            }
        }

        @Override
        public void deliver(ReceiveRequest receive) {
            synchronized (this) {
                matched = true;
                if (fetching) {
                    waiting = receive;   // completed by fetched()
                    return;
                }
            }
            if (held != null || fetchFailed != null) {
                complete(receive);
                return;
            }
            long n = receive.acceptableBytes(envelope);
            if (n == 0 && envelope.byteCount() <= HeapCopy.PIECE_BYTES) {
                // nothing to read (a message of several pieces is read as usual, piece by piece, into no bytes:
                // its sender moves on to the next piece after each DONE)
                receive.accept(envelope, this);
                ShmLayout.setIntRelease(inSlot[peer], HeapCopy.S_STATE, HeapCopy.DONE);
                return;
            }
            heapIn.set(peer, new HeapRead(this, receive, receive.buffer().asSlice(0, n)));
            // READY, unless the sender offers already (OFFERED: progress reads it)
            ShmLayout.casInt(inSlot[peer], HeapCopy.S_STATE, HeapCopy.POSTED, HeapCopy.READY);
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            // read straight into the receive buffer (serveHeap or the helper), or held after an unexpected arrival
            if (held != null && byteCount > 0) {
                MemorySegment.copy(held, 0, destination, 0, byteCount);
            }
        }
    }

    /** A matched heap single-copy message and the receive it goes into ({@code n} bytes of its buffer). */
    private record HeapRead(HeapCopyMessage message, ReceiveRequest receive, MemorySegment destination) {
        long n() {
            return destination.byteSize();
        }
    }

    /**
     * This rank's heap single-copy messages, by the thread that holds {@link #progressing}: reads
     * what a sender offered to it, and offers its own message to {@code peer} once that peer is
     * READY, serving one offered message meanwhile. True if anything moved.
     */
    private boolean heapProgress(int peer) {
        boolean any = false;
        HeapRead r = heapIn.get(peer);
        int in = r == null ? -1 : ShmLayout.getIntAcquire(inSlot[peer], HeapCopy.S_STATE);
        if (in == HeapCopy.POSTED) {
            // the sender withdrew an offer made before our match: now we are READY
            ShmLayout.casInt(inSlot[peer], HeapCopy.S_STATE, HeapCopy.POSTED, HeapCopy.READY);
        }
        Outgoing h = outbound[peer].heap;
        if (in == HeapCopy.OFFERED && h != null && HeapCopy.OFFER_FIRST) {
            // offer ours first: the helper reads the peer's offer from inside ours, and the peer, waiting in its
            // offer, reads ours meanwhile; read first, the two copies ran one after the other (alltoall and
            // allgather of two ranks, where both send at once)
            any |= heapOffer(peer, h);
            r = heapIn.get(peer);
            in = r == null ? -1 : ShmLayout.getIntAcquire(inSlot[peer], HeapCopy.S_STATE);
        }
        if (in == HeapCopy.OFFERED
                && ShmLayout.casInt(inSlot[peer], HeapCopy.S_STATE, HeapCopy.OFFERED, HeapCopy.READING)) {
            MemorySegment slot = inSlot[peer];
            long address = slot.get(ValueLayout.JAVA_LONG, HeapCopy.S_ADDRESS);
            long length = slot.get(ValueLayout.JAVA_LONG, HeapCopy.S_LENGTH);
            long offset = slot.get(ValueLayout.JAVA_LONG, HeapCopy.S_OFFSET);
            boolean more = slot.get(ValueLayout.JAVA_INT, HeapCopy.S_MORE) != 0;
            // the piece at its offset, within the bytes the receive accepts (a truncated receive reads none of the rest)
            long n = offset >= r.n() ? 0 : Math.min(length, r.n() - offset);
            boolean ok = n == 0 || HeapCopy.read(peerPids[peer], address, r.destination().asSlice(offset, n), n);
            if (ok && more) {
                ShmLayout.setIntRelease(slot, HeapCopy.S_STATE, HeapCopy.DONE);   // the sender offers the next piece
            } else {
                heapIn.set(peer, null);
                ShmLayout.setIntRelease(slot, HeapCopy.S_STATE, ok ? HeapCopy.DONE : HeapCopy.FAILED);
                heapRead(peer, r, ok);
            }
            any = true;
        }
        h = outbound[peer].heap;
        if (h != null) {
            any |= heapOffer(peer, h);
        }
        return any;
    }

    /**
     * Offers this rank's heap message {@code h} to {@code peer} while the pair's slot is READY (or
     * POSTED, for a first piece offered before the receiver matched), a piece of at most
     * {@link HeapCopy#PIECE_BYTES} at a time: after a piece is read (DONE) and more follow, the
     * sender moves the slot back to READY and offers the next at once, from Java, so its thread
     * may reach a safepoint between pieces. True if anything moved.
     */
    private boolean heapOffer(int peer, Outgoing h) {
        MemorySegment slot = outSlot[peer];
        long total = h.payload.byteSize();
        int state = ShmLayout.getIntAcquire(slot, HeapCopy.S_STATE);
        boolean any = false;
        while (true) {
            boolean pre = state == HeapCopy.POSTED && HeapCopy.PRE_OFFER_NANOS > 0 && h.firstSent
                    && h.preOffers < HeapCopy.PRE_OFFERS && h.heapOffset == 0;
            if (state != HeapCopy.READY && !pre) {
                break;
            }
            long spin = state == HeapCopy.READY ? HeapCopy.OFFER_NANOS : HeapCopy.PRE_OFFER_NANOS;
            if (pre) {
                h.preOffers++;
            }
            int from = peer;
            HeapRead r = heapIn.get(peer);
            for (int q = 0; r == null && q < size; q++) {
                if (q != rank) {
                    r = heapIn.get(q);
                    from = q;
                }
            }
            long off = h.heapOffset;
            long piece = Math.min(HeapCopy.PIECE_BYTES, total - off);
            boolean more = off + piece < total;
            MemorySegment src = piece == total ? h.payload : h.payload.asSlice(off, piece);
            int result = r == null
                    ? HeapCopy.offer(slot, src, off, more, peerPids[peer], spin, MemorySegment.NULL, 0, MemorySegment.NULL, 0)
                    : HeapCopy.offer(slot, src, off, more, peerPids[peer], spin, inSlot[from], peerPids[from],
                            r.destination(), r.n());
            boolean served = (result & (HeapCopy.R_SERVED | HeapCopy.R_SERVE_FAILED)) != 0;
            if (served && (result & HeapCopy.R_MORE) == 0) {
                heapIn.set(from, null);   // the served message's last piece, or a failed read
                heapRead(from, r, (result & HeapCopy.R_SERVED) != 0);
            }
            any |= served;
            if ((result & HeapCopy.R_DONE) == 0) {
                return any;
            }
            any = true;
            state = ShmLayout.getIntAcquire(slot, HeapCopy.S_STATE);   // DONE or FAILED: only this side moves it now
            if (state != HeapCopy.DONE || !more) {
                break;
            }
            h.heapOffset = off + piece;
            ShmLayout.setIntRelease(slot, HeapCopy.S_STATE, HeapCopy.READY);   // the receiver waits for the next piece
            state = HeapCopy.READY;
        }
        if (state != HeapCopy.DONE && state != HeapCopy.FAILED) {
            return any;
        }
        // read (or failed, which the receiver reports): the slot is free for the pair's next message
        outbound[peer].heap = null;
        ShmLayout.setIntRelease(outSlot[peer], HeapCopy.S_STATE, HeapCopy.IDLE);
        heapSent.incrementAndGet();
        if (awaitingAck.remove(h.id, h)) {
            h.acknowledged();
        }
        return true;
    }

    /** Completes the receive of a heap single-copy message that this rank has read (or failed to). */
    private void heapRead(int peer, HeapRead r, boolean ok) {
        if (ok) {
            if (r.receive() == null) {
                r.message().fetched(r.destination(), null);
            } else {
                r.receive().accept(r.message().envelope(), r.message());
            }
            return;
        }
        TesseraException e = new TesseraException(ErrorClass.PROC_FAILED, "rank " + world[rank]
                + ": reading a message from the memory of rank " + world[peer] + " (pid " + peerPids[peer]
                + ") failed: the process died or the kernel refused");
        Envelope env = r.message().envelope();
        if (r.receive() == null) {
            r.message().fetched(null, e);
        } else {
            r.receive().complete(env.source(), env.tag(), 0, env.typeCode(), e);
        }
        failure.rankDied(world[peer], e);
    }

    private Assembly arrival(int peer, MemorySegment cells, long at) {
        Envelope env = envelope(peer, cells, at);
        boolean sync = (cells.get(ValueLayout.JAVA_INT, at + C_FLAGS) & FLAG_SYNC) != 0;
        int id = cells.get(ValueLayout.JAVA_INT, at + C_ID);
        Unexpected[] holder = new Unexpected[1];
        ReceiveRequest matched = engine.arrive(env, () -> holder[0] = new Unexpected(env, sync, id));
        if (matched != null && sync) {
            sendAck(peer, id);
        }
        return new Assembly(env, matched, holder[0]);
    }

    // ------------------------------------------------------------------ blocking wait

    /**
     * Waits for {@code request}: polls, and in blocking mode sleeps on the doorbell once
     * {@link #SPIN_POLLS} polls in a row found nothing (see the class comment).
     */
    @Override
    public void await(DeviceRequest request) {
        if (!blocking) {
            // first a tight poll of the rings' next sequence words, a few microseconds, with no pause
            // between polls: Thread.onSpinWait costs 25 ns on AMD EPYC (Zen 4), several times a poll, and
            // a message that lands during it waits for it; then the device's usual spin, park and hang report
            for (int i = 0; i < TIGHT_POLLS && !request.isComplete(); i++) {
                if (workInSight() && tryProgressing()) {
                    // work seen: straight to the drain (progress() would look for it a second time)
                    try {
                        progressHeld();
                    } finally {
                        doneProgressing();
                    }
                }
            }
            super.await(request);
            return;
        }
        if (request.isComplete()) {
            return;
        }
        dev.tessera.device.BlockedCalls.Wait blocked = dev.tessera.device.BlockedCalls.enter(this, request);
        try {
            awaitSleeping(request);
        } finally {
            dev.tessera.device.BlockedCalls.exit(blocked);
        }
    }

    private void awaitSleeping(DeviceRequest request) {
        boolean ringsOnCompletion = false;
        int idle = 0;
        long yieldEnd = 0;
        while (!request.isComplete()) {
            if (progress()) {
                idle = 0;
                continue;
            }
            if (idle++ < SPIN_POLLS) {
                Thread.onSpinWait();
                continue;
            }
            if (WAIT_YIELD_NANOS > 0) {
                // the yield phase: the peer this rank waits for usually waits for a core, and a yield
                // hands it this one at once; a sleep and its wake-up through the futex cost more
                long now = System.nanoTime();
                if (yieldEnd == 0) {
                    yieldEnd = now + WAIT_YIELD_NANOS;
                }
                if (now < yieldEnd) {
                    yields.incrementAndGet();
                    Thread.yield();
                    continue;
                }
            }
            failure.check();
            if (!ringsOnCompletion) {
                // a thread of this process may complete the request (a message to self, another
                // thread's progress, a cancel): it then rings the doorbell this thread sleeps on
                request.whenComplete(() -> ring(file, doorbell));
                ringsOnCompletion = true;
            }
            sleep(request);
            long now = System.nanoTime();
            if (now >= nextSleepCheck) {
                nextSleepCheck = now + SLEEP_NANOS;
                checkHealthy();
            }
            idle = 0;
            yieldEnd = 0;
        }
    }

    /** One sleep on this rank's doorbell, unless the last poll before it finds work. */
    private void sleep(DeviceRequest request) {
        if (SLEEP_TIMEOUT == null || !doorbellTaken.compareAndSet(false, true)) {
            // another thread of this rank sleeps on the doorbell and drives progress when woken;
            // completing this request unparks this thread
            request.registerWaiter();
            try {
                if (!request.isComplete()) {
                    LockSupport.parkNanos(200_000L);
                }
            } finally {
                request.clearWaiter();
            }
            return;
        }
        sleepOnDoorbell(request::isComplete);
    }

    /**
     * One sleep on the doorbell, taken by this thread ({@link #doorbellTaken}, released here),
     * unless {@code done} or the poll after announcing the sleep finds work.
     */
    private void sleepOnDoorbell(java.util.function.BooleanSupplier done) {
        try {
            long sequenceAt = doorbell + ShmLayout.D_SEQUENCE;
            long sleepersAt = doorbell + ShmLayout.D_SLEEPERS;
            int sequence = ShmLayout.getIntAcquire(file, sequenceAt);
            ShmLayout.getAndAddInt(file, sleepersAt, 1);
            try {
                // the poll after announcing: anything published before a peer could see us is found here
                if (done.getAsBoolean() || !tryProgressing()) {
                    return;
                }
                boolean moved;
                try {
                    moved = progressHeld();
                } finally {
                    doneProgressing();
                }
                if (moved || done.getAsBoolean()) {
                    return;
                }
                sleeps.incrementAndGet();
                Futex.await(file, sequenceAt, sequence, SLEEP_TIMEOUT);
            } finally {
                ShmLayout.getAndAddInt(file, sleepersAt, -1);
            }
        } finally {
            doorbellTaken.set(false);
        }
    }

    /** Wakes the threads sleeping on the doorbell at {@code bell}, if any announced themselves. */
    private static void ring(MemorySegment file, long bell) {
        VarHandle.fullFence();   // what was published before is visible before the sleepers are read
        ringFenced(file, bell);
    }

    /** {@link #ring} after the caller's full fence. */
    private static void ringFenced(MemorySegment file, long bell) {
        if (ShmLayout.getIntAcquire(file, bell + ShmLayout.D_SLEEPERS) != 0) {
            ShmLayout.getAndAddInt(file, bell + ShmLayout.D_SEQUENCE, 1);
            Futex.wakeAll(file, bell + ShmLayout.D_SEQUENCE);
        }
    }

    /** How this rank's request waits spin and park (tests). */
    dev.tessera.device.IdleStrategy idleStrategy() {
        return idle;
    }

    /** True if waiting threads of this rank sleep after a short spin. */
    public boolean blocking() {
        return blocking;
    }

    /** How many times a thread of this rank went to sleep on its doorbell. */
    public int sleeps() {
        return sleeps.get();
    }

    /** How many times a blocking request wait of this rank yielded its core before sleeping. */
    public int yields() {
        return yields.get();
    }

    // ------------------------------------------------------------------ shared-memory collectives

    /**
     * The collective region of the world communicator (context 0) when every rank of the
     * world is a rank of this shared file and the region is on; null otherwise.
     */
    @Override
    public dev.tessera.device.NodeRegion nodeRegion(int context) {
        return context == 0 && worldRegion != null && size == world.length && localOfWorld.length == size ? worldRegion : null;
    }

    /** Memory of a collective region in the shared file, waited on with the device's wait strategy. */
    /**
     * The copies of the shared-memory collectives between the ranks' buffers and the region
     * ({@link dev.tessera.device.NodeRegion#copy}): pieces of {@link CellCopy#MIN_BYTES} or more by
     * the C library's memcpy as a critical downcall where {@code memcpy} is true (and the helper
     * links, {@link CellCopy#copy}), else, and below that size, by the JIT's copy stub.
     * On the AMD EPYC Zen 5 VM the stub's copies into and out of slots that the other core had
     * just read or written ran 4-5x slower for seconds at a time (a 2-rank bcast of 1 MiB in
     * 130-180 us instead of 25-40), while memcpy (rep movsb) did not: two threads of one JVM passing
     * 64 KiB chunks through 8 shared slots, 20 s runs, medians of 200 hand-offs of 1 MiB above
     * 100 us in 20-40 % of the samples with the stub, in at most 4 of 70 with memcpy (docs/performance.md, stop 76).
     */
    static void regionCopy(boolean memcpy, MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
            long bytes) {
        if (memcpy) {
            CellCopy.copy(src, srcOffset, dst, dstOffset, bytes);
        } else {
            MemorySegment.copy(src, srcOffset, dst, dstOffset, bytes);
        }
    }

    /** Whether the world region's collectives copy large pieces by memcpy (tests: the default, and the switch read). */
    boolean collectivesCopyByMemcpy() {
        return collMemcpy && CellCopy.byMemcpy(CellCopy.MIN_BYTES);
    }

    private final class Region implements dev.tessera.device.NodeRegion {
        /** How long an oversubscribed rank yields its core in a collective's wait before it may sleep (0: not at all). */
        static final long YIELD_NANOS = Long.getLong("tessera.shm.coll.yieldMicros", 50) * 1000L;

        private final MemorySegment memory;
        private final int members;
        private final int slot;

        Region(MemorySegment memory, int members, int slot) {
            this.memory = memory;
            this.members = members;
            this.slot = slot;
        }

        @Override
        public MemorySegment memory() {
            return memory;
        }

        @Override
        public int members() {
            return members;
        }

        @Override
        public int slotBytes() {
            return slot;
        }

        @Override
        public long bulkCopyFrom() {
            return collectivesCopyByMemcpy() ? CellCopy.MIN_BYTES : Long.MAX_VALUE;
        }

        @Override
        public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
            regionCopy(collMemcpy, src, srcOffset, dst, dstOffset, bytes);
        }

        /**
         * Oversubscribed ranks (blocking waits) first hand their core to another runnable rank
         * ({@link Thread#yield}, sched_yield) for up to {@link #YIELD_NANOS} before the device's
         * spin and sleep: the member a collective waits for is often the rank descheduled on
         * this core, and a waiter that does not sleep costs its publisher no futex wake-up.
         * Progress is driven between yields; the wait that follows checks health and liveness.
         */
        @Override
        public void awaitUntil(java.util.function.BooleanSupplier ready, int worldPeer) {
            if (blocking && YIELD_NANOS > 0 && !ready.getAsBoolean()) {
                long end = System.nanoTime() + YIELD_NANOS;
                do {
                    Thread.yield();
                    if (ready.getAsBoolean() || progress() && ready.getAsBoolean()) {
                        return;
                    }
                } while (System.nanoTime() < end);
            }
            awaitCondition(ready, worldPeer);
        }

        @Override
        public boolean waitsBlock() {
            return blocking;
        }

        /**
         * Heap arrays of {@link HeapCopy#MIN_BYTES} to {@link HeapCopy#COLLECTIVE_MAX_BYTES} go by single copy between
         * every two members (every member published that its heap single copy is on, and no two share a
         * process): decided once from the flags every member writes when its device starts, waiting for a
         * member that has not written its flag yet, so every member gives the same answer.
         */
        @Override
        public boolean singleCopies(long bytes) {
            return bytes >= HeapCopy.MIN_BYTES && bytes <= HeapCopy.COLLECTIVE_MAX_BYTES && heapCopyAll();
        }

        /** 0: not decided yet; 1: every member copies heap arrays singly; 2: not every one. */
        private int heapCopyAll;

        private boolean heapCopyAll() {
            int known = heapCopyAll;
            if (known == 0) {
                boolean all = true;
                for (int p = 0; p < size; p++) {
                    long at = ShmLayout.rankOffset(p) + ShmLayout.R_HEAP_COPY;
                    if (p != rank) {
                        awaitCondition(() -> ShmLayout.getIntAcquire(file, at) != 0, world[p]);
                    }
                    all &= ShmLayout.getIntAcquire(file, at) == 1 && (p == rank || peerPids[p] != peerPids[rank]);
                }
                known = all ? 1 : 2;
                heapCopyAll = known;
            }
            return known == 1;
        }

        @Override
        public boolean memberExited(int worldPeer) {
            int p = localOfWorld[worldPeer];
            return !ProcessHandle.of(peerPids[p]).map(ProcessHandle::isAlive).orElse(false);
        }

        /**
         * Rings the doorbells of the peers that may sleep, after one full fence for all of them
         * (not one per peer, {@link #ring}): the fence orders this rank's published stores before
         * its reads of the peers' sleeper counts, and one does that for every count read after
         * it. A fence is a locked instruction, which waits until this call's stores into its lane
         * line have taken the line from the peers that read it; with 4 blocking ranks that was
         * three such waits per published collective call.
         */
        @Override
        public void wake() {
            boolean fenced = false;
            for (long bell : peerBells) {
                if (bell >= 0) {
                    if (!fenced) {
                        VarHandle.fullFence();   // what was published before is visible before the sleepers are read
                        fenced = true;
                    }
                    ringFenced(file, bell);
                }
            }
        }
    }

    /**
     * Waits until {@code ready} holds: polls it while driving progress (a peer may need this
     * rank to drain its ring before it can reach the flag), checks the job's health and
     * {@code worldPeer}'s liveness every 256 empty polls, and, after a spin, backs off as
     * {@link #await} does: parks in spinning mode, sleeps on the doorbell in blocking mode
     * (publishers ring it, see {@link Region#wake}).
     */
    private void awaitCondition(java.util.function.BooleanSupplier ready, int worldPeer) {
        if (ready.getAsBoolean()) {
            return;
        }
        // hang reports and --time-limit name the collective this rank waits in, as they do for request waits
        dev.tessera.device.BlockedCalls.Wait blocked = dev.tessera.device.BlockedCalls.enabled()
                ? dev.tessera.device.BlockedCalls.enterCurrent(this,
                        "waiting for rank " + worldPeer + "'s collective flag in shared memory")
                : null;
        try {
            spinThenSleep(ready, worldPeer);
        } finally {
            dev.tessera.device.BlockedCalls.exit(blocked);
        }
    }

    private void spinThenSleep(java.util.function.BooleanSupplier ready, int worldPeer) {
        int idle = 0;
        // no test of the condition at the loop's head: the caller has just found it false, and a test whose
        // "true" is seen only when a wait ends there is one the JIT leaves out and traps on (docs/npb.md, stop 58)
        for (;;) {
            // the condition is a read of a cache line: poll it a few times between progress calls (spinning
            // ranks only: a rank that may sleep spins as long as a request wait does, SPIN_POLLS progress calls)
            for (int i = blocking ? CONDITION_POLLS - 1 : 0; i < CONDITION_POLLS; i++) {
                Thread.onSpinWait();
                if (ready.getAsBoolean()) {
                    return;
                }
            }
            if (progress()) {
                idle = 0;
                continue;
            }
            idle++;
            if ((idle & 255) == 0) {
                failure.check();
                failure.checkPeer(world[rank], worldPeer, "collective with");
            }
            if (blocking) {
                if (idle < SPIN_POLLS) {
                    Thread.onSpinWait();
                } else {
                    failure.check();
                    failure.checkPeer(world[rank], worldPeer, "collective with");
                    sleepUntil(ready);
                    long now = System.nanoTime();
                    if (now >= nextSleepCheck) {
                        nextSleepCheck = now + SLEEP_NANOS;
                        checkHealthy();
                    }
                    idle = 0;
                }
            } else {
                this.idle.idle(idle);
            }
        }
    }

    /** One sleep on this rank's doorbell until a peer rings it, unless the last poll before finds {@code ready}. */
    private void sleepUntil(java.util.function.BooleanSupplier ready) {
        if (SLEEP_TIMEOUT == null || !doorbellTaken.compareAndSet(false, true)) {
            LockSupport.parkNanos(200_000L);   // another thread of this rank sleeps on the doorbell
            return;
        }
        sleepOnDoorbell(ready);
    }

    // ------------------------------------------------------------------ liveness, abort, close

    private void checkPeers() {
        int aborted = ShmLayout.getIntAcquire(file, ShmLayout.OFF_ABORT);
        if (aborted > 0 && !failure.hasFailed()) {
            int len = Math.min(ShmLayout.MAX_ABORT_TEXT, file.get(ValueLayout.JAVA_INT, ShmLayout.OFF_ABORT_LEN));
            byte[] text = file.asSlice(ShmLayout.OFF_ABORT_TEXT, Math.max(0, len)).toArray(ValueLayout.JAVA_BYTE);
            failure.report(aborted - 1, new JobFailure.Notice(new String(text, StandardCharsets.UTF_8)));
            return;
        }
        for (int p = 0; p < size; p++) {
            if (p == rank || failure.isDead(world[p])) {
                continue;
            }
            long stateAt = ShmLayout.rankOffset(p) + 8;
            // The state is read again once the process is seen dead: a peer that closed cleanly and
            // exited between a first read and the liveness check (a descheduled checker on a busy
            // node) must not count as failed; once it is dead its state is final.
            if (ShmLayout.getIntAcquire(file, stateAt) != ShmLayout.STATE_CLOSED
                    && !ProcessHandle.of(peerPids[p]).map(ProcessHandle::isAlive).orElse(false)
                    && ShmLayout.getIntAcquire(file, stateAt) != ShmLayout.STATE_CLOSED) {
                failure.rankDied(world[p], new TesseraException(ErrorClass.PROC_FAILED,
                        "the process of rank " + world[p] + " (pid " + peerPids[p] + ") died or was killed"));
                if (failure.hasFailed()) {
                    return;
                }
            }
        }
    }

    /**
     * A job that goes on without a dead rank: the sends to it that are queued or wait for its
     * acknowledgement fail, naming it (what was already in its ring is lost with it), and so
     * does a receive that was taking a message from it; its ring to this rank is not read again.
     */
    private void failPendingWith(int deadWorldRank) {
        int p = deadWorldRank < localOfWorld.length ? localOfWorld[deadWorldRank] : -1;
        if (p < 0 || p == rank) {
            return;
        }
        Assembly partial = current[p];
        current[p] = null;
        outbound[p].heap = null;   // its request waits in awaitingAck and fails below
        HeapRead unread = heapIn.getAndSet(p, null);
        if (unread != null) {
            unread.receive().complete(deadWorldRank, unread.message().envelope().tag(), 0,
                    unread.message().envelope().typeCode(), JobFailure.rankFailed(world[rank], deadWorldRank, "receive from"));
        }
        if (partial != null && partial.target != null) {
            partial.target.complete(deadWorldRank, partial.env.tag(), 0, partial.env.typeCode(),
                    JobFailure.rankFailed(world[rank], deadWorldRank, "receive from"));
        }
        java.util.Set<Outgoing> failed = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        Outbound ob = outbound[p];
        ob.lock();
        try {
            for (Outgoing m : ob.queue) {
                if (m.request != null) {
                    failed.add(m);
                }
            }
            ob.queue.clear();   // with acknowledgements to the dead rank: nobody reads them
            ob.queued = 0;
        } finally {
            ob.unlock();
        }
        for (var e : awaitingAck.entrySet()) {
            if (e.getValue().peer == p && awaitingAck.remove(e.getKey(), e.getValue())) {
                failed.add(e.getValue());
            }
        }
        for (Outgoing m : failed) {
            m.request.complete(deadWorldRank, m.tag, 0, m.typeCode,
                    JobFailure.rankFailed(world[rank], deadWorldRank, "send to"));
        }
    }

    @Override
    public void checkHealthy() {
        if (!failure.hasFailed() && tryProgressing()) {
            try {
                checkPeers();
            } finally {
                doneProgressing();
            }
        }
        super.checkHealthy();
    }

    @Override
    public void abort(int failedRank, Throwable cause) {
        super.abort(failedRank, cause);
        // the slot names the job's first failure: a rank that stops because another failed relays it
        JobFailure.Origin origin = failure.origin();
        byte[] text = origin.reason().getBytes(StandardCharsets.UTF_8);
        int len = Math.min(text.length, ShmLayout.MAX_ABORT_TEXT);
        if (ShmLayout.casInt(file, ShmLayout.OFF_ABORT, 0, -1)) {
            MemorySegment.copy(MemorySegment.ofArray(text), 0, file, ShmLayout.OFF_ABORT_TEXT, len);
            file.set(ValueLayout.JAVA_INT, ShmLayout.OFF_ABORT_LEN, len);
            ShmLayout.setIntRelease(file, ShmLayout.OFF_ABORT, origin.rank() + 1);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Push what is still queued (bounded), then say this rank left on purpose.
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean pending = true;
        while (pending && !failure.hasFailed() && System.nanoTime() < deadline) {
            progress();
            pending = false;
            for (int p = 0; p < size; p++) {
                Outbound ob = outbound[p];
                if (ob != null && !failure.isDead(world[p])) {
                    ob.lock();
                    try {
                        pending |= !ob.queue.isEmpty();
                    } finally {
                        ob.unlock();
                    }
                }
            }
            if (pending) {
                Thread.onSpinWait();
            }
        }
        ShmLayout.setIntRelease(file, ShmLayout.rankOffset(rank) + 8, ShmLayout.STATE_CLOSED);
    }
}
