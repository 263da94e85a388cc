package dev.tessera.npb;

/**
 * Optional companion of {@link NpbKernel}: how much Java heap one rank needs, so that
 * {@link NpbMain} can refuse, in one line and before any work, a class that would not fit
 * in {@code -Xmx} (instead of an OutOfMemoryError minutes into the run). A kernel that does
 * not implement it is not checked.
 */
public interface MemoryFootprint {

    /**
     * Heap bytes one rank holds at its peak for class {@code problemClass} on {@code ranks}
     * ranks of {@code threads} threads each (the kernel's arrays; an estimate within about
     * 20%). Called after {@link NpbKernel#check}, so the arguments are valid.
     */
    long heapBytesPerRank(char problemClass, int ranks, int threads);
}
