package dev.tessera.io.pfile;

import dev.tessera.comm.Datatype;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Uneven block decompositions of small 3-d arrays and their expected contents, for the tests. */
final class Blocks {

    private Blocks() {
    }

    /** Process grid of {@code ranks} over 3 dimensions (2 -> 2x1x1, 3 -> 3x1x1, 4 -> 2x2x1, 6 -> 3x2x1). */
    static int[] grid(int ranks) {
        return switch (ranks) {
            case 1 -> new int[] {1, 1, 1};
            case 2 -> new int[] {2, 1, 1};
            case 3 -> new int[] {3, 1, 1};
            case 4 -> new int[] {2, 2, 1};
            case 6 -> new int[] {3, 2, 1};
            default -> new int[] {ranks, 1, 1};
        };
    }

    /** Rank {@code rank}'s block of a global array of {@code sizes} on {@link #grid}: remainder to the first blocks. */
    static Subarray block(int rank, int ranks, int[] sizes, Datatype type) {
        int[] g = grid(ranks);
        int[] coords = {rank / (g[1] * g[2]), rank / g[2] % g[1], rank % g[2]};
        int[] sub = new int[3];
        int[] start = new int[3];
        for (int d = 0; d < 3; d++) {
            int base = sizes[d] / g[d];
            int rem = sizes[d] % g[d];
            sub[d] = base + (coords[d] < rem ? 1 : 0);
            start[d] = coords[d] * base + Math.min(coords[d], rem);
        }
        return Subarray.of(type, sizes, sub, start);
    }

    /** The value stored at a global index: distinct for every element, exact in a double. */
    static double value(long globalIndex, int salt) {
        return globalIndex * 1.5 + salt;
    }

    /** The block's elements, each set to {@link #value} of its global index. */
    static double[] fill(Subarray b, int salt) {
        double[] out = new double[(int) b.elementCount()];
        int i = 0;
        int[] n = b.sizes();
        for (int z = 0; z < b.subsizes()[0]; z++) {
            for (int y = 0; y < b.subsizes()[1]; y++) {
                for (int x = 0; x < b.subsizes()[2]; x++) {
                    long g = ((long) (b.starts()[0] + z) * n[1] + b.starts()[1] + y) * n[2] + b.starts()[2] + x;
                    out[i++] = value(g, salt);
                }
            }
        }
        return out;
    }

    /** The global array as the file must hold it, in native byte order. */
    static byte[] expectedFile(int[] sizes, int salt) {
        int n = sizes[0] * sizes[1] * sizes[2];
        ByteBuffer bb = ByteBuffer.allocate(n * 8).order(ByteOrder.nativeOrder());
        for (int g = 0; g < n; g++) {
            bb.putDouble(value(g, salt));
        }
        return bb.array();
    }
}
