package dev.tessera.device;

/**
 * What a message says about itself: the sender's world rank, the tag, the context (which
 * communicator, point-to-point or collective traffic), the payload size in bytes and the
 * element type code the sender used.
 */
public record Envelope(int source, int tag, int context, long byteCount, int typeCode) {
}
