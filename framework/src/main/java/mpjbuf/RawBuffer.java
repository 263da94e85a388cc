package mpjbuf;

/**
 * The storage behind an {@link Buffer}'s static part, as in MPJ Express. Tessera has one
 * implementation, {@link NIOBuffer}, which {@link BufferFactory#create} makes.
 */
public interface RawBuffer {

    /** Bytes of storage. */
    int getCapacity();

    /** Releases the storage; the buffer must not be used afterwards. */
    void free();

    /** Forgets nothing and frees nothing: present for MPJ Express's interface. */
    void clear();
}
