package mpjbuf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** A {@link RawBuffer} held in a heap {@link ByteBuffer} (big-endian). */
public class NIOBuffer implements RawBuffer {

    private ByteBuffer buffer;

    /** Storage of {@code capacity} bytes. */
    public NIOBuffer(int capacity) {
        if (capacity < 0) {
            throw new java.lang.IllegalArgumentException("mpjbuf.NIOBuffer: capacity " + capacity + " is negative");
        }
        this.buffer = ByteBuffer.allocate(capacity);
    }

    /** Storage in {@code buffer} (its first {@code capacity} bytes are used). */
    public NIOBuffer(int capacity, ByteBuffer buffer) {
        if (buffer == null || capacity < 0 || capacity > buffer.capacity()) {
            throw new java.lang.IllegalArgumentException("mpjbuf.NIOBuffer: capacity " + capacity
                    + " does not fit the given ByteBuffer" + (buffer == null ? " (null)" : " of " + buffer.capacity() + " bytes"));
        }
        this.buffer = buffer.duplicate().clear().limit(capacity).slice().order(ByteOrder.BIG_ENDIAN);
    }

    @Override
    public int getCapacity() {
        return buffer == null ? 0 : buffer.capacity();
    }

    /** The storage. */
    public ByteBuffer getBuffer() {
        return buffer;
    }

    /** Replaces the storage. */
    public void setBuffer(ByteBuffer buffer) {
        this.buffer = buffer;
    }

    /** Byte order of the storage. */
    public void setEncoding(ByteOrder order) {
        if (buffer != null) {
            buffer.order(order);
        }
    }

    /** Copies {@code length} bytes from {@code src} at {@code srcOffset} to {@code dstOffset} here. */
    public void copy(ByteBuffer src, int srcOffset, int length, int dstOffset) {
        buffer.put(dstOffset, src, srcOffset, length);
    }

    @Override
    public void free() {
        buffer = null;
    }

    @Override
    public void clear() {
    }

    boolean isFreed() {
        return buffer == null;
    }

    /** Grows the storage to at least {@code needed} bytes, keeping its content. */
    void ensure(int needed) {
        if (needed <= buffer.capacity()) {
            return;
        }
        int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) needed, 2L * buffer.capacity()));
        ByteBuffer bigger = ByteBuffer.allocate(grown).order(buffer.order());
        bigger.put(0, buffer, 0, buffer.capacity());
        buffer = bigger;
    }
}
