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
        for (int i = 0; i < n; i++) {
            out.setAtIndex(D, i, in.getAtIndex(D, i) + own.getAtIndex(D, i));
        }
    }

    /** out[i] = in[i] + own[i] (three segments, one pass; float arithmetic rounds as {@link #floats} does). */
    static void sumFloatsInto(MemorySegment in, MemorySegment own, MemorySegment out, int n) {
        for (int i = 0; i < n; i++) {
            out.setAtIndex(F, i, in.getAtIndex(F, i) + own.getAtIndex(F, i));
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
