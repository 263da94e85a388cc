package dev.tessera.comm;

/** Splitting a vector of n elements into p nearly equal blocks (the first n mod p one larger). */
final class Partition {

    private Partition() {
    }

    /** Element offsets of the p blocks, plus n at the end: block i is [result[i], result[i+1]). */
    static int[] counts(int n, int p) {
        int[] start = new int[p + 1];
        for (int i = 0; i <= p; i++) {
            start[i] = (int) ((long) n * i / p);
        }
        return start;
    }

    /** Byte offsets of the p blocks of n elements of {@code elementSize} bytes, plus the total at the end. */
    static long[] blocks(long n, int p, int elementSize) {
        long[] start = new long[p + 1];
        for (int i = 0; i <= p; i++) {
            start[i] = n * i / p * elementSize;
        }
        return start;
    }
}
