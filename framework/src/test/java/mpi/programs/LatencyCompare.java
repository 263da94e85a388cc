package mpi.programs;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;

/**
 * Measurement helper (not run by the tests): 8-byte ping-pong between ranks 0 and 1
 * (with one rank: a send to itself and its receive), through Tessera's own API ("raw")
 * or through mpi.* ("mpi"); prints the median time per round trip of 5 batches.
 * Arguments: raw|mpi, round trips per batch.
 */
public class LatencyCompare {

    public static void main(String[] args) throws Exception {
        boolean raw = args.length > 0 && args[args.length - 2].equals("raw");
        int reps = Integer.parseInt(args[args.length - 1]);
        double[] batch = new double[5];
        double[] buf = new double[1];
        if (raw) {
            try (Session rt = Tessera.init(args)) {
                Comm w = rt.world();
                for (int b = 0; b < batch.length; b++) {
                    double t0 = Session.wtime();
                    for (int r = 0; r < reps; r++) {
                        if (rt.size() == 1) {
                            dev.tessera.comm.Request q = w.isend(Buffer.of(buf), 0, 0);
                            w.recv(Buffer.of(buf), 0, 0);
                            q.await();
                        } else if (rt.rank() == 0) {
                            w.send(Buffer.of(buf), 1, 0);
                            w.recv(Buffer.of(buf), 1, 0);
                        } else {
                            w.recv(Buffer.of(buf), 0, 0);
                            w.send(Buffer.of(buf), 0, 0);
                        }
                    }
                    batch[b] = (Session.wtime() - t0) / reps;
                }
                report("Tessera API", rt.rank(), batch);
            }
        } else {
            mpi.MPI.Init(args);
            int me = mpi.MPI.COMM_WORLD.Rank();
            for (int b = 0; b < batch.length; b++) {
                double t0 = mpi.MPI.Wtime();
                for (int r = 0; r < reps; r++) {
                    if (mpi.MPI.COMM_WORLD.Size() == 1) {
                        mpi.Request q = mpi.MPI.COMM_WORLD.Isend(buf, 0, 1, mpi.MPI.DOUBLE, 0, 0);
                        mpi.MPI.COMM_WORLD.Recv(buf, 0, 1, mpi.MPI.DOUBLE, 0, 0);
                        q.Wait();
                    } else if (me == 0) {
                        mpi.MPI.COMM_WORLD.Send(buf, 0, 1, mpi.MPI.DOUBLE, 1, 0);
                        mpi.MPI.COMM_WORLD.Recv(buf, 0, 1, mpi.MPI.DOUBLE, 1, 0);
                    } else {
                        mpi.MPI.COMM_WORLD.Recv(buf, 0, 1, mpi.MPI.DOUBLE, 0, 0);
                        mpi.MPI.COMM_WORLD.Send(buf, 0, 1, mpi.MPI.DOUBLE, 0, 0);
                    }
                }
                batch[b] = (mpi.MPI.Wtime() - t0) / reps;
            }
            report("mpi.* facade", me, batch);
            mpi.MPI.Finalize();
        }
    }

    private static void report(String what, int rank, double[] batch) {
        if (rank == 0) {
            double[] s = batch.clone();
            java.util.Arrays.sort(s);
            System.out.printf("%s: 8 B round trip median %.2f us (batches %s)%n", what, s[s.length / 2] * 1e6,
                    java.util.Arrays.toString(java.util.Arrays.stream(batch).map(x -> Math.round(x * 1e8) / 100.0).toArray()));
        }
    }
}
