package mpjbuf;

/**
 * Makes the storage of {@link Buffer}s, as MPJ Express's {@code BufferFactory} does:
 * {@code new mpjbuf.Buffer(BufferFactory.create(size + MPI.SEND_OVERHEAD), MPI.SEND_OVERHEAD, size + MPI.SEND_OVERHEAD)}.
 * Storage is an ordinary heap buffer; {@link #destroy} releases it (the garbage collector
 * would too).
 */
public final class BufferFactory {

    private BufferFactory() {
    }

    /** Accepted and ignored: MPJ Express chooses a storage allocator by name here. */
    public static void init(String allocator) {
    }

    /** True: there is nothing to initialise. */
    public static boolean initialized() {
        return true;
    }

    /** Accepted and ignored. */
    public static void shut() {
    }

    /** Storage of {@code size} bytes. */
    public static RawBuffer create(int size) {
        return new NIOBuffer(size);
    }

    /** Releases storage from {@link #create} (null and repeated calls are fine). */
    public static void destroy(RawBuffer buffer) {
        if (buffer != null) {
            buffer.free();
        }
    }
}
