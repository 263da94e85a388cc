package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A reduction operation: one of the built-ins ({@link MPI#SUM}, {@link MPI#MAX},
 * {@link MPI#MINLOC}, ...) or a user operation made from a {@link User_function}.
 *
 * <p>MINLOC and MAXLOC work on (value, index) pairs of one type, i.e. on the pair types
 * {@link MPI#INT2}, {@link MPI#DOUBLE2}, ...; ties keep the smaller index. Built-ins are not
 * defined for {@link MPI#OBJECT}; user operations are (objects are gathered and combined in
 * rank order).
 */
public class Op {

    final dev.tessera.comm.Op builtin;
    final User_function function;
    final boolean commute;

    Op(dev.tessera.comm.Op builtin) {
        this.builtin = builtin;
        this.function = null;
        this.commute = true;
    }

    /** A user operation; {@code commute} says whether operands may be combined in any order. */
    public Op(User_function function, boolean commute) throws MPIException {
        if (function == null) {
            throw new MPIException(MPI.ERR_OP, MPI.where("Op") + ": user function is null");
        }
        this.builtin = null;
        this.function = function;
        this.commute = commute;
    }

    /** True if the operation is commutative. */
    public boolean isCommutative() {
        return commute;
    }

    /** Marks the operation freed (nothing to release). */
    public void Free() throws MPIException {
    }

    /** The Tessera operation combining elements of {@code type}'s base type. */
    dev.tessera.comm.Op forType(Datatype type) {
        if (builtin != null) {
            return builtin;
        }
        return dev.tessera.comm.Op.create((in, inout, n, t) -> apply(in, inout, n, type), commute);
    }

    /** Runs the user function on segments of {@code n} packed base elements of {@code type}. */
    private void apply(MemorySegment in, MemorySegment inout, int n, Datatype type) {
        Object a = type.newArray(n);
        Object b = type.newArray(n);
        read(in, a, n, type);
        read(inout, b, n, type);
        combine(a, b, n, type);
        write(b, inout, n, type);
    }

    /**
     * inout = in op inout over {@code n} packed base elements (arrays of the base type). For
     * a non-contiguous datatype the items are first spread out at their extents, so that
     * the user function sees the layout it was written for.
     */
    void combine(Object in, Object inout, int n, Datatype type) {
        int size = type.size0();
        int items = size == 0 ? 0 : n / size;
        try {
            if (type.contiguous) {
                function.Call(in, 0, inout, 0, items, type);
                return;
            }
            int shift = Math.max(0, -type.minDisp());
            int span = shift + Math.max(0, items - 1) * type.Extent0() + type.maxDisp() + 1;
            Object a = type.newArray(span);
            Object b = type.newArray(span);
            type.unpack(in, 0, a, shift, n);
            type.unpack(inout, 0, b, shift, n);
            function.Call(a, shift, b, shift, items, type);
            System.arraycopy(type.pack(b, shift, items), 0, inout, 0, n);
        } catch (MPIException e) {
            throw new TesseraException(ErrorClass.OP, e.getMessage(), e);
        }
    }

    private static void read(MemorySegment s, Object array, int n, Datatype type) {
        if (array instanceof boolean[] z) {
            for (int i = 0; i < n; i++) {
                z[i] = s.get(ValueLayout.JAVA_BYTE, i) != 0;
            }
        } else {
            MemorySegment.copy(s, type.base.layout(), 0, array, 0, n);
        }
    }

    private static void write(Object array, MemorySegment s, int n, Datatype type) {
        if (array instanceof boolean[] z) {
            for (int i = 0; i < n; i++) {
                s.set(ValueLayout.JAVA_BYTE, i, z[i] ? (byte) 1 : (byte) 0);
            }
        } else {
            MemorySegment.copy(array, 0, s, type.base.layout(), 0, n);
        }
    }

    @Override
    public String toString() {
        return builtin != null ? "MPI." + builtin.name() : "Op[user, " + (commute ? "commutative" : "non-commutative") + "]";
    }
}
