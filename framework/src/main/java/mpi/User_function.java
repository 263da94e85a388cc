package mpi;

/**
 * A user-defined reduction, as in mpiJava 1.2: subclass it, implement {@link #Call}, and
 * make an operation with {@code new Op(function, commute)}.
 *
 * <p>{@code Call} must combine {@code count} items of {@code datatype}: for each item,
 * {@code inoutvec = invec op inoutvec}, where {@code invec} holds the contribution of
 * lower-ranked processes. Both arrays are of the datatype's base type ({@code double[]},
 * ..., {@code Object[]} for {@link MPI#OBJECT}); items start at the given offsets and are
 * {@code datatype.Extent()} elements apart.
 */
public abstract class User_function {

    /** For subclasses. */
    protected User_function() {
    }

    /** Combines {@code count} items of {@code invec} into {@code inoutvec}. */
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype)
            throws MPIException;
}
