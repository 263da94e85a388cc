package dev.tessera.device;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A message whose payload has been copied into a private buffer (eager protocol, or read off a socket). */
public final class BufferedMessage extends IncomingMessage {

    private final MemorySegment copy;

    /** Copies {@code source} into a new buffer. */
    public static BufferedMessage copyOf(Envelope env, MemorySegment source) {
        int n = Math.toIntExact(source.byteSize());
        if (n == 0) {
            return new BufferedMessage(env, MemorySegment.NULL);
        }
        // Copied into the array (Unsafe.copyMemory), not segment to segment: on Temurin 25.0.3, C2's
        // compiled form of a small segment-to-segment copy (SegmentBulkOperations.copy, 8 bytes at a
        // time below 64 bytes) into a just-allocated array lost bytes 8-15 of 32-byte messages (the
        // collective check's signatures arrived with those bytes zero; CollectiveReadTest in io/ showed
        // it in 2 of 2 runs, and 0 of 2 with this method excluded from compilation).
        byte[] bytes = new byte[n];
        MemorySegment.copy(source, ValueLayout.JAVA_BYTE, 0, bytes, 0, n);
        return new BufferedMessage(env, MemorySegment.ofArray(bytes));
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
