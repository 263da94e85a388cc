package dev.tessera.comm;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.function.DoubleBinaryOperator;
import java.util.function.IntBinaryOperator;
import java.util.function.LongBinaryOperator;

/**
 * A reduction operation: {@code inout[i] = in[i] op inout[i]}, where {@code in} holds the
 * contribution of the lower-ranked processes. Built-ins are MPI's; user operations are
 * either element-wise lambdas ({@link #ofDoubles}, {@link #ofLongs}, {@link #ofInts}) or
 * whole-vector functions ({@link #create}). Non-commutative operations are applied in
 * rank order by every reduction algorithm.
 *
 * <p>MINLOC and MAXLOC work, as in mpiJava, on pairs of one type: a buffer of 2n elements
 * holds n (value, index) pairs; ties keep the smaller index.
 */
public final class Op {

    /** A whole-vector user function: combine {@code count} elements of {@code in} into {@code inout}. */
    @FunctionalInterface
    public interface UserFunction {
        void apply(MemorySegment in, MemorySegment inout, int count, Datatype type);
    }

    private enum Kind { SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR, MINLOC, MAXLOC, USER }

    public static final Op SUM = new Op(Kind.SUM);
    public static final Op PROD = new Op(Kind.PROD);
    public static final Op MIN = new Op(Kind.MIN);
    public static final Op MAX = new Op(Kind.MAX);
    public static final Op LAND = new Op(Kind.LAND);
    public static final Op LOR = new Op(Kind.LOR);
    public static final Op LXOR = new Op(Kind.LXOR);
    public static final Op BAND = new Op(Kind.BAND);
    public static final Op BOR = new Op(Kind.BOR);
    public static final Op BXOR = new Op(Kind.BXOR);
    public static final Op MINLOC = new Op(Kind.MINLOC);
    public static final Op MAXLOC = new Op(Kind.MAXLOC);

    private final Kind kind;
    private final UserFunction user;
    private final boolean commutative;
    private final String name;

    private Op(Kind kind) {
        this.kind = kind;
        this.user = null;
        this.commutative = true;
        this.name = kind.name();
    }

    private Op(UserFunction user, boolean commutative, String name) {
        this.kind = Kind.USER;
        this.user = user;
        this.commutative = commutative;
        this.name = name;
    }

    /** This operation's code in a collective signature ({@link CollectiveCheck}): its kind (user operations share one). */
    int checkCode() {
        return kind.ordinal();
    }

    /** The name of a signature's operation code. */
    static String checkName(int code) {
        return code >= 0 && code < Kind.values().length ? Kind.values()[code].name() : "none";
    }

    /** The {@link dev.tessera.device.WireCodes} code of a built-in operation a library can run, or OP_NONE (MINLOC, MAXLOC, user). */
    int nativeCode() {
        return switch (kind) {
            case SUM -> dev.tessera.device.WireCodes.OP_SUM;
            case PROD -> dev.tessera.device.WireCodes.OP_PROD;
            case MIN -> dev.tessera.device.WireCodes.OP_MIN;
            case MAX -> dev.tessera.device.WireCodes.OP_MAX;
            case LAND -> dev.tessera.device.WireCodes.OP_LAND;
            case LOR -> dev.tessera.device.WireCodes.OP_LOR;
            case LXOR -> dev.tessera.device.WireCodes.OP_LXOR;
            case BAND -> dev.tessera.device.WireCodes.OP_BAND;
            case BOR -> dev.tessera.device.WireCodes.OP_BOR;
            case BXOR -> dev.tessera.device.WireCodes.OP_BXOR;
            case MINLOC, MAXLOC, USER -> dev.tessera.device.WireCodes.OP_NONE;
        };
    }

    /** A user operation over whole vectors. */
    public static Op create(UserFunction function, boolean commutative) {
        Objects.requireNonNull(function, "user function");
        return new Op(function, commutative, "user");
    }

