package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An mpiJava datatype: a primitive type ({@link MPI#INT}, {@link MPI#DOUBLE}, ...,
 * {@link MPI#OBJECT}) or a derived type built from one ({@link #Contiguous},
 * {@link #Vector}, {@link #Hvector}, {@link #Indexed}, {@link #Hindexed}, {@link #Struct}).
 *
 * <p>As in mpiJava 1.2, all sizes and displacements are in <em>buffer elements</em> (array
 * indices), not bytes: a datatype is a list of element displacements (its type map) over
 * one base type, and every base element of a derived type must be of the same primitive
 * type (a {@code Struct} mixing, say, INT and DOUBLE is rejected with {@link MPI#ERR_TYPE}).
 * {@link #Extent()} is {@code Ub() - Lb()}; item {@code i} of a message occupies the array
 * elements {@code offset + i * Extent() + d} for each displacement {@code d}.
 *
 * <p>Derived types are sent by packing the selected elements into a contiguous staging
 * array (and received by unpacking), as MPJ Express does; contiguous types go straight
 * from and to the user's array.
 */
public class Datatype {

    private static final int PLAIN = 0, LB_MARKER = 1, UB_MARKER = 2;

    /** Base primitive type; null only for the LB/UB markers. */
    final dev.tessera.comm.Datatype base;
    private final String name;
    /** Element displacements of the type map, in order. */
    private final int[] disp;
    private final int lb;
    private final int ub;
    private final boolean explicitLb;
    private final boolean explicitUb;
    private final int marker;
    private final boolean predefined;
    /** The type map as runs of consecutive elements: start0, length0, start1, length1, ... */
    private final int[] runs;
    /** True if the type map is 0, 1, ..., n-1 and the extent is n: items are back to back. */
    final boolean contiguous;
    private boolean committed;
    private boolean freed;

    private Datatype(dev.tessera.comm.Datatype base, String name, int[] disp, int lb, int ub,
                     boolean explicitLb, boolean explicitUb, int marker, boolean predefined) {
        this.base = base;
        this.name = name;
        this.disp = disp;
        this.lb = lb;
        this.ub = ub;
        this.explicitLb = explicitLb;
        this.explicitUb = explicitUb;
        this.marker = marker;
        this.predefined = predefined;
        this.runs = toRuns(disp);
        boolean c = lb == 0 && ub == disp.length;
        for (int i = 0; c && i < disp.length; i++) {
            c = disp[i] == i;
        }
        this.contiguous = c;
        this.committed = predefined;
    }

    /** A predefined primitive type. */
    static Datatype primitive(dev.tessera.comm.Datatype base, String name) {
        return new Datatype(base, name, new int[] {0}, 0, 1, false, false, PLAIN, true);
    }

    /** A predefined pair type (MPI.INT2, ...): two consecutive elements, for MINLOC/MAXLOC. */
    static Datatype pair(dev.tessera.comm.Datatype base, String name) {
        return new Datatype(base, name, new int[] {0, 1}, 0, 2, false, false, PLAIN, true);
    }

    /** The MPI.LB (lower bound) or MPI.UB (upper bound) marker. */
    static Datatype marker(boolean lower) {
        return new Datatype(null, lower ? "MPI.LB" : "MPI.UB", new int[0], 0, 0, lower, !lower,
                lower ? LB_MARKER : UB_MARKER, true);
    }

    // ------------------------------------------------------------------ constructors of derived types

    /** {@code count} copies of {@code oldtype}, each one extent after the previous. */
    public static Datatype Contiguous(int count, Datatype oldtype) throws MPIException {
        return MPI.call(() -> vector("Datatype.Contiguous", count, 1, 1, oldtype, true));
    }

    /**
     * {@code count} blocks of {@code blocklength} copies of {@code oldtype}; block starts are
     * {@code stride} extents of {@code oldtype} apart.
     */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return MPI.call(() -> vector("Datatype.Vector", count, blocklength, stride, oldtype, true));
    }

    /** Like {@link #Vector}, but {@code stride} is in buffer elements, not in extents of {@code oldtype}. */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) throws MPIException {
        return MPI.call(() -> vector("Datatype.Hvector", count, blocklength, stride, oldtype, false));
    }

    /** Blocks of {@code blocklengths[i]} copies of {@code oldtype} at {@code displacements[i]} extents. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        return MPI.call(() -> indexed("Datatype.Indexed", blocklengths, displacements, oldtype, true));
    }

    /** Like {@link #Indexed}, but displacements are in buffer elements. */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) throws MPIException {
        return MPI.call(() -> indexed("Datatype.Hindexed", blocklengths, displacements, oldtype, false));
    }

    /**
     * Blocks of {@code blocklengths[i]} copies of {@code types[i]} at {@code displacements[i]}
     * buffer elements. All types must share one base type; {@link MPI#LB} and {@link MPI#UB}
     * entries set the bounds explicitly.
     */
    public static Datatype Struct(int[] blocklengths, int[] displacements, Datatype[] types) throws MPIException {
        return MPI.call(() -> {
            String call = "Datatype.Struct";
            checkLengths(call, blocklengths, displacements);
            if (types == null || types.length != blocklengths.length) {
                throw error(ErrorClass.ARG, call, "needs one type per block (" + blocklengths.length + " blocks)");
            }
            List<int[]> shifts = new ArrayList<>();
            List<Datatype> parts = new ArrayList<>();
            for (int i = 0; i < types.length; i++) {
                Datatype t = check(call, types[i]);
                int n = t.marker == PLAIN ? blocklengths[i] : 1;
                for (int b = 0; b < n; b++) {
                    shifts.add(new int[] {displacements[i] + b * t.Extent0()});
                    parts.add(t);
                }
            }
            return compose(call, "Struct", null, shifts, parts);
        });
    }

    private static Datatype vector(String call, int count, int blocklength, int stride, Datatype old, boolean strideInExtents) {
        check(call, old);
        if (count < 0 || blocklength < 0) {
            throw error(ErrorClass.COUNT, call, "count " + count + " and block length " + blocklength + " must not be negative");
        }
        int ext = old.Extent0();
        List<int[]> shifts = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            for (int b = 0; b < blocklength; b++) {
                shifts.add(new int[] {j * (strideInExtents ? stride * ext : stride) + b * ext});
            }
        }
        return compose(call, call.substring(call.indexOf('.') + 1) + "(" + old.name + ")", old.base, shifts,
                java.util.Collections.nCopies(shifts.size(), old));
    }

    private static Datatype indexed(String call, int[] blocklengths, int[] displacements, Datatype old, boolean inExtents) {
        check(call, old);
        checkLengths(call, blocklengths, displacements);
        int ext = old.Extent0();
        List<int[]> shifts = new ArrayList<>();
        for (int i = 0; i < blocklengths.length; i++) {
            for (int b = 0; b < blocklengths[i]; b++) {
                shifts.add(new int[] {(inExtents ? displacements[i] * ext : displacements[i]) + b * ext});
            }
        }
        return compose(call, call.substring(call.indexOf('.') + 1) + "(" + old.name + ")", old.base, shifts,
                java.util.Collections.nCopies(shifts.size(), old));
    }

    private static void checkLengths(String call, int[] blocklengths, int[] displacements) {
        if (blocklengths == null || displacements == null || blocklengths.length != displacements.length) {
            throw error(ErrorClass.ARG, call, "block lengths and displacements must be arrays of the same length");
        }
        for (int i = 0; i < blocklengths.length; i++) {
            if (blocklengths[i] < 0) {
                throw error(ErrorClass.COUNT, call, "block length " + blocklengths[i] + " (block " + i + ") is negative");
            }
        }
    }

    /** The type made of copies of {@code parts[i]} shifted by {@code shifts[i]} elements. */
    private static Datatype compose(String call, String name, dev.tessera.comm.Datatype base, List<int[]> shifts,
                                    List<Datatype> parts) {
        int total = 0;
        boolean anyLb = false, anyUb = false;
        for (Datatype t : parts) {
            if (t.base != null) {
                if (base == null) {
                    base = t.base;
                } else if (base != t.base) {
                    throw error(ErrorClass.TYPE, call, "mixes " + base + " and " + t.base
                            + " elements; mpiJava datatypes need one base type");
                }
            }
            total += t.disp.length;
            anyLb |= t.explicitLb;
            anyUb |= t.explicitUb;
        }
        // base == null: only LB/UB markers (and empty blocks): a type of size 0 with an extent, whose
        // element type is that of the buffer it is used with (see on(Object))
        int[] disp = new int[total];
        int k = 0;
        long lb = Long.MAX_VALUE, ub = Long.MIN_VALUE;
        for (int i = 0; i < parts.size(); i++) {
            Datatype t = parts.get(i);
            int s = shifts.get(i)[0];
            for (int d : t.disp) {
                disp[k++] = s + d;
            }
            if (t.marker != UB_MARKER && (!anyLb || t.explicitLb)) {
                lb = Math.min(lb, (long) s + t.lb);
            }
            if (t.marker != LB_MARKER && (!anyUb || t.explicitUb)) {
                ub = Math.max(ub, (long) s + t.ub);
            }
        }
        if (lb == Long.MAX_VALUE) {
            lb = 0;
        }
        if (ub == Long.MIN_VALUE) {
            ub = lb;
        }
        return new Datatype(base, name, disp, Math.toIntExact(lb), Math.toIntExact(Math.max(lb, ub)), anyLb, anyUb,
                PLAIN, false);
    }

    /**
     * This type, for a buffer: a type of size 0 made only of LB/UB markers has no element
     * type of its own and takes that of the array it is used with (BYTE for none), so that a
     * message of it (which moves no data) matches a receive of the same array type.
     */
    Datatype on(Object buf) {
        if (base != null || marker != PLAIN) {
            return this;
        }
        dev.tessera.comm.Datatype b = switch (buf) {
            case double[] a -> dev.tessera.comm.Datatype.DOUBLE;
            case float[] a -> dev.tessera.comm.Datatype.FLOAT;
            case long[] a -> dev.tessera.comm.Datatype.LONG;
            case int[] a -> dev.tessera.comm.Datatype.INT;
            case short[] a -> dev.tessera.comm.Datatype.SHORT;
            case char[] a -> dev.tessera.comm.Datatype.CHAR;
            case boolean[] a -> dev.tessera.comm.Datatype.BOOLEAN;
            case Object[] a -> dev.tessera.comm.Datatype.OBJECT;
            case null, default -> dev.tessera.comm.Datatype.BYTE;
        };
        Datatype t = new Datatype(b, name, disp, lb, ub, explicitLb, explicitUb, PLAIN, false);
        t.freed = freed;
        return t;
    }

    /** Fails a call given a null datatype. */
    static int nullType(String call) {
        throw error(ErrorClass.TYPE, call, "datatype is null");
    }

    private static Datatype check(String call, Datatype t) {
        if (t == null) {
            throw error(ErrorClass.TYPE, call, "datatype is null");
        }
        if (t.freed) {
            throw error(ErrorClass.TYPE, call, "datatype " + t.name + " was freed");
        }
        return t;
    }

    private static TesseraException error(ErrorClass c, String call, String text) {
        return new TesseraException(c, MPI.where(call) + ": " + text);
    }

    // ------------------------------------------------------------------ queries

    /** Distance in buffer elements from the start of one item to the next ({@code Ub() - Lb()}). */
    public int Extent() throws MPIException {
        return Extent0();
    }

    /** Number of buffer elements one item holds. */
    public int Size() throws MPIException {
        return disp.length;
    }

    /** Lower bound, in buffer elements. */
    public int Lb() throws MPIException {
        return lb;
    }

    /** Upper bound, in buffer elements. */
    public int Ub() throws MPIException {
        return ub;
    }

    /** Makes the type ready for communication (derived types may also be used uncommitted here). */
    public void Commit() throws MPIException {
        MPI.run(() -> {
            check("Datatype.Commit", this);
            committed = true;
        });
    }

    /** Releases the type; using it afterwards is an {@link MPI#ERR_TYPE} error. Predefined types cannot be freed. */
    public void Free() throws MPIException {
        MPI.run(() -> {
            check("Datatype.Free", this);
            if (predefined) {
                throw error(ErrorClass.TYPE, "Datatype.Free", "predefined datatype " + name + " cannot be freed");
            }
            freed = true;
        });
    }

    /** True once {@link #Commit()} was called (always true for predefined types). */
    public boolean isCommitted() {
        return committed;
    }

    int Extent0() {
        return ub - lb;
    }

    int size0() {
        return disp.length;
    }

    boolean isObject() {
        return base == dev.tessera.comm.Datatype.OBJECT;
    }

    @Override
    public String toString() {
        return predefined ? name : name + "[size " + disp.length + ", extent " + Extent0() + "]";
    }

    // ------------------------------------------------------------------ buffers

    /**
     * Checks that {@code buf} is an array of this type's base type and that {@code count}
     * items from {@code offset} lie inside it; returns the number of base elements.
     */
    int checkBuffer(String call, String what, Object buf, int offset, int count) {
        check(call, this);
        if (marker != PLAIN) {
            throw error(ErrorClass.TYPE, call, name + " is a bound marker, not a datatype for data");
        }
        if (count < 0) {
            throw error(ErrorClass.COUNT, call, what + "count " + count + " is negative");
        }
        if (buf == null) {
            if (count == 0) {
                return 0;
            }
            throw error(ErrorClass.BUFFER, call, what + "buffer is null");
        }
        if (!fits(buf)) {
            throw error(ErrorClass.TYPE, call, what + "buffer is " + buf.getClass().getSimpleName() + " but the datatype is "
                    + this + " (needs " + arrayName() + ")");
        }
        if (offset < 0) {
            throw error(ErrorClass.BUFFER, call, what + "offset " + offset + " is negative");
        }
        if (count > 0 && disp.length > 0) {
            int length = java.lang.reflect.Array.getLength(buf);
            long first = (long) offset + minDisp();
            long last = (long) offset + (long) (count - 1) * Extent0() + maxDisp();
            if (first < 0 || last >= length) {
                throw error(ErrorClass.BUFFER, call, what + "buffer of length " + length + " is too short for " + count
                        + " x " + this + " from offset " + offset + " (needs index " + last + ")");
            }
        }
        return Math.multiplyExact(count, disp.length);
    }

    int maxDisp() {
        return Arrays.stream(disp).max().orElse(0);
    }

    int minDisp() {
        return Arrays.stream(disp).min().orElse(0);
    }

    private boolean fits(Object buf) {
        if (base == null) {                 // size 0, markers only: any array (see on(Object))
            return buf.getClass().isArray();
        }
        return switch (base) {
            case OBJECT -> buf instanceof Object[];
            case BYTE -> buf instanceof byte[];
            case BOOLEAN -> buf instanceof boolean[];
            case CHAR -> buf instanceof char[];
            case SHORT -> buf instanceof short[];
            case INT -> buf instanceof int[];
            case LONG -> buf instanceof long[];
            case FLOAT -> buf instanceof float[];
            case DOUBLE -> buf instanceof double[];
        };
    }

    private String arrayName() {
        return base == null ? "an array" : base == dev.tessera.comm.Datatype.OBJECT ? "Object[]" : base.name().toLowerCase() + "[]";
    }

    /** A new array of {@code n} base elements. */
    Object newArray(int n) {
        if (base == null) {
            return new byte[n];
        }
        return switch (base) {
            case OBJECT -> new Object[n];
            case BYTE -> new byte[n];
            case BOOLEAN -> new boolean[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    /** A Tessera buffer over {@code n} elements of a primitive array from {@code offset} (no copy). */
    static Buffer wrap(Object array, int offset, int n) {
        return switch (array) {
            case double[] a -> Buffer.of(a, offset, n);
            case float[] a -> Buffer.of(a, offset, n);
            case long[] a -> Buffer.of(a, offset, n);
            case int[] a -> Buffer.of(a, offset, n);
            case short[] a -> Buffer.of(a, offset, n);
            case char[] a -> Buffer.of(a, offset, n);
            case byte[] a -> Buffer.of(a, offset, n);
            case boolean[] a -> Buffer.of(a, offset, n);
            default -> throw new IllegalArgumentException("not a primitive array: " + array.getClass());
        };
    }

    /** Copies {@code count} items from {@code buf} at {@code offset} into a new contiguous array of base elements. */
    Object pack(Object buf, int offset, int count) {
        Object out = newArray(count * disp.length);
        int pos = 0;
        for (int i = 0; i < count; i++) {
            int at = offset + i * Extent0();
            for (int r = 0; r < runs.length; r += 2) {
                System.arraycopy(buf, at + runs[r], out, pos, runs[r + 1]);
                pos += runs[r + 1];
            }
        }
        return out;
    }

    /**
     * Copies {@code elements} base elements from {@code packed} (from index {@code from}) into
     * the items of {@code buf} at {@code offset}, in type-map order (a short message fills
     * only the first items).
     */
    void unpack(Object packed, int from, Object buf, int offset, int elements) {
        int pos = from;
        int left = elements;
        for (int i = 0; left > 0; i++) {
            int at = offset + i * Extent0();
            for (int r = 0; r < runs.length && left > 0; r += 2) {
                int n = Math.min(runs[r + 1], left);
                System.arraycopy(packed, pos, buf, at + runs[r], n);
                pos += n;
                left -= n;
            }
        }
    }

    private static int[] toRuns(int[] disp) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < disp.length; ) {
            int j = i + 1;
            while (j < disp.length && disp[j] == disp[j - 1] + 1) {
                j++;
            }
            r.add(disp[i]);
            r.add(j - i);
            i = j;
        }
        return r.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The type map (for tests and diagnostics). */
    int[] displacements() {
        return Arrays.copyOf(disp, disp.length);
    }
}
