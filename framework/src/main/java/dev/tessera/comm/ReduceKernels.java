package dev.tessera.comm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Element-wise loops of the built-in operations. Floating types compute in double and
 * integral types in long: one rounding (float) or truncation (int, short, char, byte)
 * back to the element type gives exactly the result of arithmetic in that type, so two
 * kernels serve all eight types. Sums of doubles, the hottest case, have their own loop.
 *
 * <p>Operation codes are the ordinals of {@code Op.Kind}: SUM, PROD, MIN, MAX, LAND, LOR,
 * LXOR, BAND, BOR, BXOR, MINLOC, MAXLOC.
 */
final class ReduceKernels {

    private static final int SUM = 0, PROD = 1, MIN = 2, MAX = 3, LAND = 4, LOR = 5, LXOR = 6,
            BAND = 7, BOR = 8, BXOR = 9, MINLOC = 10, MAXLOC = 11;

    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfLong J = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfChar C = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfByte B = ValueLayout.JAVA_BYTE;

    private ReduceKernels() {
    }

    // ------------------------------------------------------------------ floating point

    static void doubles(int op, MemorySegment in, MemorySegment io, int n) {
        if (op <= MAX && byArrays(op, in, io, n, double[].class, 3, D, DOUBLE_STAGE, ReduceKernels::doubleLoop)) {
            return;
        }
        if (op == SUM) {
            for (int i = 0; i < n; i++) {
                io.setAtIndex(D, i, in.getAtIndex(D, i) + io.getAtIndex(D, i));
            }
            return;
        }
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.getAtIndex(D, i), in.getAtIndex(D, i + 1), io.getAtIndex(D, i), io.getAtIndex(D, i + 1))) {
                    io.setAtIndex(D, i, in.getAtIndex(D, i));
                    io.setAtIndex(D, i + 1, in.getAtIndex(D, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.setAtIndex(D, i, floating(op, in.getAtIndex(D, i), io.getAtIndex(D, i)));
        }
    }

    static void floats(int op, MemorySegment in, MemorySegment io, int n) {
        if (op <= MAX && byArrays(op, in, io, n, float[].class, 2, F, FLOAT_STAGE, ReduceKernels::floatLoop)) {
            return;
        }
        if (op == SUM) {
            // a float sum is exact in double, so float arithmetic rounds it the same way (and vectorises)
            for (int i = 0; i < n; i++) {
                io.setAtIndex(F, i, in.getAtIndex(F, i) + io.getAtIndex(F, i));
            }
            return;
        }
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.getAtIndex(F, i), in.getAtIndex(F, i + 1), io.getAtIndex(F, i), io.getAtIndex(F, i + 1))) {
                    io.setAtIndex(F, i, in.getAtIndex(F, i));
                    io.setAtIndex(F, i + 1, in.getAtIndex(F, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.setAtIndex(F, i, (float) floating(op, in.getAtIndex(F, i), io.getAtIndex(F, i)));
        }
    }

    /** out[i] = in[i] + own[i] (three segments, one pass). */
    static void sumDoublesInto(MemorySegment in, MemorySegment own, MemorySegment out, int n) {
        if (n >= STAGE_MIN && own.heapBase().orElse(null) instanceof double[] a && out.heapBase().orElse(null) instanceof double[] b
                && a != b && own.address() == out.address() && (out.address() & 7) == 0) {
            // in copied into out, then own added at the same index: a loop the JIT vectorises (a + b = b + a)
            int o = (int) (out.address() >>> 3);
            if (in.heapBase().orElse(null) instanceof double[] c && c != b && in.address() == out.address()) {
                for (int i = o; i < o + n; i++) {
                    b[i] = c[i] + a[i];
                }
                return;
            }
            MemorySegment.copy(in, 0, out, 0, (long) n * 8);
            doubleLoop(SUM, a, b, o, o + n);
            return;
        }
        if (n >= SMALL_STAGE_MIN && own.heapBase().orElse(null) instanceof double[] a
                && out.heapBase().orElse(null) instanceof double[] b && ((own.address() | out.address()) & 7) == 0) {
            // in (another rank's vector, in shared memory) staged a block at a time by one bulk copy, then a loop over arrays
            double[] s = DOUBLE_STAGE.get()[0];
            int oa = (int) (own.address() >>> 3);
            int ob = (int) (out.address() >>> 3);
            for (int done = 0; done < n; done += BLOCK) {
                int m = Math.min(BLOCK, n - done);
                MemorySegment.copy(in, D, (long) done << 3, s, 0, m);
                for (int i = 0; i < m; i++) {
                    b[ob + done + i] = s[i] + a[oa + done + i];
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            out.setAtIndex(D, i, in.getAtIndex(D, i) + own.getAtIndex(D, i));
        }
    }

    /** out[i] = in[i] + own[i] (three segments, one pass; float arithmetic rounds as {@link #floats} does). */
    static void sumFloatsInto(MemorySegment in, MemorySegment own, MemorySegment out, int n) {
        if (n >= STAGE_MIN && own.heapBase().orElse(null) instanceof float[] a && out.heapBase().orElse(null) instanceof float[] b
                && a != b && own.address() == out.address() && (out.address() & 3) == 0) {
            int o = (int) (out.address() >>> 2);
            if (in.heapBase().orElse(null) instanceof float[] c && c != b && in.address() == out.address()) {
                for (int i = o; i < o + n; i++) {
                    b[i] = c[i] + a[i];
                }
                return;
            }
            MemorySegment.copy(in, 0, out, 0, (long) n * 4);
            floatLoop(SUM, a, b, o, o + n);
            return;
        }
        if (n >= SMALL_STAGE_MIN && own.heapBase().orElse(null) instanceof float[] a
                && out.heapBase().orElse(null) instanceof float[] b && ((own.address() | out.address()) & 3) == 0) {
            // in (another rank's vector, in shared memory) staged a block at a time by one bulk copy, then a loop over arrays
            float[] s = FLOAT_STAGE.get()[0];
            int oa = (int) (own.address() >>> 2);
            int ob = (int) (out.address() >>> 2);
            for (int done = 0; done < n; done += BLOCK) {
                int m = Math.min(BLOCK, n - done);
                MemorySegment.copy(in, F, (long) done << 2, s, 0, m);
                for (int i = 0; i < m; i++) {
                    b[ob + done + i] = s[i] + a[oa + done + i];
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            out.setAtIndex(F, i, in.getAtIndex(F, i) + own.getAtIndex(F, i));
        }
    }

    // ------------------------------------------------------------------ loops over arrays

    /*
     * C2 (JDK 25) does not vectorise the segment loops above: two segments may overlap at
     * different offsets, so it cannot prove that an iteration's store does not feed a later load.
     * A loop over Java arrays that reads and writes element i only does vectorise (4x on AVX-512
     * for a float sum of 64 Ki elements: 5 us against 19, docs/performance.md, stop 55). So SUM,
     * PROD, MIN and MAX of floats and doubles run over arrays: the segments' own arrays where both
     * are heap arrays of the element type at the same offset, else blocks of BLOCK elements staged
     * through two arrays of the thread (copies are vectorised too). Float products, minima and
     * maxima in float equal the double ones rounded once (a float product is exact in double), so
     * the results are those of the segment loops, bit for bit.
     */

    /** Elements per staged block: two blocks of doubles and the segments' lines fit a 48 KiB L1. */
    private static final int BLOCK = 1024;
    /** From this many elements a three-operand sum over heap arrays ({@link #sumDoublesInto}) reads them in place. */
    private static final int STAGE_MIN = 128;
    /**
     * Below this many elements the segment loops run as they are; from it, a vector not in heap arrays of its type at
     * one offset is staged. The segment loops' accesses are not hoisted out of the loop once the JIT has seen several
     * kinds of segment (a shared-memory slice, a heap array) at them: 6-7 ns an element, so that a two-rank reduce of
     * 64 floats through the slots took 0.34 us against Open MPI's 0.13 after a run of smaller ones, and 0.11 before
     * them (docs/performance.md, stop 73); staging costs a few bulk copies.
     */
    private static final int SMALL_STAGE_MIN = 8;
    private static final ThreadLocal<double[][]> DOUBLE_STAGE = ThreadLocal.withInitial(() -> new double[2][BLOCK]);
    private static final ThreadLocal<float[][]> FLOAT_STAGE = ThreadLocal.withInitial(() -> new float[2][BLOCK]);

    /** b[i] = a[i] op b[i] for i in [from, to) of arrays of one element type. */
    private interface ArrayLoop<A> {
        void run(int op, A a, A b, int from, int to);
    }

    /**
     * io[i] = in[i] op io[i] by {@code loop} over arrays of {@code type}: the segments' own arrays
     * when both are heap arrays of that type at the same offset, else (from {@link #SMALL_STAGE_MIN}
     * elements) blocks staged through the thread's two arrays {@code stage}; false if neither.
     * {@code shift} is log2 of the element's size, {@code layout} the element's layout.
     */
    private static <A> boolean byArrays(int op, MemorySegment in, MemorySegment io, int n, Class<A> type, int shift,
            ValueLayout layout, ThreadLocal<A[]> stage, ArrayLoop<A> loop) {
        // heapBase() allocates its Optional (unless the JIT removes it): not asked where either segment is native
        Object a = in.isNative() || io.isNative() ? null : in.heapBase().orElse(null);
        Object b = a == null ? null : io.heapBase().orElse(null);
        long mask = (1L << shift) - 1;
        if (type.isInstance(a) && type.isInstance(b) && in.address() == io.address() && (in.address() & mask) == 0) {
            int o = (int) (in.address() >>> shift);
            loop.run(op, type.cast(a), type.cast(b), o, o + n);
            return true;
        }
        if (n < SMALL_STAGE_MIN) {
            return false;
        }
        A[] s = stage.get();
        for (int done = 0; done < n; done += BLOCK) {
            int m = Math.min(BLOCK, n - done);
            long at = (long) done << shift;
            MemorySegment.copy(in, layout, at, s[0], 0, m);
            MemorySegment.copy(io, layout, at, s[1], 0, m);
            loop.run(op, s[0], s[1], 0, m);
            MemorySegment.copy(s[1], 0, io, layout, at, m);
        }
        return true;
    }

    /** b[i] = a[i] op b[i] for i in [from, to): one index for both arrays, so the loop vectorises. */
    private static void doubleLoop(int op, double[] a, double[] b, int from, int to) {
        switch (op) {
            case SUM -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] + b[i];
                }
            }
            case PROD -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] * b[i];
                }
            }
            case MIN -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i], b[i]);
                }
            }
            default -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
        }
    }

    private static void floatLoop(int op, float[] a, float[] b, int from, int to) {
        switch (op) {
            case SUM -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] + b[i];
                }
            }
            case PROD -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] * b[i];
                }
            }
            case MIN -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i], b[i]);
                }
            }
            default -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
        }
    }

    /**
     * {@code io[i] = in[inAt + i] op io[i]} for {@code n} elements of {@code type}, one element at a time, for
     * the short vectors of a lane entry ({@code NodeCollectives#foldLine}): no array staging, no slice of
     * {@code in}. Only where {@link Op#foldsScalar} holds (doubles and floats: SUM, PROD, MIN, MAX; longs and
     * ints: every built-in but MINLOC and MAXLOC); the same bits as {@link #doubles}, {@link #floats},
     * {@link #longs} and {@link #ints} (a float op float is exact in double before its one rounding).
     */
    static void foldFrom(int op, Datatype type, MemorySegment in, long inAt, MemorySegment io, int n) {
        switch (type) {
            case DOUBLE -> {
                if (op == SUM) {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(D, i, in.get(D, inAt + 8L * i) + io.getAtIndex(D, i));
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(D, i, floating(op, in.get(D, inAt + 8L * i), io.getAtIndex(D, i)));
                    }
                }
            }
            case FLOAT -> {
                if (op == SUM) {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(F, i, in.get(F, inAt + 4L * i) + io.getAtIndex(F, i));
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(F, i, (float) floating(op, in.get(F, inAt + 4L * i), io.getAtIndex(F, i)));
                    }
                }
            }
            case LONG -> {
                if (op == SUM) {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(J, i, in.get(J, inAt + 8L * i) + io.getAtIndex(J, i));
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(J, i, integral(op, in.get(J, inAt + 8L * i), io.getAtIndex(J, i)));
                    }
                }
            }
            case INT -> {
                if (op == SUM) {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(I, i, in.get(I, inAt + 4L * i) + io.getAtIndex(I, i));
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        io.setAtIndex(I, i, (int) integral(op, in.get(I, inAt + 4L * i), io.getAtIndex(I, i)));
                    }
                }
            }
            default -> throw new IllegalArgumentException("no scalar fold for " + type);
        }
    }

    private static double floating(int op, double a, double b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            default -> throw new IllegalArgumentException("operation " + op + " on floating point");
        };
    }

    /** MINLOC/MAXLOC: true if the pair from {@code in} wins (ties: the smaller index). */
    private static boolean takeIn(int op, double inValue, double inIndex, double ioValue, double ioIndex) {
        if (inValue == ioValue) {
            return inIndex < ioIndex;
        }
        return op == MINLOC ? inValue < ioValue : inValue > ioValue;
    }

    // ------------------------------------------------------------------ integral

    static void longs(int op, MemorySegment in, MemorySegment io, int n) {
        if (overArrays(op) && byArrays(op, in, io, n, long[].class, 3, J, LONG_STAGE, ReduceKernels::longLoop)) {
            return;
        }
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.getAtIndex(J, i), in.getAtIndex(J, i + 1), io.getAtIndex(J, i), io.getAtIndex(J, i + 1))) {
                    io.setAtIndex(J, i, in.getAtIndex(J, i));
                    io.setAtIndex(J, i + 1, in.getAtIndex(J, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.setAtIndex(J, i, integral(op, in.getAtIndex(J, i), io.getAtIndex(J, i)));
        }
    }

    static void ints(int op, MemorySegment in, MemorySegment io, int n) {
        if (overArrays(op) && byArrays(op, in, io, n, int[].class, 2, I, INT_STAGE, ReduceKernels::intLoop)) {
            return;
        }
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.getAtIndex(I, i), in.getAtIndex(I, i + 1), io.getAtIndex(I, i), io.getAtIndex(I, i + 1))) {
                    io.setAtIndex(I, i, in.getAtIndex(I, i));
                    io.setAtIndex(I, i + 1, in.getAtIndex(I, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.setAtIndex(I, i, (int) integral(op, in.getAtIndex(I, i), io.getAtIndex(I, i)));
        }
    }

    static void shorts(int op, MemorySegment in, MemorySegment io, int n) {
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.getAtIndex(S, i), in.getAtIndex(S, i + 1), io.getAtIndex(S, i), io.getAtIndex(S, i + 1))) {
                    io.setAtIndex(S, i, in.getAtIndex(S, i));
                    io.setAtIndex(S, i + 1, in.getAtIndex(S, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.setAtIndex(S, i, (short) integral(op, in.getAtIndex(S, i), io.getAtIndex(S, i)));
        }
    }

    static void chars(int op, MemorySegment in, MemorySegment io, int n) {
        for (int i = 0; i < n; i++) {
            io.setAtIndex(C, i, (char) integral(op, in.getAtIndex(C, i), io.getAtIndex(C, i)));
        }
    }

    static void bytes(int op, MemorySegment in, MemorySegment io, int n) {
        if (op == MINLOC || op == MAXLOC) {
            for (int i = 0; i < n; i += 2) {
                if (takeIn(op, in.get(B, i), in.get(B, i + 1), io.get(B, i), io.get(B, i + 1))) {
                    io.set(B, i, in.get(B, i));
                    io.set(B, i + 1, in.get(B, i + 1));
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) {
            io.set(B, i, (byte) integral(op, in.get(B, i), io.get(B, i)));
        }
    }

    /*
     * Longs and ints over arrays, as the floating types above (same conditions, same staging):
     * SUM, PROD, MIN, MAX and the bitwise operations, whose int results in int arithmetic are the
     * long ones truncated (two's complement wraps alike). The segment loops vectorise no better
     * for integers, and running them for both heap and native segments put segments of several
     * classes through one JDK accessor's type profile, which C2 then compiled again after each new
     * class (uncommon traps at VarHandleSegmentAsInts.set in the NPB IS kernel's timed part,
     * docs/npb.md, stop 57). The logical operations and the LOC pairs keep the segment loops.
     */

    private static final ThreadLocal<long[][]> LONG_STAGE = ThreadLocal.withInitial(() -> new long[2][BLOCK]);
    private static final ThreadLocal<int[][]> INT_STAGE = ThreadLocal.withInitial(() -> new int[2][BLOCK]);

    /** Whether integral operation {@code op} runs over arrays where the segments allow. */
    private static boolean overArrays(int op) {
        return op <= MAX || op == BAND || op == BOR || op == BXOR;
    }

    /** b[i] = a[i] op b[i] for i in [from, to), op one of {@link #overArrays}. */
    private static void longLoop(int op, long[] a, long[] b, int from, int to) {
        switch (op) {
            case SUM -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] + b[i];
                }
            }
            case PROD -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] * b[i];
                }
            }
            case MIN -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i], b[i]);
                }
            }
            case MAX -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
            case BAND -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] & b[i];
                }
            }
            case BOR -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] | b[i];
                }
            }
            default -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] ^ b[i];
                }
            }
        }
    }

    private static void intLoop(int op, int[] a, int[] b, int from, int to) {
        switch (op) {
            case SUM -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] + b[i];
                }
            }
            case PROD -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] * b[i];
                }
            }
            case MIN -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.min(a[i], b[i]);
                }
            }
            case MAX -> {
                for (int i = from; i < to; i++) {
                    b[i] = Math.max(a[i], b[i]);
                }
            }
            case BAND -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] & b[i];
                }
            }
            case BOR -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] | b[i];
                }
            }
            default -> {
                for (int i = from; i < to; i++) {
                    b[i] = a[i] ^ b[i];
                }
            }
        }
    }

    private static long integral(int op, long a, long b) {
        return switch (op) {
            case SUM -> a + b;
            case PROD -> a * b;
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case LAND -> (a != 0 && b != 0) ? 1 : 0;
            case LOR -> (a != 0 || b != 0) ? 1 : 0;
            case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
            case BAND -> a & b;
            case BOR -> a | b;
            case BXOR -> a ^ b;
            default -> throw new IllegalArgumentException("operation " + op + " on integers");
        };
    }

    private static boolean takeIn(int op, long inValue, long inIndex, long ioValue, long ioIndex) {
        if (inValue == ioValue) {
            return inIndex < ioIndex;
        }
        return op == MINLOC ? inValue < ioValue : inValue > ioValue;
    }
}
