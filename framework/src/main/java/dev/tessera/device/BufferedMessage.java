package dev.tessera.device;

import java.lang.foreign.MemorySegment;

/** A message whose payload has been copied into a private buffer (eager protocol, or read off a socket). */
public final class BufferedMessage extends IncomingMessage {

    private final MemorySegment copy;

    /** Copies {@code source} into a new buffer. */
    public static BufferedMessage copyOf(Envelope env, MemorySegment source) {
        long n = source.byteSize();
        MemorySegment copy = n == 0 ? MemorySegment.NULL : MemorySegment.ofArray(new byte[Math.toIntExact(n)]);
        if (n > 0) {
            MemorySegment.copy(source, 0, copy, 0, n);
        }
        return new BufferedMessage(env, copy);
    }

    /** Takes ownership of {@code payload} (no copy). */
    public BufferedMessage(Envelope env, MemorySegment payload) {
        super(env);
        this.copy = payload;
    }

    @Override
    public void copyTo(MemorySegment destination, long byteCount) {
        MemorySegment.copy(copy, 0, destination, 0, byteCount);
    }
}