    /** An element-wise user operation on doubles: {@code f(in, inout)}. */
    public static Op ofDoubles(DoubleBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "operator");
        return new Op((in, io, n, t) -> {
            requireType(t, Datatype.DOUBLE);
            for (int i = 0; i < n; i++) {
                io.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, f.applyAsDouble(
                        in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i), io.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i)));
            }
        }, commutative, "user(double)");
    }

    /** An element-wise user operation on longs. */
    public static Op ofLongs(LongBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "operator");
        return new Op((in, io, n, t) -> {
            requireType(t, Datatype.LONG);
            for (int i = 0; i < n; i++) {
                io.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, f.applyAsLong(
                        in.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i), io.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i)));
            }
        }, commutative, "user(long)");
    }

    /** An element-wise user operation on ints. */
    public static Op ofInts(IntBinaryOperator f, boolean commutative) {
        Objects.requireNonNull(f, "operator");
        return new Op((in, io, n, t) -> {
            requireType(t, Datatype.INT);
            for (int i = 0; i < n; i++) {
                io.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, f.applyAsInt(
                        in.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i), io.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i)));
            }
        }, commutative, "user(int)");
    }

    private static void requireType(Datatype actual, Datatype expected) {
        if (actual != expected) {
            throw new TesseraException(ErrorClass.OP, "user operation on " + expected + " applied to " + actual + " elements");
        }
    }

    public boolean isCommutative() {
        return commutative;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Checks that this operation is defined for {@code type}; throws a clear error, naming
     * the rank and {@code call}, if not. The message is built only then: this runs on every
     * reduction.
     */
    void validate(Datatype type, int count, Comm comm, String call) {
        boolean ok = switch (kind) {
            case USER -> type != Datatype.OBJECT;
            case SUM, PROD, MIN, MAX -> type != Datatype.BOOLEAN && type != Datatype.OBJECT;
            case LAND, LOR, LXOR -> type != Datatype.OBJECT && type != Datatype.FLOAT && type != Datatype.DOUBLE;
            case BAND, BOR, BXOR -> type == Datatype.BYTE || type == Datatype.SHORT || type == Datatype.CHAR
                    || type == Datatype.INT || type == Datatype.LONG || type == Datatype.BOOLEAN;
            case MINLOC, MAXLOC -> type != Datatype.BOOLEAN && type != Datatype.OBJECT && type != Datatype.CHAR;
        };
        if (!ok) {
            throw new TesseraException(ErrorClass.OP, comm.where(call) + ": operation " + name + " is not defined for "
                    + type + " elements");
        }
        if ((kind == Kind.MINLOC || kind == Kind.MAXLOC) && count % 2 != 0) {
            throw new TesseraException(ErrorClass.COUNT, comm.where(call) + ": " + name + " needs (value, index) pairs; count "
                    + count + " is odd");
        }
    }

    /**
     * Whether {@code a op b} equals {@code b op a} element by element for every input (the
     * built-in operations but MINLOC and MAXLOC, whose ties and NaNs favour one side): two
     * ranks may then combine in opposite orders and still agree.
     */
    boolean symmetric() {
        return kind != Kind.USER && kind != Kind.MINLOC && kind != Kind.MAXLOC;
    }

    /**
     * Whether {@link ReduceKernels#foldFrom} folds one element of {@code type} (doubles, floats: SUM, PROD, MIN, MAX;
     * longs, ints: every built-in but MINLOC and MAXLOC) with
     * the bits {@link #apply} gives: what a small vector's scalar fold needs ({@code NodeCollectives#foldLine}).
     */
    boolean foldsScalar(Datatype type) {
        return switch (type) {
            case DOUBLE, FLOAT -> kind == Kind.SUM || kind == Kind.PROD || kind == Kind.MIN || kind == Kind.MAX;
            case LONG, INT -> kind != Kind.USER && kind != Kind.MINLOC && kind != Kind.MAXLOC;
            default -> false;
        };
    }

    /** A built-in operation: element by element (pairs for MINLOC and MAXLOC), so a vector may be cut anywhere even. */
    boolean builtIn() {
        return kind != Kind.USER;
    }

    /**
     * {@code out[i] = in[i] op own[i]} for {@code count} elements of {@code type} in one pass, where a kernel
     * for it exists (SUM of doubles and floats): true if done, false if the caller must copy {@code own} into
     * {@code out} and {@link #apply} instead. The same operands in the same order as that, so the same bits.
     */
    boolean applyInto(MemorySegment in, MemorySegment own, MemorySegment out, int count, Datatype type) {
        if (kind != Kind.SUM) {
            return false;
        }
        return switch (type) {
            case DOUBLE -> {
                ReduceKernels.sumDoublesInto(in, own, out, count);
                yield true;
            }
            case FLOAT -> {
                ReduceKernels.sumFloatsInto(in, own, out, count);
                yield true;
            }
            default -> false;
        };
    }

    /** {@code inout[i] = in[i] op inout[i]} for {@code count} elements of {@code type}. */
    void apply(MemorySegment in, MemorySegment inout, int count, Datatype type) {
        if (kind == Kind.USER) {
            user.apply(in, inout, count, type);
            return;
        }
        switch (type) {
            case DOUBLE -> ReduceKernels.doubles(kind.ordinal(), in, inout, count);
            case FLOAT -> ReduceKernels.floats(kind.ordinal(), in, inout, count);
            case LONG -> ReduceKernels.longs(kind.ordinal(), in, inout, count);
            case INT -> ReduceKernels.ints(kind.ordinal(), in, inout, count);
            case SHORT -> ReduceKernels.shorts(kind.ordinal(), in, inout, count);
            case CHAR -> ReduceKernels.chars(kind.ordinal(), in, inout, count);
            case BYTE, BOOLEAN -> ReduceKernels.bytes(kind.ordinal(), in, inout, count);
            case OBJECT -> throw new TesseraException(ErrorClass.OP, "reductions on OBJECT buffers are not defined");
        }
    }
}
