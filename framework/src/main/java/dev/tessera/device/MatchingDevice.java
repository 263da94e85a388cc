package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/**
 * The part every device with a {@link MatchingEngine} shares: receives, probes and
 * cancellation against this rank's engine, and messages to self, which never leave the
 * process (small ones are copied at once, large or synchronous ones wait in the sender's
 * buffer until the receive matches, as on the smp device).
 */
public abstract class MatchingDevice extends AbstractDevice {

    protected final MatchingEngine engine;

    protected MatchingDevice(MatchingEngine engine, JobFailure failure, IdleStrategy idle) {
        super(failure, idle);
        this.engine = engine;
        // a job that goes on when a rank dies: the receives waiting for that rank fail, naming it
        failure.onRankDeath(dead -> {
            for (ReceiveRequest r : engine.removeReceivesFrom(dead)) {
                r.complete(dead, r.tag, 0, r.typeCode, JobFailure.rankFailed(rank(), dead, "receive from"));
            }
        });
    }

    /**
     * Delivers a message into {@code target}'s engine with the smp protocol: a posted
     * receive gets one copy straight from {@code buffer}; else an eager message is copied
     * aside and the send completes, and a large or synchronous one is left in place until
     * it is received.
     */
    protected static DeviceRequest deliverLocally(MatchingEngine target, MemorySegment buffer, Envelope env,
                                                  boolean eager, DeviceRequest send) {
        ReceiveRequest matched = target.arrive(env, () -> eager ? BufferedMessage.copyOf(env, buffer)
                : new LocalRendezvousMessage(env, buffer, send));
        if (matched != null) {
            matched.accept(env, (dst, n) -> MemorySegment.copy(buffer, 0, dst, 0, n));
            send.completeSend();
        } else if (eager) {
            send.completeSend();
        }
        return send;
    }

    @Override
    public ReceiveRequest irecv(MemorySegment buffer, int source, int tag, int context, int typeCode) {
        failure.check();
        ReceiveRequest r = new ReceiveRequest(buffer, source, tag, context, typeCode);
        IncomingMessage m = engine.post(r);
        if (m != null) {
            m.deliver(r);
        } else if (failure.isDead(source) && engine.cancel(r)) {
            // what the dead rank sent before it died is still received (above); nothing more will come
            r.complete(source, tag, 0, typeCode, JobFailure.rankFailed(rank(), source, "receive from"));
        }
        return r;
    }

    @Override
    public Envelope iprobe(int source, int tag, int context) {
        failure.check();
        progress();
        return engine.peek(source, tag, context);
    }

    @Override
    public IncomingMessage improbe(int source, int tag, int context) {
        failure.check();
        progress();
        return engine.take(source, tag, context);
    }

    /** Cancels a receive that has not matched; devices add what they can cancel of sends. */
    @Override
    public boolean cancel(DeviceRequest request) {
        if (request instanceof ReceiveRequest r && engine.cancel(r)) {
            r.completeCancelled();
            return true;
        }
        return false;
    }
}
