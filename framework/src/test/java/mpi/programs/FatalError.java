package mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Under the default handler, ERRORS_ARE_FATAL, an error aborts the whole job: the last rank
 * sends to a rank that does not exist, inside a {@code catch (Exception e)} that would
 * swallow an ordinary exception, while every other rank waits in a receive that nothing
 * will match. The job must end, with a non-zero status and the error as its cause.
 */
public class FatalError {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        if (me == p - 1) {
            try {
                MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, p + 5, 0);
            } catch (Exception e) {
                // a program that swallows exceptions must still be stopped
            }
            System.out.println("went on after the error: the erroneous call returned");
            MPI.Finalize();
            return;
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 0);
        System.out.println("went on after the error: rank " + me + " received a message that nobody sent");
        MPI.Finalize();
    }
}
