package dev.tessera.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reduction kernels of floats and doubles give the element-wise result of the operation,
 * bit for bit, whichever way the operands lie: heap arrays at the same offset (the loops over the
 * arrays), at different offsets, native memory on either side or both (the blocks staged through
 * arrays), counts either side of the staging threshold and of a block, values with NaN, signed
 * zeros and infinities (compared bit for bit, every NaN as one). The elements around the operated range stay untouched.
 */
class ReduceKernelsTest {

    static final int[] COUNTS = {1, 7, 8, 33, 127, 128, 129, 1023, 1024, 1025, 3000};
    static final int[] OPS = {0, 1, 2, 3};   // SUM, PROD, MIN, MAX (Op.Kind ordinals)
    static final String[] LAYOUTS = {"heap same offset", "heap other offsets", "native in", "native inout", "native both",
        "same array, same offset"};
    static final int PAD = 5;

    static double special(Random r, int i) {
        return switch (i % 23) {
            case 3 -> Double.NaN;
            case 7 -> -0.0;
            case 8 -> 0.0;
            case 11 -> Double.POSITIVE_INFINITY;
            case 13 -> Double.NEGATIVE_INFINITY;
            default -> (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(12) - 6);
        };
    }

    static double expected(int op, double a, double b) {
        return switch (op) {
            case 0 -> a + b;
            case 1 -> a * b;
            case 2 -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }

    /** Segments over {@code inValues} and {@code ioValues} laid out as {@code layout} names. */
    static MemorySegment[] lay(String layout, Object inValues, Object ioValues, int bytes, int n, Arena arena) {
        long size = (long) bytes * n;
        MemorySegment inHeap = ofArray(inValues);
        MemorySegment ioHeap = ofArray(ioValues);
        return switch (layout) {
            case "heap same offset" -> new MemorySegment[] {inHeap.asSlice((long) PAD * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            case "heap other offsets" -> new MemorySegment[] {inHeap.asSlice(2L * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            case "native in" -> new MemorySegment[] {copyToNative(inHeap, arena).asSlice(3L * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            case "native inout" -> new MemorySegment[] {inHeap.asSlice((long) PAD * bytes, size), copyToNative(ioHeap, arena).asSlice((long) PAD * bytes, size)};
            case "native both" -> new MemorySegment[] {copyToNative(inHeap, arena).asSlice((long) PAD * bytes, size),
                copyToNative(ioHeap, arena).asSlice(1L * bytes, size)};
            default -> new MemorySegment[] {ioHeap.asSlice((long) PAD * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
        };
    }

    static MemorySegment ofArray(Object a) {
        return a instanceof double[] d ? MemorySegment.ofArray(d) : MemorySegment.ofArray((float[]) a);
    }

    static MemorySegment copyToNative(MemorySegment heap, Arena arena) {
        MemorySegment m = arena.allocate(heap.byteSize(), 8);
        m.copyFrom(heap);
        return m;
    }

    /** Rounds of every case: later rounds run the loops compiled by C2 (vectorised), not only interpreted. */
    static final int ROUNDS = 8;

    @Test
    void doublesMatchTheElementWiseOperationInEveryLayout() {
        Random r = new Random(42);
        for (int round = 0; round < ROUNDS; round++) {
            round(r, false);
        }
    }

    @Test
    void floatsMatchTheElementWiseOperationInEveryLayout() {
        Random r = new Random(7);
        for (int round = 0; round < ROUNDS; round++) {
            round(r, true);
        }
    }

    /**
     * Every layout, operation and count once, for floats or doubles. Elements are read as doubles
     * (exact for floats); the float reference is the operation in double rounded once to float.
     */
    static void round(Random r, boolean floats) {
        int bytes = floats ? 4 : 8;
        for (String layout : LAYOUTS) {
            for (int op : OPS) {
                for (int n : COUNTS) {
                    double[] inValues = new double[n + 2 * PAD];
                    double[] ioValues = new double[n + 2 * PAD];
                    for (int i = 0; i < inValues.length; i++) {
                        inValues[i] = floats ? (float) special(r, i) : special(r, i);
                        ioValues[i] = floats ? (float) special(r, i + 5) : special(r, i + 5);
                    }
                    Object in = floats ? toFloats(inValues) : inValues;
                    Object io = floats ? toFloats(ioValues) : ioValues;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment[] s = lay(layout, in, io, bytes, n, arena);
                        double[] a = new double[n];
                        double[] before = new double[n];
                        for (int i = 0; i < n; i++) {
                            a[i] = element(s[0], floats, i);
                            before[i] = element(s[1], floats, i);
                        }
                        if (floats) {
                            ReduceKernels.floats(op, s[0], s[1], n);
                        } else {
                            ReduceKernels.doubles(op, s[0], s[1], n);
                        }
                        String what = layout + ", op " + op + ", " + n + (floats ? " floats" : " doubles");
                        for (int i = 0; i < n; i++) {
                            double want = floats ? (float) expected(op, a[i], before[i]) : expected(op, a[i], before[i]);
                            assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(element(s[1], floats, i)),
                                    what + ", element " + i + ": " + a[i] + " op " + before[i]);
                        }
                        if (s[1].heapBase().isPresent()) {
                            MemorySegment all = ofArray(io);
                            for (int i = 0; i < PAD; i++) {
                                assertEquals(ioValues[i], element(all, floats, i), what + ", before the range");
                                assertEquals(ioValues[n + PAD + i], element(all, floats, n + PAD + i), what + ", after the range");
                            }
                        }
                    }
                }
            }
        }
    }

    static float[] toFloats(double[] d) {
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) {
            f[i] = (float) d[i];
        }
        return f;
    }

    static double element(MemorySegment s, boolean floats, int i) {
        return floats ? s.getAtIndex(ValueLayout.JAVA_FLOAT, i) : s.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
    }

    /**
     * out = in + own, with in on the heap at out's offset, on the heap elsewhere, or in native memory; out at own's
     * offset (the arrays read in place from 128 elements) or two elements before it (staged a block at a time).
     */
    @Test
    void sumsIntoAThirdBufferMatchInEveryLayout() {
        Random r = new Random(3);
        for (int n : COUNTS) {
            for (int inKind = 0; inKind < 3; inKind++) {
                for (int outAt : new int[] {PAD, PAD - 2}) {
                    double[] in = new double[n + 2 * PAD];
                    double[] own = new double[n + 2 * PAD];
                    float[] fin = new float[n + 2 * PAD];
                    float[] fown = new float[n + 2 * PAD];
                    for (int i = 0; i < in.length; i++) {
                        in[i] = special(r, i);
                        own[i] = special(r, i + 9);
                        fin[i] = (float) in[i];
                        fown[i] = (float) own[i];
                    }
                    double[] out = new double[n + 2 * PAD];
                    float[] fout = new float[n + 2 * PAD];
                    try (Arena arena = Arena.ofConfined()) {
                        long inAt = inKind == 1 ? 1 : PAD;
                        MemorySegment inD = inKind == 2 ? copyToNative(MemorySegment.ofArray(in), arena) : MemorySegment.ofArray(in);
                        MemorySegment inF = inKind == 2 ? copyToNative(MemorySegment.ofArray(fin), arena) : MemorySegment.ofArray(fin);
                        ReduceKernels.sumDoublesInto(inD.asSlice(inAt * 8, n * 8L), MemorySegment.ofArray(own).asSlice(PAD * 8L, n * 8L),
                                MemorySegment.ofArray(out).asSlice(outAt * 8L, n * 8L), n);
                        ReduceKernels.sumFloatsInto(inF.asSlice(inAt * 4, n * 4L), MemorySegment.ofArray(fown).asSlice(PAD * 4L, n * 4L),
                                MemorySegment.ofArray(fout).asSlice(outAt * 4L, n * 4L), n);
                        String what = "in kind " + inKind + ", out at " + outAt + ", " + n + " elements";
                        for (int i = 0; i < n; i++) {
                            assertEquals(Double.doubleToLongBits(in[(int) inAt + i] + own[PAD + i]),
                                    Double.doubleToLongBits(out[outAt + i]), what + ", double " + i);
                            assertEquals(Float.floatToIntBits(fin[(int) inAt + i] + fown[PAD + i]), Float.floatToIntBits(fout[outAt + i]),
                                    what + ", float " + i);
                        }
                        for (int i = 0; i < out.length; i++) {
                            if (i < outAt || i >= outAt + n) {
                                assertEquals(0.0, out[i], what + ", double " + i + " outside the range");
                                assertEquals(0.0f, fout[i], what + ", float " + i + " outside the range");
                            }
                        }
                    }
                }
            }
        }
    }

    /** Integral operations: SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR (Op.Kind ordinals 0-9). */
    static final int[] INTEGRAL_OPS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

    static long integral(int op, long a, long b) {
        return switch (op) {
            case 0 -> a + b;
            case 1 -> a * b;
            case 2 -> Math.min(a, b);
            case 3 -> Math.max(a, b);
            case 4 -> (a != 0 && b != 0) ? 1 : 0;
            case 5 -> (a != 0 || b != 0) ? 1 : 0;
            case 6 -> ((a != 0) != (b != 0)) ? 1 : 0;
            case 7 -> a & b;
            case 8 -> a | b;
            default -> a ^ b;
        };
    }

    /** Values that overflow when added or multiplied, zeros (for the logical operations) and extremes. */
    static long integralValue(Random r, int i) {
        return switch (i % 17) {
            case 2, 9 -> 0;
            case 5 -> Long.MAX_VALUE;
            case 6 -> Long.MIN_VALUE;
            case 11 -> Integer.MAX_VALUE;
            case 12 -> Integer.MIN_VALUE;
            default -> r.nextLong() >> r.nextInt(60);
        };
    }

    /**
     * Longs and ints: every operation in every layout and count gives the element-wise result of
     * the operation in long arithmetic, truncated to int for ints (the loops over arrays compute in
     * the element type), and the elements around the range stay untouched.
     */
    @Test
    void longsAndIntsMatchTheElementWiseOperationInEveryLayout() {
        Random r = new Random(11);
        for (int round = 0; round < ROUNDS; round++) {
            for (boolean ints : new boolean[] {false, true}) {
                int bytes = ints ? 4 : 8;
                for (String layout : LAYOUTS) {
                    for (int op : INTEGRAL_OPS) {
                        for (int n : COUNTS) {
                            long[] inValues = new long[n + 2 * PAD];
                            long[] ioValues = new long[n + 2 * PAD];
                            for (int i = 0; i < inValues.length; i++) {
                                inValues[i] = ints ? (int) integralValue(r, i) : integralValue(r, i);
                                ioValues[i] = ints ? (int) integralValue(r, i + 4) : integralValue(r, i + 4);
                            }
                            Object in = ints ? toInts(inValues) : inValues;
                            Object io = ints ? toInts(ioValues) : ioValues;
                            try (Arena arena = Arena.ofConfined()) {
                                MemorySegment inHeap = ints ? MemorySegment.ofArray((int[]) in) : MemorySegment.ofArray((long[]) in);
                                MemorySegment ioHeap = ints ? MemorySegment.ofArray((int[]) io) : MemorySegment.ofArray((long[]) io);
                                MemorySegment[] seg = layIntegral(layout, inHeap, ioHeap, bytes, n, arena);
                                long[] a = new long[n];
                                long[] before = new long[n];
                                for (int i = 0; i < n; i++) {
                                    a[i] = integralElement(seg[0], ints, i);
                                    before[i] = integralElement(seg[1], ints, i);
                                }
                                if (ints) {
                                    ReduceKernels.ints(op, seg[0], seg[1], n);
                                } else {
                                    ReduceKernels.longs(op, seg[0], seg[1], n);
                                }
                                String what = layout + ", op " + op + ", " + n + (ints ? " ints" : " longs");
                                for (int i = 0; i < n; i++) {
                                    long want = integral(op, a[i], before[i]);
                                    assertEquals(ints ? (int) want : want, integralElement(seg[1], ints, i),
                                            what + ", element " + i + ": " + a[i] + " op " + before[i]);
                                }
                                for (int i = 0; i < PAD; i++) {
                                    assertEquals(ioValues[i], integralElement(ioHeap, ints, i), what + ", before the range");
                                    assertEquals(ioValues[n + PAD + i], integralElement(ioHeap, ints, n + PAD + i),
                                            what + ", after the range");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    static MemorySegment[] layIntegral(String layout, MemorySegment inHeap, MemorySegment ioHeap, int bytes, int n, Arena arena) {
        long size = (long) bytes * n;
        return switch (layout) {
            case "heap same offset" -> new MemorySegment[] {inHeap.asSlice((long) PAD * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            case "heap other offsets" -> new MemorySegment[] {inHeap.asSlice(2L * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            case "native in" -> new MemorySegment[] {copyToNative(inHeap, arena).asSlice(3L * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
            // the result lands in native memory here; the checks around the range read the heap copy, untouched
            case "native inout" -> new MemorySegment[] {inHeap.asSlice((long) PAD * bytes, size), copyToNative(ioHeap, arena).asSlice((long) PAD * bytes, size)};
            case "native both" -> new MemorySegment[] {copyToNative(inHeap, arena).asSlice((long) PAD * bytes, size),
                copyToNative(ioHeap, arena).asSlice(1L * bytes, size)};
            default -> new MemorySegment[] {ioHeap.asSlice((long) PAD * bytes, size), ioHeap.asSlice((long) PAD * bytes, size)};
        };
    }

    static int[] toInts(long[] l) {
        int[] a = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            a[i] = (int) l[i];
        }
        return a;
    }

    static long integralElement(MemorySegment s, boolean ints, int i) {
        return ints ? s.getAtIndex(ValueLayout.JAVA_INT, i) : s.getAtIndex(ValueLayout.JAVA_LONG, i);
    }
}
