package mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;

/**
 * The checked exception every {@code mpi.*} call declares, as in mpiJava 1.2 and MPJ Express.
 * It carries an MPI error class ({@link #getErrorClass()}, one of the {@code MPI.ERR_*}
 * constants) and a message naming the rank, the call and the bad argument, e.g.
 * {@code "rank 2: Send: count -1 is negative"}. Errors raised by the Tessera runtime
 * underneath keep their message and are attached as the cause.
 */
public class MPIException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int errorClass;

    /** An error of class {@link MPI#ERR_OTHER}. */
    public MPIException(String message) {
        this(MPI.ERR_OTHER, message);
    }

    /** An error of class {@link MPI#ERR_OTHER} caused by {@code cause}. */
    public MPIException(Throwable cause) {
        super(cause == null ? null : cause.getMessage(), cause);
        this.errorClass = cause instanceof TesseraException te ? classOf(te.errorClass()) : MPI.ERR_OTHER;
    }

    /** An error of the given class ({@code MPI.ERR_*}). */
    public MPIException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    private MPIException(int errorClass, String message, Throwable cause) {
        super(message, cause);
        this.errorClass = errorClass;
    }

    /** The MPI error class of this error: one of the {@code MPI.ERR_*} constants. */
    public int getErrorClass() {
        return errorClass;
    }

    /** Same as {@link #getErrorClass()}, in mpiJava's naming style. */
    public int Get_error_class() {
        return errorClass;
    }

    /** The facade's exception for an unchecked error raised underneath (same message, cause kept). */
    static MPIException of(RuntimeException e) {
        if (e instanceof TesseraException te) {
            return new MPIException(classOf(te.errorClass()), withRank(te.getMessage()), te);
        }
        return new MPIException(MPI.ERR_ARG, withRank(e.toString()), e);
    }

    /** Messages of calls that do not know the rank (group and datatype arithmetic) get it prefixed. */
    private static String withRank(String message) {
        return message != null && message.startsWith("rank ") ? message : MPI.where("") + message;
    }

    static int classOf(ErrorClass c) {
        return switch (c) {
            case BUFFER -> MPI.ERR_BUFFER;
            case COUNT -> MPI.ERR_COUNT;
            case TYPE -> MPI.ERR_TYPE;
            case TAG -> MPI.ERR_TAG;
            case COMM -> MPI.ERR_COMM;
            case RANK -> MPI.ERR_RANK;
            case ROOT -> MPI.ERR_ROOT;
            case GROUP -> MPI.ERR_GROUP;
            case OP -> MPI.ERR_OP;
            case TOPOLOGY -> MPI.ERR_TOPOLOGY;
            case DIMS -> MPI.ERR_DIMS;
            case ARG -> MPI.ERR_ARG;
            case TRUNCATE -> MPI.ERR_TRUNCATE;
            case REQUEST -> MPI.ERR_REQUEST;
            case PROC_FAILED -> MPI.ERR_PROC_FAILED;
            case OTHER -> MPI.ERR_OTHER;
            case INTERN -> MPI.ERR_INTERN;
        };
    }
}
