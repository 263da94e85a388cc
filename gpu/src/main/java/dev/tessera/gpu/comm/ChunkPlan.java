package dev.tessera.gpu.comm;

/**
 * How a message of {@code count} elements of {@code elementSize} bytes is cut into
 * chunks of at most {@code chunkBytes} (rounded down to whole elements, at least one):
 * both sides compute the same plan from the same arguments, so no header travels.
 */
record ChunkPlan(long count, int elementSize, long chunkElements) {

    static ChunkPlan of(long count, int elementSize, long chunkBytes) {
        return new ChunkPlan(count, elementSize, Math.max(1, chunkBytes / elementSize));
    }

    int chunks() {
        return (int) Math.max(1, (count + chunkElements - 1) / chunkElements);
    }

    /** First element of chunk c. */
    long start(int c) {
        return c * chunkElements;
    }

    /** Elements in chunk c. */
    long length(int c) {
        return Math.min(chunkElements, count - start(c));
    }
}
