package dev.tessera.bench.team;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import dev.tessera.grid.BlockDecomposition;
import dev.tessera.grid.HaloExchange;
import java.util.Arrays;

/**
 * Time per halo exchange of a global N^3 grid of doubles (ghost width 1, faces only),
 * decomposed over the job's ranks. Median of many exchanges after warm-up; printed by
 * rank 0. Usage: {@code tessera run -np 2 -cp ... dev.tessera.bench.team.HaloBench [N] [steps]}.
 */
public final class HaloBench {

    private HaloBench() {
    }

    public static void main(String[] args) {
        try (Session rt = Tessera.init(args)) {
            int n = rt.args().isEmpty() ? 256 : Integer.parseInt(rt.args().get(0));
            int steps = rt.args().size() > 1 ? Integer.parseInt(rt.args().get(1)) : 50;
            Comm world = rt.world();
            CartComm grid = world.createCart(CartComm.dimsCreate(world.size(), new int[3]), new boolean[3], false);
            BlockDecomposition block = BlockDecomposition.of(new int[] {n, n, n}, grid);
            HaloExchange halo = HaloExchange.create(grid, block.extent(), 1, HaloExchange.Shape.FACES);
            double[] field = new double[halo.length()];
            Arrays.fill(field, 1.0);
            double[] t = new double[steps];
            for (int s = -10; s < steps; s++) {
                world.barrier();
                double start = Session.wtime();
                halo.exchange(field);
                double dt = world.allreduce(Session.wtime() - start, Op.MAX);
                if (s >= 0) {
                    t[s] = dt;
                }
            }
            Arrays.sort(t);
            if (world.rank() == 0) {
                System.out.printf("halo exchange %d^3 doubles, %d ranks %s, local block %s: median %.1f us, best %.1f us per step%n",
                        n, world.size(), Arrays.toString(grid.dims()), Arrays.toString(block.extent()),
                        t[steps / 2] * 1e6, t[0] * 1e6);
            }
        }
    }
}
