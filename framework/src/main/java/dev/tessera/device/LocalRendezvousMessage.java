package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/**
 * A large or synchronous message from a sender in this process, still in the sender's
 * own buffer: the receiver copies from it when it matches and then completes the send.
 */
public final class LocalRendezvousMessage extends IncomingMessage {

    private final MemorySegment senderBuffer;
    private final DeviceRequest send;

    public LocalRendezvousMessage(Envelope env, MemorySegment senderBuffer, DeviceRequest send) {
        super(env);
        this.senderBuffer = senderBuffer;
        this.send = send;
    }

    @Override
    public void copyTo(MemorySegment destination, long byteCount) {
        MemorySegment.copy(senderBuffer, 0, destination, 0, byteCount);
    }

    @Override
    protected void delivered() {
        send.completeSend();
    }
}
