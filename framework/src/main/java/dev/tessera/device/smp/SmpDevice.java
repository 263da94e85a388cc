package dev.tessera.device.smp;

import dev.tessera.device.MatchingDevice;
import dev.tessera.device.LocalRendezvousMessage;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.BackoffIdleStrategy;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.ReceiveRequest;
import dev.tessera.device.SmallMessageRing;
import dev.tessera.device.WaitMode;
import java.lang.foreign.MemorySegment;

/**
 * Ranks as threads of one JVM (FastMPJ's smpdev). The sender does the matching: it locks
 * the receiver's engine, and if a receive is posted it copies straight from its buffer
 * into the receiver's (one copy, no intermediate buffer). Otherwise a small standard send
 * is copied into a bounce buffer and completes at once (eager), while a large or
 * synchronous send leaves a reference to the sender's own buffer in the receiver's
 * unexpected queue and completes when the receiver copies from it (rendezvous: still one
 * copy). Completion wakes the waiting thread directly, so there is no progress thread.
 *
 * <p>Small standard sends (up to {@link SmallMessageRing#DEFAULT_MAX_PAYLOAD} bytes,
 * {@code -Dtessera.smp.ringMax}, and the eager limit) take a faster path for message rate and
 * latency: the sending thread writes the message into its own ring to the receiver (one entry
 * of consecutive 32-byte slots: one, half a cache line, up to 8 bytes, then one more per 32
 * bytes) and completes at once, without
 * the receiver's lock; the receiver matches it when it next takes its engine's lock (every
 * receive, probe and cancel) or polls in a wait ({@link #progress()}). A receiver parked in
 * a wait is unparked by the sender. A send that finds the ring full, or comes from a thread
 * other than the ring's owner, takes the locked path above, which first drains the rings,
 * so the order of one sender's messages holds across both paths.
 * {@code -Dtessera.smp.ring=false} turns the rings off.
 *
 * <p>A waiting thread spins, then parks until the completer unparks it. In
 * {@link WaitMode#BLOCK} (more ranks than cores, or TESSERA_WAIT=block) it spins only
 * briefly and parks at once, without the yield phase, for up to 100 ms at a time (to
 * notice a failed job); otherwise (every rank has a core) it spins as the shm device's
 * spinning ranks do, about 1-2 ms ({@link BackoffIdleStrategy#LONG_SPIN}), then parks with
 * growing timeouts. With the shorter default spin (2,000 polls, tens of microseconds) a rank
 * that waited for its peer's copy of a large message parked and woke late: a 1 MiB ping-pong
 * took 96-97 us against 33-35 us with the long spin (Intel Xeon, docs/performance.md, stop 56).
 */
public final class SmpDevice extends MatchingDevice {

    private final SmpFabric fabric;
    private final int rank;
    /** This rank's rings to each destination (opened on first use), or null with rings off. */
    private final SmallMessageRing.Producer[] rings;
    /** Largest message the rings take ({@link SmpFabric#ringMax()}). */
    private final long ringLimit;
    /** Whether this rank's waits park at once ({@link WaitMode#BLOCK}). */
    private final boolean blocking;
    /** This rank's view of the job's collective region (created on first use), or null. */
    private Region region;
    /** The completed request of every send that completes inside isend (shared: it never changes). */
    private static final DeviceRequest SENT = completedSend();

    private static DeviceRequest completedSend() {
        DeviceRequest r = new DeviceRequest(DeviceRequest.Kind.SEND);
        r.completeSend();
        return r;
    }

    /** The blocking wait: a short spin, then parks that completion ends (unpark). */
    private static final IdleStrategy BLOCKING = new dev.tessera.device.BackoffIdleStrategy(
            Integer.getInteger("tessera.wait.spins", 200), 0, 100_000_000L, 100_000_000L);

    SmpDevice(SmpFabric fabric, int rank) {
        this(fabric, rank, WaitMode.resolve(System.getenv(), rank, fabric.size()));
    }

