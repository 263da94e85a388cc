package dev.tessera.io.hdf5;

import java.util.Arrays;

/**
 * What a reader needs to know about a stored dataset: element type, shape and where its
 * elements are (a contiguous block at {@code address}, or chunks indexed by the B-tree at
 * {@code btreeAddress}, deflated or not).
 */
public record DatasetInfo(String path, Hdf5Type type, long[] shape, long address, int[] chunk, boolean deflated,
        long btreeAddress, byte[] compactData) {

    public boolean chunked() {
        return chunk != null;
    }

    public long elements() {
        long v = 1;
        for (long s : shape) {
            v *= s;
        }
        return v;
    }

    @Override
    public String toString() {
        return path + " " + type + " " + Arrays.toString(shape)
                + (chunked() ? " chunked " + Arrays.toString(chunk) + (deflated ? " deflate" : "") : " contiguous");
    }
}
