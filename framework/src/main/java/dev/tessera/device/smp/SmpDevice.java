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
import java.lang.foreign.MemorySegment;

/**
 * Ranks as threads of one JVM (FastMPJ's smpdev). The sender does the matching: it locks
 * the receiver's engine, and if a receive is posted it copies straight from its buffer
 * into the receiver's (one copy, no intermediate buffer). Otherwise a small standard send
 * is copied into a bounce buffer and completes at once (eager), while a large or
 * synchronous send leaves a reference to the sender's own buffer in the receiver's
 * unexpected queue and completes when the receiver copies from it (rendezvous: still one
 * copy). Completion wakes the waiting thread directly, so there is no progress thread.
 */
public final class SmpDevice extends MatchingDevice {

    private final SmpFabric fabric;
    private final int rank;

    SmpDevice(SmpFabric fabric, int rank) {
        super(fabric.engine(rank), fabric.failure(), IdleStrategy.backoff());
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
