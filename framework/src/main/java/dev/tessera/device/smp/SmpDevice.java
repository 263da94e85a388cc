package dev.tessera.device.smp;

import dev.tessera.device.MatchingDevice;
import dev.tessera.device.LocalRendezvousMessage;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
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
 * of consecutive cache lines: one line up to {@value SmallMessageRing#FIRST_LINE_PAYLOAD} bytes,
 * then one more per 64 bytes) and completes at once, without
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
 * notice a failed job); otherwise it spins longer, yields, then parks with growing timeouts.
 */
public final class SmpDevice extends MatchingDevice {

    private final SmpFabric fabric;
    private final int rank;
    /** This rank's rings to each destination (opened on first use), or null with rings off. */
    private final SmallMessageRing.Producer[] rings;
    /** Largest message the rings take ({@link SmpFabric#ringMax()}). */
    private final long ringLimit;
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
        super(fabric.engine(rank), fabric.failure(), wait == WaitMode.BLOCK ? BLOCKING : IdleStrategy.backoff());
        this.fabric = fabric;
        this.rank = rank;
        this.rings = fabric.ringSlots() > 0 ? new SmallMessageRing.Producer[fabric.size()] : null;
        this.ringLimit = fabric.ringMax();
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
