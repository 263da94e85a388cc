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
 * <p>The compress forms run where a vector holds 16 ints (AVX-512): compress is one instruction
 * there ({@code vpcompressd}). Where it holds 8 (AVX2, no compress instruction: the Vector API's
 * compress there was no faster than the scalar loop) the two-sided split permutes each vector
 * instead ({@link #splitTwoSidedPermute}). Only {@link IsRanking} refers to this class, and only
 * when the module is in the boot layer: without it this class is never loaded.
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
        return finishSided(keys, i, lo, hi, split, out, asc0, asc, desc, lowAscending);
    }

    /** The permutation form's vectors: 8 ints (AVX2), whatever the preferred width. */
    static final VectorSpecies<Integer> PERMUTE_SPECIES = IntVector.SPECIES_256;

    /**
     * For {@link #splitTwoSidedPermute}: for each mask of a vector's 8 lanes (bit i set: lane i
     * goes to the ascending side), the lane order that puts those lanes first and the others
     * after them, each in the order read; mask m's order at {@code 8 * m} (8 KiB).
     */
    static final int[] ORDERS = orders(PERMUTE_SPECIES.length());

    static int[] orders(int lanes) {
        int[] orders = new int[(1 << lanes) * lanes];
        for (int m = 0; m < 1 << lanes; m++) {
            int k = m * lanes;
            for (int lane = 0; lane < lanes; lane++) {
                if ((m >>> lane & 1) != 0) {
                    orders[k++] = lane;
                }
            }
            for (int lane = 0; lane < lanes; lane++) {
                if ((m >>> lane & 1) == 0) {
                    orders[k++] = lane;
                }
            }
        }
        return orders;
    }

    /**
     * As {@link #splitTwoSided}, with vectors of 8 ints and no compress instruction (AVX2: x86
     * before AVX-512, the AMD EPYC up to Zen 3): one permutation of each vector
     * ({@link #ORDERS}, a {@code vpermd}) puts its ascending-side keys first and its
     * descending-side keys last, and the whole vector is stored twice, at the ascending position
     * and just below the descending one, which then move by the two numbers. Each store also
     * writes lanes of the other side into the gap between the two positions, where later stores
     * overwrite them; so the vector loop stops while two vectors of keys are left (the gap is the
     * number of keys left: {@code desc - asc} must be {@code hi - lo}) and the scalar loop does
     * the rest. The descending side holds each vector's keys in read order, as the compress form.
     */
    static long splitTwoSidedPermute(int[] keys, int lo, int hi, int split, MemorySegment out, long asc, long desc,
            boolean lowAscending) {
        if (desc - asc != hi - lo) {
            throw new IllegalArgumentException("the output range [" + asc + ", " + desc + ") must hold exactly the "
                    + (hi - lo) + " keys");
        }
        long asc0 = asc;
        VectorSpecies<Integer> species = PERMUTE_SPECIES;
        int step = species.length();
        int flip = lowAscending ? 0 : (1 << step) - 1;
        IntVector splitAt = IntVector.broadcast(species, split);
        int i = lo;
        for (; i <= hi - 2 * step; i += step) {
            IntVector v = IntVector.fromArray(species, keys, i);
            int up = (int) v.compare(VectorOperators.LT, splitAt).toLong() ^ flip;
            int n = Integer.bitCount(up);
            IntVector p = IntVector.fromArray(species, ORDERS, up * step).selectFrom(v);
            p.intoMemorySegment(out, asc * Integer.BYTES, ByteOrder.nativeOrder());
            p.intoMemorySegment(out, (desc - step) * Integer.BYTES, ByteOrder.nativeOrder());
            asc += n;
            desc -= step - n;
        }
        return finishSided(keys, i, lo, hi, split, out, asc0, asc, desc, lowAscending);
    }

    /**
     * The keys from {@code i} to {@code hi} one at a time, after a vector loop that left the
     * positions at {@code asc} and {@code desc}; returns the block's keys below the split.
     */
    private static long finishSided(int[] keys, int i, int lo, int hi, int split, MemorySegment out, long asc0,
            long asc, long desc, boolean lowAscending) {
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
