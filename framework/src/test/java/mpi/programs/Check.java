package mpi.programs;

import java.lang.reflect.Array;
import java.util.Objects;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/** Assertions and typed test values for the mpiJava test programs (each rank checks its own results). */
final class Check {

    private Check() {
    }

    static void that(boolean ok, String what) throws MPIException {
        if (!ok) {
            throw new IllegalStateException("rank " + MPI.COMM_WORLD.Rank() + ": check failed: " + what);
        }
    }

    static void equal(Object expected, Object actual, String what) throws MPIException {
        that(Objects.equals(expected, actual), what + ": expected " + expected + " but got " + actual);
    }

    /** Runs {@code body}, which must fail with an MPIException of {@code errorClass} whose message names {@code call}. */
    static void fails(int errorClass, String call, Body body) throws MPIException {
        try {
            body.run();
        } catch (MPIException e) {
            equal(errorClass, e.getErrorClass(), "error class of " + call + " (" + e.getMessage() + ")");
            that(e.getMessage().contains("rank " + MPI.COMM_WORLD.Rank()) && e.getMessage().contains(call),
                    "message names rank and call: " + e.getMessage());
            return;
        }
        that(false, call + " should have failed with error class " + errorClass);
    }

    interface Body {
        void run() throws MPIException;
    }

    /** The primitive (and OBJECT) datatypes. */
    static final Datatype[] TYPES = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE,
            MPI.OBJECT};

    /** A new array of {@code n} elements of the base type of {@code t}. */
    static Object array(Datatype t, int n) {
        if (t == MPI.BYTE) return new byte[n];
        if (t == MPI.CHAR) return new char[n];
        if (t == MPI.SHORT) return new short[n];
        if (t == MPI.BOOLEAN) return new boolean[n];
        if (t == MPI.INT) return new int[n];
        if (t == MPI.LONG) return new long[n];
        if (t == MPI.FLOAT) return new float[n];
        if (t == MPI.DOUBLE) return new double[n];
        return new Object[n];
    }

    /** Stores the test value for {@code v} at index i. */
    static void set(Object a, int i, int v) {
        switch (a) {
            case byte[] x -> x[i] = (byte) v;
            case char[] x -> x[i] = (char) ('A' + Math.floorMod(v, 50));
            case short[] x -> x[i] = (short) (v * 7);
            case boolean[] x -> x[i] = v % 3 == 0;
            case int[] x -> x[i] = v * 31;
            case long[] x -> x[i] = v * 1_000_000_007L;
            case float[] x -> x[i] = v + 0.25f;
            case double[] x -> x[i] = v - 0.125;
            case Object[] x -> x[i] = "s" + v;
            default -> throw new IllegalArgumentException(a.getClass().toString());
        }
    }

    /** An array of {@code n} elements, element i holding the value for {@code seed * 1000 + i}. */
    static Object values(Datatype t, int n, int seed) {
        Object a = array(t, n);
        for (int i = 0; i < n; i++) {
            set(a, i, seed * 1000 + i);
        }
        return a;
    }

    /** Checks that element i of {@code a} holds the value for {@code v}. */
    static void holds(Object a, int i, int v, String what) throws MPIException {
        Object e = Array.newInstance(a.getClass().getComponentType(), 1);
        set(e, 0, v);
        equal(Array.get(e, 0), Array.get(a, i), what + " [" + i + "]");
    }
}
