package dev.tessera.io.hdf5;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * One rank's part of a collective dataset write, as every rank sees it after they are
 * exchanged: the box, or the reason the rank's own arguments are wrong. Exchanging the
 * error instead of throwing at once is what keeps a bad argument on one rank from leaving
 * the others waiting in a collective: every rank checks all claims and all throw the same
 * error, which names the rank at fault.
 */
record BlockClaim(int rank, long[] offset, long[] count, String error) implements Serializable {

    Hyperslab box() {
        return new Hyperslab(offset, count);
    }

    /**
     * Checks that the claims are valid and tile {@code shape} exactly: every box inside,
     * no two overlapping, together covering every element. Throws naming the rank(s).
     */
    static void checkTiling(List<BlockClaim> claims, long[] shape, String where) {
        for (BlockClaim c : claims) {
            if (c.error != null) {
                throw new IllegalArgumentException(where + ": rank " + c.rank + ": " + c.error);
            }
        }
        long total = 1;
        for (long s : shape) {
            total *= s;
        }
        long covered = 0;
        for (int i = 0; i < claims.size(); i++) {
            Hyperslab a = claims.get(i).box();
            if (a.volume() == 0) {
                continue;
            }
            covered += a.volume();
            for (int j = 0; j < i; j++) {
                Hyperslab b = claims.get(j).box();
                if (b.volume() > 0 && a.intersect(b) != null) {
                    throw new IllegalArgumentException(where + ": rank " + claims.get(i).rank + "'s block " + a
                            + " overlaps rank " + claims.get(j).rank + "'s block " + b + " in " + a.intersect(b));
                }
            }
        }
        if (covered != total) {
            StringBuilder blocks = new StringBuilder();
            for (BlockClaim c : claims) {
                blocks.append("\n  rank ").append(c.rank).append(": ").append(c.box());
            }
            throw new IllegalArgumentException(where + ": the ranks' blocks cover " + covered + " of the "
                    + total + " elements of shape " + Arrays.toString(shape) + " (missing blocks):" + blocks);
        }
    }
}
