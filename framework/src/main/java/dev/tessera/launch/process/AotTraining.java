package dev.tessera.launch.process;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.grid.HaloExchange;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;

/**
 * The rank program of the AOT training run ({@link AotCache}): what a typical
 * bulk-synchronous job does through the framework (start-up, a Cartesian grid, halo
 * exchanges of heap arrays, point-to-point messages of 8 B to 64 KiB, allreduce, bcast,
 * barrier, loops over the rank's team), repeated until the JIT has compiled the hot paths,
 * so that the JVM records the classes of the framework and the JDK that such a job loads
 * and links in the cache it writes when it exits (not its method profiles:
 * {@link AotCache#CONTENTS}).
 *
 * <p>Usage (started by the launcher, not by users):
 * {@code RankMain dev.tessera.launch.process.AotTraining [ROUNDS]}.
 */
public final class AotTraining {

    private AotTraining() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1500;
        try (Session session = Tessera.init(new String[0])) {
            Comm world = session.world();
            CartComm grid = world.createCart(3);
            int[] extent = {12, 12, 12};
            HaloExchange halo = HaloExchange.create(grid, extent, 1, HaloExchange.Shape.FACES);
            double[] field = new double[halo.length()];
            int right = (world.rank() + 1) % world.size();
            int left = (world.rank() + world.size() - 1) % world.size();
            int[] sizes = {1, 16, 128, 1024, 8192};
            double[] out = new double[sizes[sizes.length - 1]];
            double[] in = new double[out.length];
            double check = 0;
            Team team = session.team();
            double[] sums = new double[extent[0] + 2];
            for (int r = 0; r < rounds; r++) {
                // a loop over the team as a solver's stencil runs it (the cache then holds its classes
                // and lambda linkage: 6-30 ms of the first step of a job otherwise, stop 68)
                team.parallelForRange(1, extent[0] + 1, Schedule.STATIC, (from, to) -> {
                    for (int i = from; i < to; i++) {
                        sums[i] += field[halo.index(i, 1, 1)];
                    }
                });
                team.parallelFor(0, 4, Schedule.dynamic(1), i -> sums[i] += 1);
                field[halo.index(1, 1, 1)] = r;
                halo.begin(field).finish();
                int n = sizes[r % sizes.length];
                world.sendrecv(Buffer.of(out, 0, n), right, 1, Buffer.of(in, 0, n), left, 1);
                Request.waitAll(world.irecv(Buffer.of(in, 0, n), left, 2),
                        world.isend(Buffer.of(out, 0, n), right, 2));
                check += world.allreduce((double) r, Op.SUM);
                if (r % 16 == 0) {
                    world.bcast(Buffer.of(out, 0, 1 + r % 64), r % world.size());
                    world.barrier();
                }
            }
            if (check < 0 || sums[0] < 0) {
                System.out.println(check);   // keeps the loop's results alive
            }
        }
    }
}
