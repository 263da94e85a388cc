package dev.tessera.gpu;

import java.util.Arrays;

/**
 * A box of cells {@code [lo[d], hi[d])} in the three padded dimensions of a block
 * (dimension 2 fastest, as in {@link dev.tessera.grid.HaloExchange}).
 */
public record IndexBox(int[] lo, int[] hi) {

    public IndexBox {
        if (lo.length != 3 || hi.length != 3) {
            throw new IllegalArgumentException("an index box has 3 dimensions");
        }
        lo = lo.clone();
        hi = hi.clone();
    }

    public static IndexBox of(int i0, int i1, int j0, int j1, int k0, int k1) {
        return new IndexBox(new int[] {i0, j0, k0}, new int[] {i1, j1, k1});
    }

    @Override
    public int[] lo() {
        return lo.clone();
    }

    @Override
    public int[] hi() {
        return hi.clone();
    }

    public int extent(int d) {
        return Math.max(0, hi[d] - lo[d]);
    }

    public long cells() {
        return (long) extent(0) * extent(1) * extent(2);
    }

    public boolean isEmpty() {
        return cells() == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexBox b && Arrays.equals(lo, b.lo) && Arrays.equals(hi, b.hi);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(lo) + Arrays.hashCode(hi);
    }

    @Override
    public String toString() {
        return "[" + lo[0] + "," + hi[0] + ")x[" + lo[1] + "," + hi[1] + ")x[" + lo[2] + "," + hi[2] + ")";
    }
}
