package dev.tessera.conformance;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Op;

/**
 * Test data for reductions: logical values held as longs, turned into a Buffer of any
 * element type and back, and a sequential reference for every built-in operation with
 * the element type's wrap-around semantics.
 */
final class TypedValues {

    static final Datatype[] TYPES = {Datatype.BYTE, Datatype.SHORT, Datatype.CHAR, Datatype.INT, Datatype.LONG,
        Datatype.FLOAT, Datatype.DOUBLE, Datatype.BOOLEAN};

    private TypedValues() {
    }

    /** The contribution of {@code rank} at element i for an operation family: small values, exact in every type. */
    static long value(String op, int rank, int i) {
        return switch (op) {
            case "BAND", "BOR", "BXOR" -> (rank * 37L + i * 11L) & 0x7F;
            case "LAND", "LOR", "LXOR" -> (rank + i) % 3 == 0 ? 0 : 1;
            default -> (rank * 7L + i * 3L) % 5 + 1;
        };
    }

    static boolean applicable(String op, Datatype t) {
        boolean floating = t == Datatype.FLOAT || t == Datatype.DOUBLE;
        return switch (op) {
            case "SUM", "PROD", "MIN", "MAX" -> t != Datatype.BOOLEAN;
            case "LAND", "LOR", "LXOR" -> !floating;
            case "BAND", "BOR", "BXOR" -> !floating;
            default -> false;
        };
    }

    static Op op(String name) {
        return switch (name) {
            case "SUM" -> Op.SUM;
            case "PROD" -> Op.PROD;
            case "MIN" -> Op.MIN;
            case "MAX" -> Op.MAX;
            case "LAND" -> Op.LAND;
            case "LOR" -> Op.LOR;
            case "LXOR" -> Op.LXOR;
            case "BAND" -> Op.BAND;
            case "BOR" -> Op.BOR;
            case "BXOR" -> Op.BXOR;
            default -> throw new IllegalArgumentException(name);
        };
    }

    static final String[] OPS = {"SUM", "PROD", "MIN", "MAX", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};

    /** A fresh array of type t holding the values, wrapped as a Buffer; {@link #read} gives them back. */
    static Buffer buffer(Datatype t, long[] v) {
        int n = v.length;
        return switch (t) {
            case BYTE -> { byte[] a = new byte[n]; for (int i = 0; i < n; i++) a[i] = (byte) v[i]; yield Buffer.of(a); }
            case SHORT -> { short[] a = new short[n]; for (int i = 0; i < n; i++) a[i] = (short) v[i]; yield Buffer.of(a); }
            case CHAR -> { char[] a = new char[n]; for (int i = 0; i < n; i++) a[i] = (char) v[i]; yield Buffer.of(a); }
            case INT -> { int[] a = new int[n]; for (int i = 0; i < n; i++) a[i] = (int) v[i]; yield Buffer.of(a); }
            case LONG -> Buffer.of(v.clone());
            case FLOAT -> { float[] a = new float[n]; for (int i = 0; i < n; i++) a[i] = v[i]; yield Buffer.of(a); }
            case DOUBLE -> { double[] a = new double[n]; for (int i = 0; i < n; i++) a[i] = v[i]; yield Buffer.of(a); }
            case BOOLEAN -> { boolean[] a = new boolean[n]; for (int i = 0; i < n; i++) a[i] = v[i] != 0; yield Buffer.of(a); }
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    /** Element values of a buffer made by {@link #buffer}, read through its backing array. */
    static long[] read(Object array) {
        return switch (array) {
            case byte[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = a[i]; yield o; }
            case short[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = a[i]; yield o; }
            case char[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = a[i]; yield o; }
            case int[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = a[i]; yield o; }
            case long[] a -> a.clone();
            case float[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = (long) a[i]; yield o; }
            case double[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = (long) a[i]; yield o; }
            case boolean[] a -> { long[] o = new long[a.length]; for (int i = 0; i < a.length; i++) o[i] = a[i] ? 1 : 0; yield o; }
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }

    /** An empty array of the type, for receive buffers. */
    static Object array(Datatype t, int n) {
        return switch (t) {
            case BYTE -> new byte[n];
            case SHORT -> new short[n];
            case CHAR -> new char[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case BOOLEAN -> new boolean[n];
            default -> throw new IllegalArgumentException(t.toString());
        };
    }

    static Buffer wrap(Object array) {
        return switch (array) {
            case byte[] a -> Buffer.of(a);
            case short[] a -> Buffer.of(a);
            case char[] a -> Buffer.of(a);
            case int[] a -> Buffer.of(a);
            case long[] a -> Buffer.of(a);
            case float[] a -> Buffer.of(a);
            case double[] a -> Buffer.of(a);
            case boolean[] a -> Buffer.of(a);
            default -> throw new IllegalArgumentException(array.getClass().toString());
        };
    }

    /** Sequential reference: fold of ranks [from, to) at element i, in rank order. */
    static long reference(String op, Datatype t, int from, int to, int i) {
        long acc = truncate(t, value(op, from, i));
        for (int r = from + 1; r < to; r++) {
            long b = truncate(t, value(op, r, i));
            acc = truncate(t, switch (op) {
                case "SUM" -> acc + b;
                case "PROD" -> acc * b;
                case "MIN" -> Math.min(acc, b);
                case "MAX" -> Math.max(acc, b);
                case "LAND" -> (acc != 0 && b != 0) ? 1 : 0;
                case "LOR" -> (acc != 0 || b != 0) ? 1 : 0;
                case "LXOR" -> ((acc != 0) != (b != 0)) ? 1 : 0;
                case "BAND" -> acc & b;
                case "BOR" -> acc | b;
                case "BXOR" -> acc ^ b;
                default -> throw new IllegalArgumentException(op);
            });
        }
        return acc;
    }

    static long truncate(Datatype t, long v) {
        return switch (t) {
            case BYTE -> (byte) v;
            case SHORT -> (short) v;
            case CHAR -> (char) v;
            case INT -> (int) v;
            case BOOLEAN -> v != 0 ? 1 : 0;
            default -> v;
        };
    }

    static long[] contribution(String op, int rank, int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = value(op, rank, i);
        }
        return v;
    }
}
