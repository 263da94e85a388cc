package dev.tessera.device;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * MPI message matching for one receiving rank: per context, a queue of posted receives
 * and a queue of unexpected messages.
 *
 * <p>Invariants (MPI non-overtaking): both queues are FIFO. An arriving message matches
 * the <em>oldest</em> posted receive whose (source, tag) pattern it fits, else it joins
 * the tail of the unexpected queue. A new receive matches the <em>oldest</em> unexpected
 * message that fits its pattern, else it joins the tail of the posted queue. A message
 * is never in the unexpected queue while a fitting receive is posted, and vice versa.
 * Devices feed arrivals in the order each sender sent them (per sender, per context), so
 * two messages from one sender that both fit a receive are received in send order.
 *
 * <p>All queue operations run under the engine's lock ({@link #lock()}: one compare-and-set
 * to take it, a release store to give it back, where a monitor costs a second atomic on
 * release; this lock is on every message's path); payload copies happen outside it, after
 * the match has been decided, except for messages from a {@link SmallMessageRing}
 * (at most a few KiB: {@link SmallMessageRing#DEFAULT_MAX_PAYLOAD}), which are copied out of their slots
 * under it. Every operation first drains the engine's rings (the smp device's small
 * messages), so the queues always hold every message published before the operation.
 * Contexts are keyed by int with a one-entry cache, because consecutive operations nearly
 * always hit the same communicator.
 */
public final class MatchingEngine {

    /** An engine with no receive posted and no message arrived. */
    public MatchingEngine() {
    }

    private final Map<Integer, Queues> contexts = new HashMap<>();
    private static final SmallMessageRing[] NO_RINGS = new SmallMessageRing[0];
    /** Rings of small messages into this engine (smp), copy-on-write under the lock. */
    private volatile SmallMessageRing[] rings = NO_RINGS;
    /** Threads of this rank parked in a wait, for senders on a ring to wake. */
    private final CopyOnWriteArrayList<Thread> sleepers = new CopyOnWriteArrayList<>();
    /**
     * How many threads of this rank are parked in a wait ({@link #sleeping}), in a cache line of
     * its own (native memory): senders on a ring read it after every message. This object's own
     * line changes with every lock of the engine; a sender that read it per message would take
     * that line away from the receiver each time, one more transfer between the cores on the
     * message's path. This line changes only when a thread parks or wakes.
     */
    final MemorySegment sleeperCount = java.lang.foreign.Arena.ofAuto().allocate(64, 64);
    private static final java.lang.invoke.VarHandle COUNT = java.lang.foreign.ValueLayout.JAVA_INT.varHandle();
    private Queues cachedQueues;

    // The lock word sits between 128 bytes of padding on each side (HotSpot lays out fields of one
    // size in declaration order), so that no other object shares its cache line or that line's
    // prefetch pair: the owner writes it twice per operation, and the collector places the
    // long-lived objects of both ranks (engines, rings, producers) next to each other in whatever
    // order it copies them, where a peer thread that reads a neighbouring object on its message
    // path would take a line miss for every lock of this engine.
    @SuppressWarnings("unused") private long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    /**
     * The {@link Thread#threadId()} of the thread that holds the engine's lock, or 0 ({@link #lock()}).
     * A long rather than the Thread: a compare-and-set of a primitive has no G1 write barrier.
     */
    @SuppressWarnings("unused")   // through OWNER
    private volatile long owner;
    /** How many times the owner holds the lock (reentrant: a device's run of arrivals holds it around each arrive). */
    private long holds;
    /** The context of {@link #cachedQueues} (a long, to sit inside the padding with the lock word). */
    private long cachedContext = Integer.MIN_VALUE;
    @SuppressWarnings("unused") private long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
    private static final java.lang.invoke.VarHandle OWNER;

    static {
        try {
            OWNER = java.lang.invoke.MethodHandles.lookup().findVarHandle(MatchingEngine.class, "owner", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Takes the engine's lock (reentrant): one compare-and-set when it is free. Every engine
     * operation takes it; a device that matches a run of arrivals may hold it around the run
     * (each arrive then re-enters it without an atomic), always releasing it with
     * {@link #unlock()} in a finally block. A thread that finds it taken spins briefly, then
     * yields, then parks for short spells: holders only match, copy small payloads and complete
     * requests, but on an oversubscribed node a holder can lose its core.
     */
    public void lock() {
        long me = Thread.currentThread().threadId();
        if (OWNER.compareAndSet(this, 0L, me)) {
            holds = 1;
            return;
        }
        if ((long) OWNER.getOpaque(this) == me) {
            holds++;
            return;
        }
        for (int spins = 0; !OWNER.compareAndSet(this, 0L, me); spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else if (spins < 1_100) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
        holds = 1;
    }

    /** Gives back one hold of the lock taken by {@link #lock()}; the last one releases it (a release store). */
    public void unlock() {
        if ((long) OWNER.getOpaque(this) != Thread.currentThread().threadId()) {
            throw new IllegalMonitorStateException("matching engine unlocked by a thread that does not hold it");
        }
        if (--holds == 0) {
            OWNER.setRelease(this, 0L);
        }
    }

    /** True if the calling thread holds the engine's lock (assertions and tests). */
    public boolean heldByCurrentThread() {
        return (long) OWNER.getOpaque(this) == Thread.currentThread().threadId();
    }

    private static final class Queues {
        ReceiveRequest postedHead;
        ReceiveRequest postedTail;
        IncomingMessage unexpectedHead;
        IncomingMessage unexpectedTail;
    }

    private Queues queues(int context) {
        if (context == cachedContext) {
            return cachedQueues;
        }
        Queues q = contexts.computeIfAbsent(context, c -> new Queues());
        cachedContext = context;
        cachedQueues = q;
        return q;
    }

    /**
     * A message arrives. Returns the matched posted receive, removed from its queue (the
     * caller delivers into it), or null after enqueueing {@code unmatched.get()} as an
     * unexpected message.
     */
    public ReceiveRequest arrive(Envelope env, Supplier<? extends IncomingMessage> unmatched) {
        lock();
        try {
            drainRings();
            Queues q = queues(env.context());
            ReceiveRequest r = takePosted(q, env.source(), env.tag());
            if (r == null) {
                appendUnexpected(q, unmatched.get());
            }
            return r;
        } finally {
            unlock();
        }
    }

    /**
     * A whole message whose payload lies at {@code offset} of {@code from} (a shared-memory
     * cell, or an smp sender's own buffer) arrives. Returns the matched posted receive, removed from its queue: the caller
     * delivers into it with {@link ReceiveRequest#accept(int, int, long, int, MemorySegment, long)}
     * before {@code from} is reused. Else queues a private copy as an unexpected message and
     * returns null. No envelope object and no supplier on the matched path.
     *
     * <p>A device that drains a run of such messages holds this engine's lock around the run
     * ({@link #lock()} ... {@link #unlock()}) and calls {@link #arriveHeld} for each instead.
     */
    public ReceiveRequest arrive(int source, int tag, int context, long byteCount, int typeCode,
                                 MemorySegment from, long offset) {
        lock();
        try {
            drainRings();
            return matchOrQueueCopy(source, tag, context, byteCount, typeCode, from, offset);
        } finally {
            unlock();
        }
    }

    /**
     * {@link #arrive(int, int, int, long, int, MemorySegment, long)} for a caller that holds
     * this engine's lock (a device matching a run of messages under one {@link #lock()}): the
     * same match, without taking the lock again. Re-entering it per message would put the lock's
     * reentrant branch on the run's path, which a lone message never takes: the JIT compiles
     * the lock without that branch from the common case and must deoptimise every method it
     * inlined the lock into when a run first comes (CG at 2 x 1 on shm: Comm.irecv recompiled
     * for 24 ms inside the timed part, docs/npb.md, stop 58).
     */
    public ReceiveRequest arriveHeld(int source, int tag, int context, long byteCount, int typeCode,
                                     MemorySegment from, long offset) {
        assert heldByCurrentThread() : "arriveHeld without the engine's lock";
        drainRings();
        return matchOrQueueCopy(source, tag, context, byteCount, typeCode, from, offset);
    }

    /** A message arrives that is already fully buffered: match it or queue it. */
    public ReceiveRequest arrive(IncomingMessage m) {
        return arrive(m.envelope(), () -> m);
    }

    /**
     * A receive is posted. Returns the oldest matching unexpected message, removed from its
     * queue (the caller delivers it), or null after the receive has either matched a message on
     * the rings (and completed) or joined the posted queue. The unexpected queue is searched
     * first and without draining: it holds each sender's older messages, the rings only newer ones.
     *
     * <p>Then the rings are drained with the new receive as the youngest posted one, before it is
     * queued: each ring message goes to the oldest queued receive it fits, else into the new
     * receive, else to the unexpected queue, exactly as if the receive had been appended to the
     * posted queue first. The drain stops as soon as the new receive has matched: the slots after
     * it stay on their rings, in order, for the next receive (or wait) to take straight from the
     * slot instead of being copied aside as unexpected messages, which keeps the invariant above
     * (a sender's unexpected messages are older than its ring messages). A receive matched there
     * never enters the queue: no links written and unlinked again (two stores of a young request
     * into the long-lived queue, each a G1 card-mark fence), which is the receiving side of the
     * message rate when the sender is ahead. Every other operation drains the rings completely.
     */
    public IncomingMessage post(ReceiveRequest r) {
        lock();
        try {
            Queues q = queues(r.context);
            IncomingMessage m = findUnexpected(q, r.source, r.tag);
            if (m != null) {
                unlinkUnexpected(q, m);
                return m;
            }
            for (SmallMessageRing ring : rings) {
                ring.drainInto(this, r);
                if (r.isComplete()) {
                    return null;   // matched on a ring: later slots wait there
                }
            }
            r.prev = q.postedTail;
            r.next = null;
            if (q.postedTail == null) {
                q.postedHead = r;
            } else {
                q.postedTail.next = r;
            }
            q.postedTail = r;
            r.queued = true;
            return null;
        } finally {
            unlock();
        }
    }

    /** The envelope of the oldest unexpected message matching the pattern, or null (probe). */
    public Envelope peek(int source, int tag, int context) {
        lock();
        try {
            drainRings();
            IncomingMessage m = findUnexpected(queues(context), source, tag);
            return m == null ? null : m.envelope();
        } finally {
            unlock();
        }
    }

    /** Removes and returns the oldest matching unexpected message, or null (matched probe). */
    public IncomingMessage take(int source, int tag, int context) {
        lock();
        try {
            drainRings();
            Queues q = queues(context);
            IncomingMessage m = findUnexpected(q, source, tag);
            if (m != null) {
                unlinkUnexpected(q, m);
            }
            return m;
        } finally {
            unlock();
        }
    }

    /** Removes a posted receive that has not matched yet; false if it already matched. */
    public boolean cancel(ReceiveRequest r) {
        lock();
        try {
            drainRings();
            if (!r.queued) {
                return false;
            }
            unlinkPosted(queues(r.context), r);
            return true;
        } finally {
            unlock();
        }
    }

    /**
     * Removes and returns every posted receive that names {@code source} (not wildcards), in
     * every context: a dead rank's receives, which the caller completes with an error.
     */
    public java.util.List<ReceiveRequest> removeReceivesFrom(int source) {
        lock();
        try {
            drainRings();
            java.util.List<ReceiveRequest> out = new java.util.ArrayList<>();
            for (Queues q : contexts.values()) {
                for (ReceiveRequest r = q.postedHead; r != null; ) {
                    ReceiveRequest next = r.next;
                    if (r.source == source) {
                        unlinkPosted(q, r);
                        out.add(r);
                    }
                    r = next;
                }
            }
            return out;
        } finally {
            unlock();
        }
    }

    /** Removes an unexpected message that has not been received yet; false if it has. */
    public boolean withdraw(IncomingMessage m) {
        lock();
        try {
            drainRings();
            Queues q = queues(m.envelope().context());
            for (IncomingMessage x = q.unexpectedHead; x != null; x = x.next) {
                if (x == m) {
                    unlinkUnexpected(q, m);
                    return true;
                }
            }
            return false;
        } finally {
            unlock();
        }
    }

    /** Number of unexpected messages queued in a context (diagnostics and tests). */
    public int unexpectedCount(int context) {
        lock();
        try {
            drainRings();
            int n = 0;
            for (IncomingMessage m = queues(context).unexpectedHead; m != null; m = m.next) {
                n++;
            }
            return n;
        } finally {
            unlock();
        }
    }

    // ------------------------------------------------------------------ small-message rings (smp)

    /**
     * Opens a ring for small messages from {@code source} into this engine, written by the
     * calling thread only ({@code slots}: a power of two), with entries of at most
     * {@link SmallMessageRing#DEFAULT_MAX_PAYLOAD} bytes (fewer on a ring too small for them).
     */
    public SmallMessageRing.Producer openRing(int source, int slots) {
        return openRing(source, slots, SmallMessageRing.DEFAULT_MAX_PAYLOAD);
    }

    /** As {@link #openRing(int, int)}, with entries of at most {@code maxPayload} bytes (see {@link SmallMessageRing#maxPayload(int)}). */
    public SmallMessageRing.Producer openRing(int source, int slots, int maxPayload) {
        lock();
        try {
            SmallMessageRing ring = new SmallMessageRing(source, slots, maxPayload);
            SmallMessageRing[] more = java.util.Arrays.copyOf(rings, rings.length + 1);
            more[rings.length] = ring;
            rings = more;
            return new SmallMessageRing.Producer(ring, Thread.currentThread(), this);
        } finally {
            unlock();
        }
    }

    /**
     * Moves the messages published on this engine's rings into its queues; true if there
     * were any. Called by the receiving rank's waiting loop: looks without the lock first.
     */
    public boolean poll() {
        for (SmallMessageRing ring : rings) {
            if (ring.ready()) {
                lock();
                try {
                    return drainRings() > 0;
                } finally {
                    unlock();
                }
            }
        }
        return false;
    }

    private int drainRings() {
        int n = 0;
        for (SmallMessageRing ring : rings) {
            n += ring.drainInto(this, null);
        }
        return n;
    }

    /**
     * A ring's message, its payload at {@code payloadOffset} of {@code slots}, under the lock:
     * copied straight into the oldest posted receive it matches (no envelope object); else into
     * {@code posting}, a receive being posted that is not queued yet and counts as the youngest
     * posted one (null if none); else queued as an unexpected copy.
     */
    void arriveSmall(int source, int tag, int context, int typeCode, int byteCount, MemorySegment slots,
                     long payloadOffset, ReceiveRequest posting) {
        Queues q = queues(context);
        ReceiveRequest r = takePosted(q, source, tag);
        if (r != null) {
            r.acceptFromRing(source, tag, byteCount, typeCode, slots, payloadOffset);
        } else if (posting != null && posting.context == context && posting.matches(source, tag)) {
            posting.acceptUnpublished(source, tag, byteCount, typeCode, slots, payloadOffset);
        } else {
            appendUnexpected(q, BufferedMessage.copyOf(new Envelope(source, tag, context, byteCount, typeCode),
                    slots.asSlice(payloadOffset, byteCount)));
        }
    }

    /**
     * Under the lock: the oldest posted receive that a message from (source, tag) fits, removed
     * from its queue; else null after queueing a private copy of the payload at {@code offset}
     * of {@code from} as an unexpected message.
     */
    private ReceiveRequest matchOrQueueCopy(int source, int tag, int context, long byteCount, int typeCode,
                                            MemorySegment from, long offset) {
        Queues q = queues(context);
        ReceiveRequest r = takePosted(q, source, tag);
        if (r == null) {
            appendUnexpected(q, BufferedMessage.copyOf(new Envelope(source, tag, context, byteCount, typeCode),
                    from.asSlice(offset, byteCount)));
        }
        return r;
    }

    /** Removes and returns the oldest posted receive of {@code q} that a message from (source, tag) fits, or null. */
    private static ReceiveRequest takePosted(Queues q, int source, int tag) {
        for (ReceiveRequest r = q.postedHead; r != null; r = r.next) {
            if (r.matches(source, tag)) {
                unlinkPosted(q, r);
                return r;
            }
        }
        return null;
    }

    /** A thread of the receiving rank is about to park: senders on a ring wake it ({@link #wakeSleepers}). */
    public void sleeping(Thread t) {
        sleepers.add(t);
        COUNT.getAndAdd(sleeperCount, 0L, 1);   // after the add: a sender that sees the count finds the thread
    }

    /** Whether a thread of this rank is registered as parked ({@link #sleeping}); a volatile read. */
    public boolean hasSleepers() {
        return (int) COUNT.getVolatile(sleeperCount, 0L) != 0;
    }

    /** The thread no longer parks. */
    public void awake(Thread t) {
        COUNT.getAndAdd(sleeperCount, 0L, -1);
        sleepers.remove(t);
    }


    /**
     * After publishing on a ring: unparks the receiving rank's threads that sleep in a wait.
     * A sleeper registers (an atomic add) before it drains the rings one last time, and every
     * ring message is published by a volatile store (a full fence) before the sender looks at
     * the count, so either the sleeper sees the message or the sender sees the sleeper. Ring senders
     * call it through {@link SmallMessageRing.Producer#wakeReceiver}, which reads only
     * {@link #sleeperCount} when nobody sleeps.
     */
    public void wakeSleepers() {
        if (!sleepers.isEmpty()) {
            for (Thread t : sleepers) {
                LockSupport.unpark(t);
            }
        }
    }

    private static IncomingMessage findUnexpected(Queues q, int source, int tag) {
        for (IncomingMessage m = q.unexpectedHead; m != null; m = m.next) {
            Envelope e = m.envelope();
            if ((source == Device.ANY_SOURCE || source == e.source())
                    && (tag == Device.ANY_TAG || tag == e.tag())) {
                return m;
            }
        }
        return null;
    }

    private static void appendUnexpected(Queues q, IncomingMessage m) {
        m.prev = q.unexpectedTail;
        m.next = null;
        if (q.unexpectedTail == null) {
            q.unexpectedHead = m;
        } else {
            q.unexpectedTail.next = m;
        }
        q.unexpectedTail = m;
    }

    private static void unlinkUnexpected(Queues q, IncomingMessage m) {
        if (m.prev == null) {
            q.unexpectedHead = m.next;
        } else {
            m.prev.next = m.next;
        }
        if (m.next == null) {
            q.unexpectedTail = m.prev;
        } else {
            m.next.prev = m.prev;
        }
        m.prev = null;
        m.next = null;
    }

    private static void unlinkPosted(Queues q, ReceiveRequest r) {
        if (r.prev == null) {
            q.postedHead = r.next;
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            q.postedTail = r.prev;
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
        r.queued = false;
    }
}
