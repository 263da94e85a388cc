package dev.tessera.npbmz.sp;

import dev.tessera.npbmz.FlowZone;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.function.Consumer;

/**
 * One SP-MZ zone: the scalar penta-diagonal ADI solver of NPB SP on an nx x ny x nz grid
 * (the reference's adi.f and what it calls).
 *
 * <p>The fields, their layout, the initial state, the boundary faces and the verification
 * norms are {@link FlowZone}'s, shared with BT-MZ; this class adds the point field speed
 * (at {@code index(i, j, k)}, as the other point fields) and SP's time step.
 *
 * <p>A step ({@link #step}) is one region on the team in four phases separated by barriers,
 * each phase splitting its lines statically over the members:
 * <ol>
 *   <li>point values and rhs = forcing on every (j, k) line ({@link SpRhs#pointValues});</li>
 *   <li>per interior (j, k) line: the fluxes of compute_rhs, txinvr, the x solve and ninvr
 *       (the same member owns the line from the rhs to the solve, so no barrier is needed
 *       in between);</li>
 *   <li>per interior (i, k) line: the y solve and pinvr;</li>
 *   <li>per interior (i, j) line: the z solve, tzetar and the update of u.</li>
 * </ol>
 * The reference runs the same loops as eleven OpenMP loops with their barriers; the fused
 * phases give the same values (each element receives its terms in the same order) with three
 * barriers and one cache pass fewer per phase. Each member has its own {@link SpLineSolver}
 * scratch; nothing is allocated per step.
 */
final class SpZone extends FlowZone {

    final SpConstants c;
    final double[] speed;
    private SpLineSolver[] lineSolvers = new SpLineSolver[0];
    private final Consumer<TeamContext> stepRegion = ctx -> phases(ctx.id(), ctx.size(), ctx, true);
    private final Consumer<TeamContext> rhsRegion = ctx -> phases(ctx.id(), ctx.size(), ctx, false);

    SpZone(SpConstants constants, int nx, int ny, int nz) {
        super("SP-MZ", constants, nx, ny, nz);
        this.c = constants;
        speed = new double[nxmax * ny * nz];
    }

    /** Index of component 0 of point (i, j, k) in the five-component fields. */
    int q(int i, int j, int k) {
        return 5 * ((k * ny + j) * nxmax + i);
    }

    @Override
    public void initialize() {
        initializeFlow();
    }

    @Override
    public void step(Team team) {
        run(team, true);
    }

    private void run(Team team, boolean step) {
        int members = team.size();
        if (lineSolvers.length < members) {
            SpLineSolver[] more = java.util.Arrays.copyOf(lineSolvers, members);
            for (int m = lineSolvers.length; m < members; m++) {
                more[m] = new SpLineSolver(this);
            }
            lineSolvers = more;
        }
        if (members == 1) {
            phases(0, 1, null, step);
        } else {
            team.region(step ? stepRegion : rhsRegion);
        }
    }

    /** The step's phases (or, without {@code step}, compute_rhs alone) as member {@code id} of {@code n}. */
    private void phases(int id, int n, TeamContext ctx, boolean step) {
        SpLineSolver lines = lineSolvers[id];
        int all = ny * nz;
        SpRhs.pointValues(this, start(all, id, n), start(all, id + 1, n));
        barrier(ctx);
        int jk = (ny - 2) * (nz - 2);
        for (int x = start(jk, id, n), end = start(jk, id + 1, n); x < end; x++) {
            int j = 1 + x % (ny - 2);
            int k = 1 + x / (ny - 2);
            SpRhs.line(this, j, k, step);
            if (step) {
                lines.xLine(j, k);
            }
        }
        if (!step) {
            return;
        }
        barrier(ctx);
        int ik = (nx - 2) * (nz - 2);
        for (int x = start(ik, id, n), end = start(ik, id + 1, n); x < end; x++) {
            lines.yLine(1 + x % (nx - 2), 1 + x / (nx - 2));
        }
        barrier(ctx);
        int ij = (nx - 2) * (ny - 2);
        for (int x = start(ij, id, n), end = start(ij, id + 1, n); x < end; x++) {
            lines.zLine(1 + x % (nx - 2), 1 + x / (nx - 2));
        }
    }

    private static int start(int total, int id, int n) {
        return (int) ((long) total * id / n);
    }

    private static void barrier(TeamContext ctx) {
        if (ctx != null) {
            ctx.barrier();
        }
    }

    /** compute_rhs alone, over the team, for the residual norm. */
    @Override
    protected void computeRhs(Team team) {
        run(team, false);
    }
}
