package mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Every rank has its own MPI.COMM_WORLD and its own statics; Init returns the program's arguments. */
public class RankIdentity {

    static int inits;

    public static void main(String[] args) throws MPIException {
        String[] rest = MPI.Init(args);
        inits++;
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        int[] all = new int[p];
        MPI.COMM_WORLD.Allgather(new int[] {me}, 0, 1, MPI.INT, all, 0, 1, MPI.INT);
        for (int i = 0; i < p; i++) {
            Check.equal(i, all[i], "rank reported by process " + i);
        }
        int[] total = new int[1];
        MPI.COMM_WORLD.Allreduce(new int[] {inits}, 0, total, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(p, total[0], "one Init per rank (statics are per rank)");
        Check.that(MPI.Initialized() && !MPI.Finalized(), "Initialized");
        Check.that(MPI.Is_thread_main(), "Is_thread_main");
        Check.that(MPI.Get_processor_name() != null && MPI.Wtick() > 0, "processor name, Wtick");
        double t0 = MPI.Wtime();
        Check.that(MPI.Wtime() >= t0, "Wtime monotonic");
        String expected = String.join(",", args).replaceFirst("^--threads,\\d+,?", "");
        Check.equal(expected, String.join(",", rest), "Init returns the program arguments without Tessera's options");
        Check.equal(1, MPI.COMM_SELF.Size(), "COMM_SELF size");
        MPI.Finalize();
        Check.that(MPI.Finalized(), "Finalized");
        if (me == 0) {
            System.out.println("RankIdentity ok " + p);
        }
    }
}
