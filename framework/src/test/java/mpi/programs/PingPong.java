package mpi.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * A Java Grande-style ping-pong between ranks 0 and 1 (other ranks wait at the barrier):
 * messages of 0 to 2^16 doubles and of bytes, each echoed back and checked element by
 * element. Rank 0 prints round-trip latency and bandwidth; nothing is asserted about time.
 * Argument: repetitions per size (default 20).
 */
public class PingPong {

    public static void main(String[] args) throws MPIException {
        String[] rest = MPI.Init(args);
        int reps = rest.length > 0 ? Integer.parseInt(rest[0]) : 20;
        int me = MPI.COMM_WORLD.Rank();
        Check.that(MPI.COMM_WORLD.Size() >= 2, "PingPong needs 2 ranks");
        StringBuilder report = new StringBuilder();
        for (int n = 0; n <= 1 << 16; n = n == 0 ? 1 : n * 4) {
            double[] buf = new double[n];
            double start = MPI.Wtime();
            for (int r = 0; r < reps; r++) {
                if (me == 0) {
                    for (int i = 0; i < n; i++) {
                        buf[i] = r * 1e6 + i;
                    }
                    MPI.COMM_WORLD.Send(buf, 0, n, MPI.DOUBLE, 1, r);
                    Status st = MPI.COMM_WORLD.Recv(buf, 0, n, MPI.DOUBLE, 1, r);
                    Check.equal(n, st.Get_count(MPI.DOUBLE), "echo length");
                    for (int i = 0; i < n; i++) {
                        if (buf[i] != -(r * 1e6 + i)) {
                            Check.that(false, "echo of " + n + " doubles, element " + i + ": " + buf[i]);
                        }
                    }
                } else if (me == 1) {
                    MPI.COMM_WORLD.Recv(buf, 0, n, MPI.DOUBLE, 0, r);
                    for (int i = 0; i < n; i++) {
                        buf[i] = -buf[i];
                    }
                    MPI.COMM_WORLD.Send(buf, 0, n, MPI.DOUBLE, 0, r);
                }
            }
            double perRoundTrip = (MPI.Wtime() - start) / reps;
            if (me == 0) {
                report.append(String.format("  %7d doubles: %9.2f us round trip, %9.2f MB/s%n", n, perRoundTrip * 1e6,
                        n == 0 ? 0.0 : 2.0 * n * 8 / perRoundTrip / 1e6));
            }
        }
        byte[] bytes = new byte[1000];
        if (me == 0) {
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) i;
            }
            MPI.COMM_WORLD.Ssend(bytes, 0, bytes.length, MPI.BYTE, 1, 0);
            MPI.COMM_WORLD.Recv(bytes, 0, bytes.length, MPI.BYTE, 1, 0);
            for (int i = 0; i < bytes.length; i++) {
                Check.equal((byte) (i + 1), bytes[i], "byte echo");
            }
        } else if (me == 1) {
            MPI.COMM_WORLD.Recv(bytes, 0, bytes.length, MPI.BYTE, 0, 0);
            for (int i = 0; i < bytes.length; i++) {
                bytes[i]++;
            }
            MPI.COMM_WORLD.Ssend(bytes, 0, bytes.length, MPI.BYTE, 0, 0);
        }
        MPI.COMM_WORLD.Barrier();
        if (me == 0) {
            System.out.print("PingPong ok (" + reps + " repetitions)\n" + report);
        }
        MPI.Finalize();
    }
}
