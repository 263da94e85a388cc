package mpjbuf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * MPJ Express's message buffer: a sequence of typed <em>sections</em>, each a header (the
 * section's {@link Type} and element count, {@link #SECTION_OVERHEAD} bytes, starting on a
 * multiple of {@link #ALIGNMENT_UNIT}) followed by its elements. Primitive elements live in
 * the <em>static</em> part, the {@link RawBuffer} given to the constructor, from byte
 * {@link #offset()} on; objects ({@link Type#OBJECT}) and the {@code *_DYNAMIC} sections are
 * serialized into the <em>dynamic</em> part.
 *
 * <p>A new buffer is writable: {@link #putSectionHeader} starts a section, {@code write} and
 * {@code gather} append elements to it. {@link #commit()} makes it readable (and rewinds a
 * readable one): {@link #getSectionHeader()} moves to the next section, {@code read} and
 * {@code scatter} take its elements in order. {@link #clear()} empties it for writing again.
 * {@code mpi.Comm.Pack}/{@code Unpack} and sends and receives with {@code MPI.PACKED} use it
 * (see the porting guide).
 *
 * <p>Unlike MPJ Express, the static part grows when a write would not fit its capacity
 * (MPJ Express throws {@link BufferOverflowException}), so buffers sized with
 * {@code Pack_size} (which counts no section headers) are always big enough. Elements are
 * big-endian. Errors are {@link BufferException}s whose subclass and message say what was wrong.
 */
public class Buffer {

    /** Bytes of a section header in the static part. */
    public static final int SECTION_OVERHEAD = 8;
    /** Sections start at multiples of this many bytes of the static part. */
    public static final int ALIGNMENT_UNIT = 8;

    private NIOBuffer storage;
    private final int bufoffset;
    private boolean freed;
    private boolean writable = true;
    /** Bytes of data in the static part (from {@link #bufoffset}). */
    private int size;

    private Type writeType;
    private int writeHeader;
    private int writeCount;
    private ByteArrayOutputStream dynamicBytes;
    private ObjectOutputStream dynamicOut;
    /** The dynamic part once committed (or set by {@link #setDynamicBuffer}). */
    private byte[] dynamic;

    private int readPtr;
    private Type readType;
    private int readSize;
    private int readLeft;
    private ObjectInputStream dynamicIn;

    /** A buffer with a static part of {@code capacity} bytes of its own, from offset 0. */
    public Buffer(int capacity) {
        this(new NIOBuffer(capacity), 0, capacity);
    }

    /**
     * A buffer whose static part is {@code buffer} from byte {@code bufoffset} (the bytes
     * before it are left alone: MPJ Express's devices put their headers there, see
     * {@code MPI.SEND_OVERHEAD}); {@code capacity} is the storage's size in bytes.
     */
    public Buffer(RawBuffer buffer, int bufoffset, int capacity) {
        if (!(buffer instanceof NIOBuffer nio) || nio.isFreed()) {
            throw new java.lang.IllegalArgumentException("mpjbuf.Buffer: the storage must be a live RawBuffer from "
                    + "BufferFactory.create (got " + (buffer == null ? "null" : buffer.getClass().getName()
                    + (buffer instanceof NIOBuffer ? ", already destroyed" : "")) + ")");
        }
        if (bufoffset < 0 || capacity < bufoffset || capacity > buffer.getCapacity()) {
            throw new java.lang.IllegalArgumentException("mpjbuf.Buffer: offset " + bufoffset + " and capacity " + capacity
                    + " do not fit storage of " + buffer.getCapacity() + " bytes (need 0 <= offset <= capacity <= storage)");
        }
        this.storage = nio;
        this.bufoffset = bufoffset;
    }

    /** Byte of the static storage where the data starts. */
    public int offset() {
        return bufoffset;
    }

    // ------------------------------------------------------------------ states

    /** Frees the buffer and its static storage; any later use is a {@link WrongStateException}. */
    public void free() {
        if (!freed) {
            freed = true;
            dynamic = null;
            dynamicOut = null;
            dynamicIn = null;
            storage.free();
        }
    }

    /**
     * Makes the buffer readable, with the read position at its first section; on a readable
     * buffer, rewinds it.
     */
    public void commit() throws BufferException {
        live("commit");
        if (writable && dynamicOut != null) {
            try {
                dynamicOut.flush();
            } catch (IOException e) {
                throw new DynamicBufferException("mpjbuf.Buffer.commit: writing the dynamic part failed: " + e, e);
            }
            dynamic = dynamicBytes.toByteArray();
            dynamicOut = null;
            dynamicBytes = null;
        }
        writeType = null;
        writable = false;
        readPtr = 0;
        readType = null;
        readSize = 0;
        readLeft = 0;
        dynamicIn = null;
    }

    /** Empties the buffer and makes it writable. */
    public void clear() throws BufferException {
        live("clear");
        size = 0;
        writable = true;
        writeType = null;
        dynamic = null;
        dynamicOut = null;
        dynamicBytes = null;
        dynamicIn = null;
        readType = null;
        readLeft = 0;
        readPtr = 0;
    }

    /** True while the buffer is being written (before {@link #commit()}). */
    public boolean isWritable() {
        return writable;
    }

    private void live(String call) throws WrongStateException {
        if (freed || storage.isFreed()) {
            throw new WrongStateException("mpjbuf.Buffer." + call + ": the buffer (or its storage) has been freed");
        }
    }

    private void writing(String call) throws WrongStateException {
        live(call);
        if (!writable) {
            throw new WrongStateException("mpjbuf.Buffer." + call + ": the buffer is committed (readable); clear() it to write again");
        }
    }

    private void reading(String call) throws WrongStateException {
        live(call);
        if (writable) {
            throw new WrongStateException("mpjbuf.Buffer." + call + ": the buffer is being written; commit() it before reading");
        }
    }

    // ------------------------------------------------------------------ sections

    /** Starts a section of {@code type}: its header goes to the static part (on an 8-byte boundary). */
    public void putSectionHeader(Type type) throws BufferException {
        writing("putSectionHeader");
        if (type == null || type == Type.UNDEFINED) {
            throw new IllegalArgumentException("mpjbuf.Buffer.putSectionHeader: invalid section type " + type);
        }
        int start = align(size);
        reserve(start - size + SECTION_OVERHEAD);
        ByteBuffer b = storage.getBuffer();
        for (int i = size; i < start; i++) {
            b.put(bufoffset + i, (byte) 0);
        }
        b.putInt(bufoffset + start, type.getCode());
        b.putInt(bufoffset + start + 4, 0);
        writeHeader = start;
        size = start + SECTION_OVERHEAD;
        writeType = type;
        writeCount = 0;
    }

    /** Moves to the next section (unread elements of the current one are skipped); its type. */
    public Type getSectionHeader() throws BufferException {
        reading("getSectionHeader");
        if (readType != null && readLeft > 0 && readType.isDynamic()) {
            skipDynamic(readLeft);
        }
        if (readType != null && !readType.isDynamic()) {
            readPtr += readLeft * readType.staticSize;
        }
        int start = align(readPtr);
        if (start + SECTION_OVERHEAD > size) {
            throw new BufferUnderflowException("mpjbuf.Buffer.getSectionHeader: no more sections (" + size
                    + " bytes of data, read position " + readPtr + ")");
        }
        ByteBuffer b = storage.getBuffer();
        Type t = Type.getType(b.getInt(bufoffset + start));
        int n = b.getInt(bufoffset + start + 4);
        if (t == Type.UNDEFINED || n < 0 || (!t.isDynamic() && start + SECTION_OVERHEAD + (long) n * t.staticSize > size)) {
            throw new BufferUnderflowException("mpjbuf.Buffer.getSectionHeader: no valid section header at byte " + start);
        }
        readPtr = start + SECTION_OVERHEAD;
        readType = t;
        readSize = n;
        readLeft = n;
        return t;
    }

    /** Number of elements of the current section (the one being read, or written). */
    public int getSectionSize() throws BufferException {
        live("getSectionSize");
        if (writable) {
            if (writeType == null) {
                throw new WrongStateException("mpjbuf.Buffer.getSectionSize: no section started");
            }
            return writeCount;
        }
        if (readType == null) {
            throw new WrongStateException("mpjbuf.Buffer.getSectionSize: call getSectionHeader() first");
        }
        return readSize;
    }

    /** Elements of the current section not yet read. */
    public int getRemaining() throws BufferException {
        reading("getRemaining");
        if (readType == null) {
            throw new WrongStateException("mpjbuf.Buffer.getRemaining: call getSectionHeader() first");
        }
        return readLeft;
    }

    private static int align(int n) {
        return (n + ALIGNMENT_UNIT - 1) / ALIGNMENT_UNIT * ALIGNMENT_UNIT;
    }

    private void reserve(int bytes) {
        long need = (long) bufoffset + size + bytes;
        if (need > Integer.MAX_VALUE - 8) {
            throw new OutOfMemoryError("mpjbuf.Buffer: more than 2 GiB of static data");
        }
        storage.ensure((int) need);
    }

    // ------------------------------------------------------------------ element transfer

    /** Positions in a source or destination array. */
    private interface Index {
        int at(int k);
    }

    private void put(String call, Type element, Object source, int length, int n, Index index) throws BufferException {
        writing(call);
        if (writeType == null) {
            throw new WrongStateException("mpjbuf.Buffer." + call + ": no section started (call putSectionHeader first)");
        }
        if (writeType.element() != element) {
            throw new TypeMismatchException("mpjbuf.Buffer." + call + ": " + element + " elements written to a "
                    + writeType + " section");
        }
        checkIndices(call, "source", length, n, index);
        if (writeType.isDynamic()) {
            try {
                if (dynamicOut == null) {
                    dynamicBytes = new ByteArrayOutputStream();
                    dynamicOut = new ObjectOutputStream(dynamicBytes);
                }
                for (int k = 0; k < n; k++) {
                    writeDynamic(element, source, index.at(k));
                }
            } catch (IOException e) {
                throw new DynamicBufferException("mpjbuf.Buffer." + call + ": serializing failed: " + e, e);
            }
        } else {
            reserve(n * element.staticSize);
            ByteBuffer b = storage.getBuffer();
            int p = bufoffset + size;
            for (int k = 0; k < n; k++) {
                p = writeStatic(b, p, element, source, index.at(k));
            }
            size += n * element.staticSize;
        }
        writeCount += n;
        storage.getBuffer().putInt(bufoffset + writeHeader + 4, writeCount);
    }

    private void get(String call, Type element, Object dest, int length, int n, Index index) throws BufferException {
        reading(call);
        if (readType == null) {
            throw new WrongStateException("mpjbuf.Buffer." + call + ": call getSectionHeader() first");
        }
        if (readType.element() != element) {
            throw new TypeMismatchException("mpjbuf.Buffer." + call + ": " + element + " elements read from a "
                    + readType + " section");
        }
        if (n > readLeft) {
            throw new SectionSizeMismatchException("mpjbuf.Buffer." + call + ": " + n + " elements asked for, but the "
                    + readType + " section has " + readLeft + " left");
        }
        checkIndices(call, "destination", length, n, index);
        if (readType.isDynamic()) {
            try {
                ObjectInputStream in = dynamicIn();
                for (int k = 0; k < n; k++) {
                    readDynamic(in, element, dest, index.at(k));
                }
            } catch (IOException | ClassNotFoundException e) {
                throw new DynamicBufferException("mpjbuf.Buffer." + call + ": deserializing failed: " + e, e);
            }
        } else {
            ByteBuffer b = storage.getBuffer();
            int p = bufoffset + readPtr;
            for (int k = 0; k < n; k++) {
                p = readStatic(b, p, element, dest, index.at(k));
            }
            readPtr += n * element.staticSize;
        }
        readLeft -= n;
    }

    private static void checkIndices(String call, String what, int length, int n, Index index) throws BufferException {
        if (n < 0) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + call + ": element count " + n + " is negative");
        }
        for (int k = 0; k < n; k++) {
            int i = index.at(k);
            if (i < 0 || i >= length) {
                throw new IllegalArgumentException("mpjbuf.Buffer." + call + ": element " + i + " is outside the "
                        + what + " array of length " + length);
            }
        }
    }

    private ObjectInputStream dynamicIn() throws IOException {
        if (dynamicIn == null) {
            if (dynamic == null) {
                throw new IOException("the buffer has no dynamic part");
            }
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            dynamicIn = new ObjectInputStream(new ByteArrayInputStream(dynamic)) {
                @Override
                protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                    if (loader != null) {
                        try {
                            return Class.forName(desc.getName(), false, loader);
                        } catch (ClassNotFoundException e) {
                            // fall back to the default resolution
                        }
                    }
                    return super.resolveClass(desc);
                }
            };
        }
        return dynamicIn;
    }

    private void skipDynamic(int n) throws BufferException {
        Type e = readType.element();
        Object scratch = switch (e.getCode()) {
            case 0 -> new byte[1];
            case 1 -> new char[1];
            case 2 -> new short[1];
            case 3 -> new boolean[1];
            case 4 -> new int[1];
            case 5 -> new long[1];
            case 6 -> new float[1];
            case 7 -> new double[1];
            default -> new Object[1];
        };
        try {
            ObjectInputStream in = dynamicIn();
            for (int k = 0; k < n; k++) {
                readDynamic(in, e, scratch, 0);
            }
        } catch (IOException | ClassNotFoundException x) {
            throw new DynamicBufferException("mpjbuf.Buffer.getSectionHeader: skipping unread objects failed: " + x, x);
        }
        readLeft = 0;
    }

    private static int writeStatic(ByteBuffer b, int p, Type e, Object a, int i) {
        switch (e.getCode()) {
            case 0 -> b.put(p, ((byte[]) a)[i]);
            case 1 -> b.putChar(p, ((char[]) a)[i]);
            case 2 -> b.putShort(p, ((short[]) a)[i]);
            case 3 -> b.put(p, ((boolean[]) a)[i] ? (byte) 1 : (byte) 0);
            case 4 -> b.putInt(p, ((int[]) a)[i]);
            case 5 -> b.putLong(p, ((long[]) a)[i]);
            case 6 -> b.putFloat(p, ((float[]) a)[i]);
            default -> b.putDouble(p, ((double[]) a)[i]);
        }
        return p + e.staticSize;
    }

    private static int readStatic(ByteBuffer b, int p, Type e, Object a, int i) {
        switch (e.getCode()) {
            case 0 -> ((byte[]) a)[i] = b.get(p);
            case 1 -> ((char[]) a)[i] = b.getChar(p);
            case 2 -> ((short[]) a)[i] = b.getShort(p);
            case 3 -> ((boolean[]) a)[i] = b.get(p) != 0;
            case 4 -> ((int[]) a)[i] = b.getInt(p);
            case 5 -> ((long[]) a)[i] = b.getLong(p);
            case 6 -> ((float[]) a)[i] = b.getFloat(p);
            default -> ((double[]) a)[i] = b.getDouble(p);
        }
        return p + e.staticSize;
    }

    private void writeDynamic(Type e, Object a, int i) throws IOException {
        ObjectOutputStream o = dynamicOut;
        switch (e.getCode()) {
            case 0 -> o.writeByte(((byte[]) a)[i]);
            case 1 -> o.writeChar(((char[]) a)[i]);
            case 2 -> o.writeShort(((short[]) a)[i]);
            case 3 -> o.writeBoolean(((boolean[]) a)[i]);
            case 4 -> o.writeInt(((int[]) a)[i]);
            case 5 -> o.writeLong(((long[]) a)[i]);
            case 6 -> o.writeFloat(((float[]) a)[i]);
            case 7 -> o.writeDouble(((double[]) a)[i]);
            default -> o.writeObject(((Object[]) a)[i]);
        }
    }

    private static void readDynamic(ObjectInputStream in, Type e, Object a, int i) throws IOException, ClassNotFoundException {
        switch (e.getCode()) {
            case 0 -> ((byte[]) a)[i] = in.readByte();
            case 1 -> ((char[]) a)[i] = in.readChar();
            case 2 -> ((short[]) a)[i] = in.readShort();
            case 3 -> ((boolean[]) a)[i] = in.readBoolean();
            case 4 -> ((int[]) a)[i] = in.readInt();
            case 5 -> ((long[]) a)[i] = in.readLong();
            case 6 -> ((float[]) a)[i] = in.readFloat();
            case 7 -> ((double[]) a)[i] = in.readDouble();
            default -> ((Object[]) a)[i] = in.readObject();
        }
    }

    private static Index run(int off) {
        return k -> off + k;
    }

    private static Index indexed(int[] indexes, int idxOff, int numEls) throws BufferException {
        if (indexes == null || idxOff < 0 || numEls < 0 || idxOff > indexes.length - numEls) {
            throw new IllegalArgumentException("mpjbuf.Buffer: " + numEls + " indexes from " + idxOff
                    + " are outside the index array" + (indexes == null ? " (null)" : " of length " + indexes.length));
        }
        return k -> indexes[idxOff + k];
    }

    // ------------------------------------------------------------------ write: numEls elements from srcOff

    public void write(byte[] source, int srcOff, int numEls) throws BufferException { put("write", Type.BYTE, source, source.length, numEls, run(srcOff)); }
    public void write(char[] source, int srcOff, int numEls) throws BufferException { put("write", Type.CHAR, source, source.length, numEls, run(srcOff)); }
    public void write(short[] source, int srcOff, int numEls) throws BufferException { put("write", Type.SHORT, source, source.length, numEls, run(srcOff)); }
    public void write(boolean[] source, int srcOff, int numEls) throws BufferException { put("write", Type.BOOLEAN, source, source.length, numEls, run(srcOff)); }
    public void write(int[] source, int srcOff, int numEls) throws BufferException { put("write", Type.INT, source, source.length, numEls, run(srcOff)); }
    public void write(long[] source, int srcOff, int numEls) throws BufferException { put("write", Type.LONG, source, source.length, numEls, run(srcOff)); }
    public void write(float[] source, int srcOff, int numEls) throws BufferException { put("write", Type.FLOAT, source, source.length, numEls, run(srcOff)); }
    public void write(double[] source, int srcOff, int numEls) throws BufferException { put("write", Type.DOUBLE, source, source.length, numEls, run(srcOff)); }
    /** Objects go to an {@link Type#OBJECT} section (serialized into the dynamic part). */
    public void write(Object[] source, int srcOff, int numEls) throws BufferException { put("write", Type.OBJECT, source, source.length, numEls, run(srcOff)); }

    // ------------------------------------------------------------------ gather: source[indexes[idxOff + k]], k < numEls

    public void gather(byte[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.BYTE, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(char[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.CHAR, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(short[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.SHORT, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(boolean[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.BOOLEAN, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(int[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.INT, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(long[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.LONG, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(float[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.FLOAT, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(double[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.DOUBLE, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void gather(Object[] source, int numEls, int idxOff, int[] indexes) throws BufferException { put("gather", Type.OBJECT, source, source.length, numEls, indexed(indexes, idxOff, numEls)); }

    // ------------------------------------------------------------------ read: numEls elements to dstOff

    public void read(byte[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.BYTE, dest, dest.length, numEls, run(dstOff)); }
    public void read(char[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.CHAR, dest, dest.length, numEls, run(dstOff)); }
    public void read(short[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.SHORT, dest, dest.length, numEls, run(dstOff)); }
    public void read(boolean[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.BOOLEAN, dest, dest.length, numEls, run(dstOff)); }
    public void read(int[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.INT, dest, dest.length, numEls, run(dstOff)); }
    public void read(long[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.LONG, dest, dest.length, numEls, run(dstOff)); }
    public void read(float[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.FLOAT, dest, dest.length, numEls, run(dstOff)); }
    public void read(double[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.DOUBLE, dest, dest.length, numEls, run(dstOff)); }
    public void read(Object[] dest, int dstOff, int numEls) throws BufferException { get("read", Type.OBJECT, dest, dest.length, numEls, run(dstOff)); }

    // ------------------------------------------------------------------ scatter: to dest[indexes[idxOff + k]], k < numEls

    public void scatter(byte[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.BYTE, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(char[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.CHAR, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(short[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.SHORT, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(boolean[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.BOOLEAN, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(int[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.INT, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(long[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.LONG, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(float[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.FLOAT, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(double[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.DOUBLE, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }
    public void scatter(Object[] dest, int numEls, int idxOff, int[] indexes) throws BufferException { get("scatter", Type.OBJECT, dest, dest.length, numEls, indexed(indexes, idxOff, numEls)); }

    // ------------------------------------------------------------------ low level (used to send and receive the buffer)

    /** The static storage. */
    public RawBuffer getStaticBuffer() {
        return storage;
    }

    /** Replaces the static storage (a {@link NIOBuffer}). */
    public void setStaticBuffer(RawBuffer staticBuffer) {
        if (!(staticBuffer instanceof NIOBuffer nio)) {
            throw new java.lang.IllegalArgumentException("mpjbuf.Buffer.setStaticBuffer: storage must come from BufferFactory.create");
        }
        this.storage = nio;
    }

    /** Byte order of the static part: big-endian. */
    public ByteOrder getEncoding() {
        return ByteOrder.BIG_ENDIAN;
    }

    /** Accepted for MPJ Express's interface; the static part stays big-endian. */
    public void setEncoding(ByteOrder encoding) {
    }

    /** Bytes of data in the static part (after {@link #offset()}). */
    public int getSize() {
        return size;
    }

    /** Sets the number of bytes of data in the static part (low level: after copying data in). */
    public void setSize(int size) {
        if (size < 0) {
            throw new java.lang.IllegalArgumentException("mpjbuf.Buffer.setSize: size " + size + " is negative");
        }
        storage.ensure(bufoffset + size);
        this.size = size;
    }

    /** Bytes of static storage (it grows when a write needs more). */
    public int getCapacity() {
        return storage.getCapacity();
    }

    /** The dynamic part of a committed buffer (serialized objects), or null if it has none. */
    public byte[] getDynamicBuffer() {
        return dynamic;
    }

    /** Sets the dynamic part (low level: a received buffer's, before {@link #commit()}). */
    public void setDynamicBuffer(byte[] dynamicBuffer) {
        this.dynamic = dynamicBuffer;
        this.dynamicIn = null;
    }

    /**
     * Replaces the content with {@code staticLength} bytes of {@code src} from
     * {@code srcOffset}, put at byte {@code dstOffset} of the storage (normally
     * {@link #offset()}), and the first {@code dynamicLength} bytes of {@code dynamicBuffer}.
     */
    public void copy(ByteBuffer src, int srcOffset, int staticLength, int dstOffset, byte[] dynamicBuffer, int dynamicLength) {
        storage.ensure(dstOffset + staticLength);
        storage.copy(src, srcOffset, staticLength, dstOffset);
        this.size = dstOffset - bufoffset + staticLength;
        if (dynamicLength > 0) {
            setDynamicBuffer(java.util.Arrays.copyOf(dynamicBuffer, dynamicLength));
        } else {
            setDynamicBuffer(null);
        }
    }

    @Override
    public String toString() {
        return "mpjbuf.Buffer[" + (freed ? "freed" : (writable ? "writable" : "readable") + ", " + size
                + " static bytes, " + (dynamic == null ? 0 : dynamic.length) + " dynamic bytes") + "]";
    }
}