    SmpDevice(SmpFabric fabric, int rank, WaitMode wait) {
        super(fabric.engine(rank), fabric.failure(), wait == WaitMode.BLOCK ? BLOCKING : BackoffIdleStrategy.LONG_SPIN);
        this.fabric = fabric;
        this.rank = rank;
        this.rings = fabric.ringSlots() > 0 ? new SmallMessageRing.Producer[fabric.size()] : null;
        this.ringLimit = fabric.ringMax();
        this.blocking = wait == WaitMode.BLOCK;
    }

    /** How this rank waits (for tests: the long spin when every rank has a core, the blocking wait otherwise). */
    IdleStrategy idleStrategy() {
        return idle;
    }

    @Override
    public String name() {
        return "smp";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return fabric.size();
    }

    @Override
    public long eagerLimit() {
        return fabric.eagerLimit();
    }

    @Override
    public DeviceRequest isend(MemorySegment buffer, int dest, int tag, int context, int typeCode,
                               boolean synchronous) {
        failure.check();
        long size = buffer.byteSize();
        if (rings != null && !synchronous && size <= ringLimit) {
            SmallMessageRing.Producer ring = rings[dest];
            if (ring == null) {
                ring = rings[dest] = fabric.engine(dest).openRing(rank, fabric.ringSlots(), fabric.ringMax());
            }
            if (ring.owner == Thread.currentThread() && ring.offer(tag, context, typeCode, buffer, (int) size)) {
                ring.wakeReceiver();
                return SENT;
            }
        }
        if (!synchronous && size <= fabric.eagerLimit()) {
            // eager: straight into a posted receive, else a private copy; no envelope object on the matched path
            ReceiveRequest matched = fabric.engine(dest).arrive(rank, tag, context, size, typeCode, buffer, 0);
            if (matched != null) {
                matched.accept(rank, tag, size, typeCode, buffer, 0);
            }
            return SENT;
        }
        Envelope env = new Envelope(rank, tag, context, size, typeCode);
        SendRequest send = new SendRequest(dest);
        ReceiveRequest matched = fabric.engine(dest).arrive(env,
                () -> (send.pending = new LocalRendezvousMessage(env, buffer, send)));
        if (matched != null) {
            matched.accept(env, (dst, n) -> MemorySegment.copy(buffer, 0, dst, 0, n));
            send.completeSend();
        }
        return send;
    }

    @Override
    public boolean cancel(DeviceRequest request) {
        if (super.cancel(request)) {
            return true;
        }
        if (request instanceof SendRequest s && s.pending != null
                && fabric.engine(s.dest).withdraw(s.pending)) {
            s.completeCancelled();
            return true;
        }
        return false;
    }

    /** Moves the small messages senders have published on this rank's rings into its engine. */
    @Override
    public boolean progress() {
        return engine.poll();
    }

    @Override
    protected void pollingParks() {
        engine.sleeping(Thread.currentThread());
        engine.poll(); // a message published before the registration is matched now, not after the park
    }

    @Override
    protected void pollingEnded(boolean parked) {
        if (parked) {
            engine.awake(Thread.currentThread());
        }
    }

    /**
     * The job's shared-memory collective region for the world communicator (context 0, every
     * rank of the job), so {@code NodeCollectives} runs on smp as on shm; null for other
     * communicators or with {@code tessera.smp.coll=off}.
     */
    @Override
    public synchronized dev.tessera.device.NodeRegion nodeRegion(int context) {
        if (context != 0) {
            return null;
        }
        if (region == null) {
            SmpRegion shared = fabric.region();
            if (shared == null) {
                return null;
            }
            region = new Region(shared);
        }
        return region;
    }

    /** One rank's view of the job's {@link SmpRegion}: its waits and its wake-ups. */
    private final class Region implements dev.tessera.device.NodeRegion {
        /**
         * How long a rank whose waits block (more ranks than cores) first hands its core to another
         * runnable thread ({@link Thread#yield}) before it spins briefly and parks
         * ({@code tessera.smp.coll.yieldMicros}, default 50; 0: not at all), as the shm device's
         * collective waits do: a waiter that does not park costs its publisher no unpark.
         */
        static final long YIELD_NANOS = Long.getLong("tessera.smp.coll.yieldMicros", 50) * 1000L;
        /** Polls of the condition between checks of the job's health. */
        private static final int CHECK_EVERY = 256;

