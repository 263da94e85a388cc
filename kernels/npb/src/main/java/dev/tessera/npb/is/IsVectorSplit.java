package dev.tessera.npb.is;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The two-rank partition of IS ({@link IsRanking#splitTwo}) with {@code jdk.incubator.vector}:
 * a vector of keys is compared with the split, the keys below it are compressed to the front
 * and stored, under a mask of exactly their number, at the low position, the others at the
 * high position. Same output as the scalar loop (each side in the order read); no store
 * reaches past the keys it writes, so the members' parts of the buffer stay apart.
 *
 * <p>Only used where a vector holds 16 ints (AVX-512): compress is one instruction there
 * ({@code vpcompressd}). Only {@link IsRanking} refers to this class, and only when the module
 * is in the boot layer: without it this class is never loaded.
 */
final class IsVectorSplit {

    static final VectorSpecies<Integer> SPECIES = IntVector.SPECIES_PREFERRED;

    private IsVectorSplit() {
    }

    /** Lanes of {@link #SPECIES}. */
    static int lanes() {
        return SPECIES.length();
    }

    /** As {@link IsRanking#splitTwo}: keys below {@code split} to {@code out} from {@code low} on, the rest from {@code high} on. */
    static long splitTwo(int[] keys, int lo, int hi, int split, MemorySegment out, long low, long high) {
        long low0 = low;
        int step = SPECIES.length();
        IntVector splitAt = IntVector.broadcast(SPECIES, split);
        int i = lo;
        int bound = lo + SPECIES.loopBound(hi - lo);
        for (; i < bound; i += step) {
            IntVector v = IntVector.fromArray(SPECIES, keys, i);
            VectorMask<Integer> below = v.compare(VectorOperators.LT, splitAt);
            int n = below.trueCount();
            v.compress(below).intoMemorySegment(out, low * Integer.BYTES, ByteOrder.nativeOrder(),
                    SPECIES.indexInRange(0, n));
            v.compress(below.not()).intoMemorySegment(out, high * Integer.BYTES, ByteOrder.nativeOrder(),
                    SPECIES.indexInRange(0, step - n));
            low += n;
            high += step - n;
        }
        for (; i < hi; i++) {
            int key = keys[i];
            if (key < split) {
                out.setAtIndex(ValueLayout.JAVA_INT, low++, key);
            } else {
                out.setAtIndex(ValueLayout.JAVA_INT, high++, key);
            }
        }
        return low - low0;
    }

    /**
     * As {@link IsRanking#splitTwoSided}: keys below {@code split} ascending from {@code asc} and
     * the others descending from {@code desc} ({@code lowAscending}), or the other way round.
     * A vector's keys for the descending side are stored, in the order read, just below the
     * descending position, which then moves down by their number.
     */
    static long splitTwoSided(int[] keys, int lo, int hi, int split, MemorySegment out, long asc, long desc,
            boolean lowAscending) {
        long asc0 = asc;
        int step = SPECIES.length();
        IntVector splitAt = IntVector.broadcast(SPECIES, split);
        int i = lo;
        int bound = lo + SPECIES.loopBound(hi - lo);
        for (; i < bound; i += step) {
            IntVector v = IntVector.fromArray(SPECIES, keys, i);
            VectorMask<Integer> below = v.compare(VectorOperators.LT, splitAt);
            VectorMask<Integer> up = lowAscending ? below : below.not();
            int n = up.trueCount();
            v.compress(up).intoMemorySegment(out, asc * Integer.BYTES, ByteOrder.nativeOrder(),
                    SPECIES.indexInRange(0, n));
            desc -= step - n;
            v.compress(up.not()).intoMemorySegment(out, desc * Integer.BYTES, ByteOrder.nativeOrder(),
                    SPECIES.indexInRange(0, step - n));
            asc += n;
        }
        for (; i < hi; i++) {
            int key = keys[i];
            if ((key < split) == lowAscending) {
                out.setAtIndex(ValueLayout.JAVA_INT, asc++, key);
            } else {
                out.setAtIndex(ValueLayout.JAVA_INT, --desc, key);
            }
        }
        long ascending = asc - asc0;
        return lowAscending ? ascending : (hi - lo) - ascending;
    }
}
