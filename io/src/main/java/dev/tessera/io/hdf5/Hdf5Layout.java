package dev.tessera.io.hdf5;

import java.util.Arrays;

/**
 * How a dataset's elements are stored: contiguous (one row-major block at a fixed file
 * address, written in place as parts arrive) or chunked (fixed-size n-d chunks indexed by a
 * version-1 B-tree), optionally compressed with deflate (zlib, level 1-9).
 */
public record Hdf5Layout(int[] chunk, int deflateLevel) {

    public Hdf5Layout {
        chunk = chunk == null ? null : chunk.clone();
        if (chunk != null) {
            for (int c : chunk) {
                if (c < 1) {
                    throw new IllegalArgumentException("chunk dimensions must be positive, got " + Arrays.toString(chunk));
                }
            }
        }
        if (deflateLevel < 0 || deflateLevel > 9) {
            throw new IllegalArgumentException("deflate level must be 0 (none) to 9, got " + deflateLevel);
        }
        if (deflateLevel > 0 && chunk == null) {
            throw new IllegalArgumentException("deflate needs a chunked layout (HDF5 filters act on chunks)");
        }
    }

    private static final Hdf5Layout CONTIGUOUS = new Hdf5Layout(null, 0);

    public static Hdf5Layout contiguous() {
        return CONTIGUOUS;
    }

    public static Hdf5Layout chunked(int... chunk) {
        return new Hdf5Layout(chunk, 0);
    }

    /** This chunked layout with deflate compression at {@code level} (1 fastest, 9 smallest). */
    public Hdf5Layout deflate(int level) {
        return new Hdf5Layout(chunk, level);
    }

    public boolean isChunked() {
        return chunk != null;
    }

    @Override
    public int[] chunk() {
        return chunk == null ? null : chunk.clone();
    }

    @Override
    public String toString() {
        return chunk == null ? "contiguous"
                : "chunked " + Arrays.toString(chunk) + (deflateLevel > 0 ? " deflate " + deflateLevel : "");
    }
}
