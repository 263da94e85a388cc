package dev.tessera.examples;

import dev.tessera.comm.CartComm;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.AcceleratorSpec;
import dev.tessera.gpu.Accelerators;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.GridKernels;
import dev.tessera.gpu.IndexBox;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.comm.DeviceHaloExchange;
import dev.tessera.grid.BlockDecomposition;
import dev.tessera.grid.HaloExchange;
import dev.tessera.runtime.ProgramOptions;
import dev.tessera.runtime.Session;
import dev.tessera.runtime.Tessera;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Heat3D} with its stencil on an accelerator: one rank per device (CUDA, else
 * OpenCL, else the CPU backend; {@code --accel} chooses), the field in device memory, the
 * halos through the GPU-aware {@link DeviceHaloExchange}, and the interior update
 * overlapped with the exchange.
 *
 * <p>Same problem, grid, time step and update as Heat3D: u_t = Δu on the unit cube, u = 0
 * on the boundary, u(0) = sin(πx) sin(πy) sin(πz), exact solution exp(-3π²t) u(0), explicit
 * Euler with dt = h²/8 rounded to a whole number of steps, 7-point Laplacian. The kernel
 * ({@link GridKernels#laplaceStep}) evaluates the update in Heat3D's order with
 * floating-point contraction off, so on an IEEE device the field is bit for bit Heat3D's:
 * the two relative errors agree to 1e-12 (the stated tolerance; on PoCL they are equal).
 *
 * <p>One step, on two queues of the device:
 * <pre>
 *   compute queue:   interior(u -> next)  .........................  wait(ghosts) shell(u -> next)
 *   exchange queue:  wait(previous step) pack faces, copy to host | send/recv | copy to device, unpack
 * </pre>
 * The interior (cells whose stencil has no ghost) is enqueued first, then the exchange
 * starts; the shell (cells next to a face) waits for the ghosts. The host blocks only in
 * the exchange, while the device computes the interior.
 *
 * <p>Usage: {@code tessera run -np 2 -cp CP dev.tessera.examples.Heat3DGpu [-accel opencl|cuda|cpu[:i]] [-n N] [-t-end T]}
 * ({@code --help} lists the options; TESSERA_ACCEL, TESSERA_N, ... set them from the environment).
 */
public final class Heat3DGpu {

    private Heat3DGpu() {
    }

    /** What a run gives: the relative max error against the exact solution, steps and seconds in the time loop. */
    public record Result(double relativeError, int steps, double seconds, String accelerator) {
        public double secondsPerStep() {
            return seconds / steps;
        }
    }

    public static void main(String[] args) {
        try (Session session = Tessera.init(args)) {
            ProgramOptions options = ProgramOptions.of("Heat3DGpu",
                            "Hybrid 3D heat equation with its stencil on an accelerator, checked against the exact solution.")
                    .add("n", 32, "interior grid points per side (global)")
                    .add("t-end", 0.02, "simulated time")
                    .add("accel", "auto", "accelerator: auto, cuda, opencl or cpu, optionally :INDEX")
                    .add("overlap", true, "update the interior while the halos travel");
            if (!options.parse(session)) {
                return;
            }
            try (Accelerator acc = Accelerators.forRank(session, AcceleratorSpec.parse(options.getString("accel")))) {
                Result r = solve(session.world(), acc, options.getInt("n"), options.getDouble("t-end"), true,
                        options.getBoolean("overlap"));
                if (r.relativeError() > 0.01) {
                    throw new IllegalStateException("Heat3DGpu: relative error " + r.relativeError() + " above 1%");
                }
            }
        }
    }

    /** Solves on an n^3 interior grid up to tEnd on {@code acc}; every rank of {@code world} calls it. */
    public static Result solve(Comm world, Accelerator acc, int n, double tEnd, boolean report) {
        return solve(world, acc, n, tEnd, report, true);
    }

    /**
     * As {@link #solve(Comm, Accelerator, int, double, boolean)}; with {@code overlap} false
     * each step first completes the exchange and then updates every cell (the baseline the
     * benchmark compares the overlapped step with).
     */
    public static Result solve(Comm world, Accelerator acc, int n, double tEnd, boolean report, boolean overlap) {
        CartComm grid = world.createCart(3);
        BlockDecomposition block = BlockDecomposition.of(new int[] {n, n, n}, grid);
        int[] e = block.extent();
        int[] off = block.offset();
        double h = 1.0 / (n + 1);
        double dt = h * h / 8;
        int steps = (int) Math.ceil(tEnd / dt);
        dt = tEnd / steps;
        double r = dt / (h * h);
        try (DeviceHaloExchange halo = DeviceHaloExchange.create(grid, acc, e, 1, HaloExchange.Shape.FACES)) {
            int[] padded = halo.paddedExtents3();
            double[] initial = new double[halo.length()];
            for (int i = 1; i <= e[0]; i++) {
                for (int j = 1; j <= e[1]; j++) {
                    for (int k = 1; k <= e[2]; k++) {
                        initial[halo.index(i, j, k)] = initial(off, i, j, k, h);
                    }
                }
            }
            GridKernels kernels = acc.gridKernels();
            Queue compute = acc.defaultQueue();
            // The ghost layers of both fields start at 0: the boundary condition, which no exchange overwrites.
            DeviceBuffer u = acc.copyOf(initial);
            DeviceBuffer next = acc.copyOf(initial);
            IndexBox interior = IndexBox.of(2, e[0], 2, e[1], 2, e[2]);
            List<IndexBox> shell = shell(e);
            Event stepDone = compute.marker();
            world.barrier();
            double start = Session.wtime();
            for (int s = 0; s < steps; s++) {
                if (overlap) {
                    kernels.laplaceStep(compute, u, next, r, padded, interior);
                    DeviceHaloExchange.Pending pending = halo.begin(u, stepDone);
                    compute.waitFor(pending.finish());
                } else {
                    halo.exchange(u, stepDone);
                    kernels.laplaceStep(compute, u, next, r, padded, interior);
                }
                for (IndexBox b : shell) {
                    kernels.laplaceStep(compute, u, next, r, padded, b);
                }
                stepDone = compute.marker();
                DeviceBuffer t = u;
                u = next;
                next = t;
            }
            compute.finish();
            double seconds = Session.wtime() - start;
            double[] result = new double[halo.length()];
            compute.read(u, result);
            double decay = Math.exp(-3 * Math.PI * Math.PI * tEnd);
            double maxError = 0;
            for (int i = 1; i <= e[0]; i++) {
                for (int j = 1; j <= e[1]; j++) {
                    for (int k = 1; k <= e[2]; k++) {
                        maxError = Math.max(maxError,
                                Math.abs(result[halo.index(i, j, k)] - decay * initial(off, i, j, k, h)));
                    }
                }
            }
            double relative = world.allreduce(maxError, Op.MAX) / decay;
            double slowest = world.allreduce(seconds, Op.MAX);
            u.close();
            next.close();
            if (report && world.rank() == 0) {
                System.out.printf("Heat3DGpu: %d^3 grid, %d ranks, grid of ranks %s, accelerator %s%n", n, world.size(),
                        java.util.Arrays.toString(grid.dims()), acc.info().describe());
                System.out.printf("  steps            %d (dt %.3e, t %.3f)%n", steps, dt, tEnd);
                System.out.printf("  relative error   %.3e (limit 1.0e-02)%n", relative);
                System.out.printf("  time             %.3f s, %.3f ms per step (%.1f Mcell-updates/s)%n", slowest,
                        1e3 * slowest / steps, (double) n * n * n * steps / slowest / 1e6);
                System.out.println("  verification     " + (relative <= 0.01 ? "SUCCESSFUL" : "FAILED"));
            }
            return new Result(relative, steps, slowest, acc.backend().id() + ":" + acc.info().index());
        }
    }

    /**
     * The cells of the block [1, e] next to a face, as disjoint boxes: the two i-planes, then
     * the two j-slabs between them, then the two k-rows between those (one of a pair when
     * the extent is 1).
     */
    static List<IndexBox> shell(int[] e) {
        List<IndexBox> boxes = new ArrayList<>();
        int[] i = ends(e[0]);
        for (int x : i) {
            boxes.add(IndexBox.of(x, x + 1, 1, e[1] + 1, 1, e[2] + 1));
        }
        for (int y : ends(e[1])) {
            boxes.add(IndexBox.of(2, e[0], y, y + 1, 1, e[2] + 1));
        }
        for (int z : ends(e[2])) {
            boxes.add(IndexBox.of(2, e[0], 2, e[1], z, z + 1));
        }
        boxes.removeIf(IndexBox::isEmpty);
        return boxes;
    }

    private static int[] ends(int extent) {
        return extent == 1 ? new int[] {1} : new int[] {1, extent};
    }

    private static double initial(int[] off, int i, int j, int k, double h) {
        double x = (off[0] + i) * h;
        double y = (off[1] + j) * h;
        double z = (off[2] + k) * h;
        return Math.sin(Math.PI * x) * Math.sin(Math.PI * y) * Math.sin(Math.PI * z);
    }
}
