package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A typed view of the memory a message is sent from or received into: a slice of a Java
 * primitive array, a {@link MemorySegment} (heap or native) or a {@link ByteBuffer}
 * (heap or direct, from position to limit). Primitive arrays are wrapped, never copied,
 * except {@code boolean[]}, which the JVM does not expose as memory: those are packed to
 * bytes before sending and unpacked after receiving.
 *
 * <pre>{@code
 * comm.send(Buffer.of(field), right, 0);                  // a whole array
 * comm.recv(Buffer.of(field, n - 1, 1), left, 0);         // one element: a slice, not offset+count arguments
 * comm.allreduce(Buffer.of(local), Buffer.of(global), Op.SUM);
 * }</pre>
 */
public final class Buffer {

    /** Never started: a thread that is not the owner of any confined arena. */
    private static final Thread OTHER_THREAD = new Thread(() -> { });

    private final MemorySegment segment;
    private final Datatype type;
    private final int count;
    private final boolean[] booleans;
    private final int booleanOffset;
    /** A thread-confined segment of the user's, staged through {@code segment}; else null. */
    private final MemorySegment confined;

    private Buffer(MemorySegment segment, Datatype type, int count, boolean[] booleans, int booleanOffset) {
        this(segment, type, count, booleans, booleanOffset, null);
    }

    private Buffer(MemorySegment segment, Datatype type, int count, boolean[] booleans, int booleanOffset,
                   MemorySegment confined) {
        this.segment = segment;
        this.type = type;
        this.count = count;
        this.booleans = booleans;
        this.booleanOffset = booleanOffset;
        this.confined = confined;
    }

    private static Buffer array(Object array, int length, int offset, int count, Datatype type) {
        if (array == null) {
            throw new NullPointerException(where("Buffer.of(" + type.name().toLowerCase(java.util.Locale.ROOT) + "[])")
                    + ": buffer array is null");
        }
        checkRange(length, offset, count, type);
        MemorySegment whole = switch (array) {
            case double[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case byte[] a -> MemorySegment.ofArray(a);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass());
        };
        long size = type.byteSize();
        return new Buffer(whole.asSlice(offset * size, count * size), type, count, null, 0);
    }

    // The call's name is built only when the range is bad: a valid Buffer.of or slice (made per
    // message in a solver's loop) allocates nothing but the buffer.
    private static void checkRange(int length, int offset, int count, Datatype type) {
        if (outside(length, offset, count)) {
            throw outsideError(length, offset, count, "Buffer.of(" + type.name().toLowerCase(java.util.Locale.ROOT)
                    + "[], offset " + offset + ", count " + count + ")", "array of length " + length);
        }
    }

    private static boolean outside(int length, int offset, int count) {
        return offset < 0 || count < 0 || offset > length - count;
    }

    private static TesseraException outsideError(int length, int offset, int count, String call, String whole) {
        return new TesseraException(count < 0 ? ErrorClass.COUNT : ErrorClass.BUFFER,
                where(call) + ": buffer slice [offset " + offset + ", count " + count + "] outside " + whole);
    }

    /**
     * "rank R: CALL" when the calling thread belongs to a rank (a thread of an smp rank, or
     * any thread of a process rank), else just CALL: buffers are often made before any
     * communicator call, and the error should still say which rank made the bad one.
     */
    static String where(String call) {
        dev.tessera.device.Device d = dev.tessera.internal.CurrentRank.device();
        return d != null ? "rank " + d.rank() + ": " + call : call;
    }

