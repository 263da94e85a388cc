package mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Rank 1 calls Abort(3) while the others wait for a message that never comes: the job must stop, naming rank 1. */
public class Aborter {

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        if (MPI.COMM_WORLD.Rank() == 1) {
            try {
                MPI.COMM_WORLD.Abort(3);
            } catch (Exception e) {
                // a program that swallows exceptions must still be aborted
            }
            throw new IllegalStateException("Abort returned");
        }
        MPI.COMM_WORLD.Recv(new int[1], 0, 1, MPI.INT, MPI.ANY_SOURCE, 0);
        MPI.Finalize();
    }
}
