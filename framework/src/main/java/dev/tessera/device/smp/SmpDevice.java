package dev.tessera.device.smp;

import dev.tessera.device.MatchingDevice;
import dev.tessera.device.BufferedMessage;
import dev.tessera.device.LocalRendezvousMessage;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.ReceiveRequest;
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
 * <p>A waiting thread spins, then parks until the completer unparks it. In
 * {@link WaitMode#BLOCK} (more ranks than cores, or TESSERA_WAIT=block) it spins only
 * briefly and parks at once, without the yield phase, for up to 100 ms at a time (to
 * notice a failed job); otherwise it spins longer, yields, then parks with growing timeouts.
 */
public final class SmpDevice extends MatchingDevice {

    private final SmpFabric fabric;
    private final int rank;

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
        Envelope env = new Envelope(rank, tag, context, buffer.byteSize(), typeCode);
        SendRequest send = new SendRequest(dest);
        boolean eager = !synchronous && buffer.byteSize() <= fabric.eagerLimit();
        ReceiveRequest matched = fabric.engine(dest).arrive(env, () -> eager
                ? BufferedMessage.copyOf(env, buffer)
                : (send.pending = new LocalRendezvousMessage(env, buffer, send)));
        if (matched != null) {
            matched.accept(env, (dst, n) -> MemorySegment.copy(buffer, 0, dst, 0, n));
            send.completeSend();
        } else if (eager) {
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

    @Override
    public boolean progress() {
        return false;
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