        private final SmpRegion shared;

        Region(SmpRegion shared) {
            this.shared = shared;
        }

        @Override
        public MemorySegment memory() {
            return shared.memory;
        }

        @Override
        public int members() {
            return shared.members;
        }

        @Override
        public int slotBytes() {
            return shared.slotBytes;
        }

        @Override
        public long bulkCopyFrom() {
            return shared.bulkFrom;
        }

        @Override
        public void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long bytes) {
            dev.tessera.device.shm.BulkCopy.copy(src, srcOffset, dst, dstOffset, bytes);
        }

        /**
         * Polls {@code ready} (ranks whose waits block yield their core first, {@link #YIELD_NANOS}),
         * then backs off as a request wait does (spin, then parks); before its
         * first park the thread registers as a sleeper of its rank's engine, which publishers
         * ({@link #wake}) and ring senders unpark. The job's failure ends the wait with its error.
         */
        @Override
        public void awaitUntil(java.util.function.BooleanSupplier ready, int worldPeer) {
            if (ready.getAsBoolean()) {
                return;
            }
            if (blocking && YIELD_NANOS > 0) {
                // more ranks than cores: the rank waited for is often one descheduled on this core
                long end = System.nanoTime() + YIELD_NANOS;
                do {
                    Thread.yield();
                    if (ready.getAsBoolean()) {
                        return;
                    }
                } while (System.nanoTime() < end);
            }
            dev.tessera.device.BlockedCalls.Wait blocked = dev.tessera.device.BlockedCalls.enabled()
                    ? dev.tessera.device.BlockedCalls.enterCurrent(SmpDevice.this,
                            "waiting for rank " + worldPeer + "'s collective flag in shared memory")
                    : null;
            Thread me = Thread.currentThread();
            boolean registered = false;
            try {
                BackoffIdleStrategy backoff = idle instanceof BackoffIdleStrategy b ? b : null;
                for (int n = 0; !ready.getAsBoolean(); n++) {
                    if (registered || (n & (CHECK_EVERY - 1)) == CHECK_EVERY - 1) {
                        failure.check();   // after every park (up to 100 ms in blocking mode), else every CHECK_EVERY polls
                    }
                    if (!registered && (backoff == null || backoff.parks(n))) {
                        engine.sleeping(me);   // an atomic add: a publisher that misses it is seen by the check below
                        registered = true;
                        failure.check();
                        continue;
                    }
                    idle.idle(n);
                }
            } finally {
                if (registered) {
                    engine.awake(me);
                }
                dev.tessera.device.BlockedCalls.exit(blocked);
            }
        }

        @Override
        public boolean memberExited(int worldPeer) {
            return fabric.hasEnded(worldPeer);
        }

        @Override
        public boolean waitsBlock() {
            return blocking;
        }

        /**
         * Two smp ranks copy a point-to-point message once at any size (the sender into a posted
         * receive, or the receiver out of the sender's buffer); which two-rank collectives go point
         * to point is the comm layer's choice ({@code PairCopyDecision}).
         */
        @Override
        public boolean singleCopies(long bytes) {
            return true;
        }

        @Override
        public boolean sameAddressSpace() {
            return true;
        }

        /**
         * Unparks the threads of other ranks that sleep in a wait. Spinning ranks read the sleeper
         * counts without a fence (a park that misses the wake-up ends after its timeout, at most
         * 200 us); ranks that park at once (blocking mode, parks of up to 100 ms) fence first, so the
         * published stores are visible before the counts are read.
         */
        @Override
        public void wake() {
            if (blocking) {
                java.lang.invoke.VarHandle.fullFence();
            }
            for (int j = 0; j < shared.members; j++) {
                if (j != rank) {
                    MatchingEngine e = fabric.engine(j);
                    if (e.hasSleepers()) {
                        e.wakeSleepers();
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        // Nothing to release: the fabric belongs to the launcher.
    }

    /** A send, remembering its unmatched rendezvous message so that it can be cancelled. */
    private static final class SendRequest extends DeviceRequest {
        final int dest;
        LocalRendezvousMessage pending;

        SendRequest(int dest) {
            super(Kind.SEND);
            this.dest = dest;
        }
    }
}