    public static Buffer of(double[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(double[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.DOUBLE); }
    public static Buffer of(float[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(float[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.FLOAT); }
    public static Buffer of(long[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(long[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.LONG); }
    public static Buffer of(int[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(int[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.INT); }
    public static Buffer of(short[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(short[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.SHORT); }
    public static Buffer of(char[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(char[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.CHAR); }
    public static Buffer of(byte[] a) { return of(a, 0, a == null ? 0 : a.length); }
    public static Buffer of(byte[] a, int offset, int count) { return array(a, a == null ? 0 : a.length, offset, count, Datatype.BYTE); }
    public static Buffer of(boolean[] a) { return of(a, 0, a == null ? 0 : a.length); }

    public static Buffer of(boolean[] a, int offset, int count) {
        if (a == null) {
            throw new NullPointerException(where("Buffer.of(boolean[])") + ": buffer array is null");
        }
        checkRange(a.length, offset, count, Datatype.BOOLEAN);
        return new Buffer(MemorySegment.ofArray(new byte[count]), Datatype.BOOLEAN, count, a, offset);
    }

    /**
     * A segment holding elements of {@code type}; its size must be a multiple of the element
     * size. Segments of shared, global and automatic arenas (and heap segments) are used in
     * place; a segment of a confined arena is staged through a private copy, because
     * devices move data on threads of their own, which a confined segment refuses.
     */
    public static Buffer of(MemorySegment segment, Datatype type) {
        if (segment == null || type == null) {
            throw new NullPointerException(where("Buffer.of(MemorySegment, Datatype)") + ": "
                    + (segment == null ? "buffer segment" : "datatype") + " is null");
        }
        if (type == Datatype.OBJECT || type == Datatype.BOOLEAN) {
            throw new TesseraException(ErrorClass.TYPE, where("Buffer.of(MemorySegment, " + type + ")")
                    + ": a memory segment cannot hold " + type + " elements; use BYTE");
        }
        long n = segment.byteSize() / type.byteSize();
        if (n * type.byteSize() != segment.byteSize() || n > Integer.MAX_VALUE) {
            throw new TesseraException(ErrorClass.BUFFER, where("Buffer.of(MemorySegment, " + type + ")")
                    + ": segment of " + segment.byteSize() + " bytes is not a whole number (< 2^31) of " + type + " elements");
        }
        if (!segment.isAccessibleBy(OTHER_THREAD)) {
            return new Buffer(MemorySegment.ofArray(new byte[Math.toIntExact(segment.byteSize())]), type, (int) n,
                    null, 0, segment);
        }
        return new Buffer(segment, type, (int) n, null, 0);
    }

    /** The bytes of a ByteBuffer from its position to its limit. */
    public static Buffer of(ByteBuffer buffer) {
        return of(buffer, Datatype.BYTE);
    }

    /** The elements of {@code type} in a ByteBuffer from its position to its limit. */
    public static Buffer of(ByteBuffer buffer, Datatype type) {
        Objects.requireNonNull(buffer, "byte buffer is null");
        return of(MemorySegment.ofBuffer(buffer), type);
    }

    /** A segment of any element type, booleans included (already packed as bytes): for Tessera's own staging. */
    static Buffer raw(MemorySegment segment, Datatype type) {
        return new Buffer(segment, type, (int) (segment.byteSize() / type.byteSize()), null, 0);
    }

    /** An empty buffer of the given type (for ranks that contribute nothing). */
    public static Buffer empty(Datatype type) {
        return new Buffer(MemorySegment.ofArray(new byte[0]), type, 0, type == Datatype.BOOLEAN ? new boolean[0] : null, 0);
    }

    /** Elements {@code [offset, offset + count)} of this buffer. */
    public Buffer slice(int offset, int count) {
        if (outside(this.count, offset, count)) {
            throw outsideError(this.count, offset, count, "Buffer.slice(offset " + offset + ", count " + count + ")",
                    "a buffer of " + this.count + " elements");
        }
        long size = type.byteSize();
        MemorySegment s = segment.asSlice(offset * size, count * size);
        MemorySegment c = confined == null ? null : confined.asSlice(offset * size, count * size);
        return new Buffer(s, type, count, booleans, booleanOffset + offset, c);
    }

    public Datatype type() {
        return type;
    }

    /** Number of elements. */
    public int count() {
        return count;
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** The bytes to send: for boolean arrays, packed now from the array; for confined segments, copied now. */
    MemorySegment sendSegment() {
        if (confined != null) {
            MemorySegment.copy(confined, 0, segment, 0, segment.byteSize());
        }
        if (booleans != null) {
            for (int i = 0; i < count; i++) {
                segment.set(ValueLayout.JAVA_BYTE, i, booleans[booleanOffset + i] ? (byte) 1 : (byte) 0);
            }
        }
        return segment;
    }

    /** The memory to receive into; call {@link #received} once the receive completed. */
    MemorySegment receiveSegment() {
        return segment;
    }

    /** Finishes a receive of {@code byteCount} bytes: unpacks booleans, copies into a confined segment. */
    void received(long byteCount) {
        if (confined != null) {
            MemorySegment.copy(segment, 0, confined, 0, Math.min(byteCount, segment.byteSize()));
        }
        if (booleans != null) {
            int n = (int) Math.min(byteCount, count);
            for (int i = 0; i < n; i++) {
                booleans[booleanOffset + i] = segment.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
        }
    }

    boolean isReadOnly() {
        return segment.isReadOnly() || (confined != null && confined.isReadOnly());
    }

    @Override
    public String toString() {
        return count + " x " + type;
    }
}
