package mpi.programs;

import mpi.MPI;
import mpi.MPIException;

/** Init_thread(THREAD_MULTIPLE): several threads of each rank exchange messages at once, told apart by tag. */
public class Threads {

    public static void main(String[] args) throws Exception {
        int provided = MPI.Init_thread(args, MPI.THREAD_MULTIPLE);
        Check.equal(MPI.THREAD_MULTIPLE, provided, "provided thread level");
        int me = MPI.COMM_WORLD.Rank();
        int p = MPI.COMM_WORLD.Size();
        int right = (me + 1) % p;
        int left = (me + p - 1) % p;
        int threads = 4;
        Thread[] workers = new Thread[threads];
        Throwable[] failures = new Throwable[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        long[] got = new long[2];
                        MPI.COMM_WORLD.Sendrecv(new long[] {me, id * 1000L + round}, 0, 2, MPI.LONG, right, id,
                                got, 0, 2, MPI.LONG, left, id);
                        if (got[0] != left || got[1] != id * 1000L + round) {
                            throw new IllegalStateException("thread " + id + " round " + round + " got " + got[0] + "," + got[1]);
                        }
                    }
                    Check.that(!MPI.Is_thread_main(), "worker is not the main thread");
                } catch (Throwable e) {
                    failures[id] = e;
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        for (Throwable f : failures) {
            if (f != null) {
                throw new IllegalStateException("rank " + me + ": worker failed", f);
            }
        }
        MPI.COMM_WORLD.Barrier();
        MPI.Finalize();
    }
}
