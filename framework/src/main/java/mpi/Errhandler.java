package mpi;

/**
 * What a communicator does when one of its calls fails, as MPI's error handlers say
 * ({@link Comm#Errhandler_set}, {@link Comm#Errhandler_get}): one of the two predefined
 * handlers {@link MPI#ERRORS_ARE_FATAL} and {@link MPI#ERRORS_RETURN}.
 *
 * <p>In Java an error is always an exception; the handler decides what else happens:
 * <ul>
 *   <li>{@link MPI#ERRORS_ARE_FATAL} (the default of every communicator, as the MPI standard
 *       says): the error aborts the whole job, as {@code MPI_Abort} does. Every other rank's
 *       pending and next call fails naming this rank and the error; a rank that is its own
 *       process exits with the error class as its status; the calling rank is unwound by an
 *       {@link Error} carrying the {@link MPIException}, which {@code catch (Exception e)}
 *       does not swallow.</li>
 *   <li>{@link MPI#ERRORS_RETURN}: the call throws the {@link MPIException} and the job goes
 *       on; the program may catch it and continue.</li>
 * </ul>
 * New communicators (Dup, Split, Create, Create_cart, ...) inherit the handler of the one
 * they are made from. Errors of calls made on no communicator (datatype and group
 * arithmetic) use the handler of {@link MPI#COMM_WORLD}; errors found when completing a
 * request use the handler of the request's communicator.
 */
public class Errhandler {

    private final boolean fatal;
    private final String name;

    Errhandler(boolean fatal, String name) {
        this.fatal = fatal;
        this.name = name;
    }

    /** True for {@link MPI#ERRORS_ARE_FATAL}. */
    boolean isFatal() {
        return fatal;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Unwinds a rank whose error aborted the job under {@link MPI#ERRORS_ARE_FATAL}; the cause is the MPIException. */
    static final class FatalError extends Error {
        private static final long serialVersionUID = 1L;

        FatalError(MPIException cause) {
            super("MPI.ERRORS_ARE_FATAL: " + cause.getMessage(), cause);
        }
    }
}
