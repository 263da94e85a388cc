package dev.tessera.bench.p2p;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.runtime.Runtime;
import dev.tessera.runtime.Tessera;
import java.util.Arrays;

/**
 * Ping-pong latency and bandwidth between ranks 0 and 1 on any device, measured exactly
 * as bench/native/pingpong_mpi.c does: per size, ITER round trips, median of 5 repeats
 * after a warm-up repeat; prints "size half_round_trip_us bandwidth_MBps" on rank 0.
 * Run: {@code tessera run -np 2 --device shm -cp bench/target/classes dev.tessera.bench.p2p.PingPong}.
 */
public final class PingPong {

    private PingPong() {
    }

    public static void main(String[] args) {
        try (Runtime rt = Tessera.init(args)) {
            Comm world = rt.world();
            long[] sizes = {0, 8, 1024, 65536, 1 << 20, 4 << 20};
            byte[] data = new byte[4 << 20];
            for (long n : sizes) {
                Buffer b = Buffer.of(data, 0, (int) n);
                int iters = n >= (1 << 20) ? 100 : 10000;
                double[] t = new double[5];
                for (int rep = -3; rep < 5; rep++) {
                    world.barrier();
                    long start = System.nanoTime();
                    for (int i = 0; i < iters; i++) {
                        if (world.rank() == 0) {
                            world.send(b, 1, 0);
                            world.recv(b, 1, 0);
                        } else if (world.rank() == 1) {
                            world.recv(b, 0, 0);
                            world.send(b, 0, 0);
                        }
                    }
                    if (rep >= 0) {
                        t[rep] = (System.nanoTime() - start) / 1e9 / iters / 2;
                    }
                }
                Arrays.sort(t);
                if (world.rank() == 0) {
                    System.out.printf("%d %.3f %.1f%n", n, t[2] * 1e6, n > 0 ? n / t[2] / 1e6 : 0.0);
                }
            }
        }
    }
}
