package dev.tessera.npbmz.bt;

import dev.tessera.npbmz.FlowZone;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.util.Arrays;

/**
 * One zone of BT-MZ: the BT solver (the reference's adi.f: compute_rhs, x_solve, y_solve,
 * z_solve, add) on a zone's own nx x ny x nz grid.
 *
 * <p>The fields, their layout, the initial state, the boundary faces and the verification
 * norms are {@link FlowZone}'s, shared with SP-MZ; this class adds BT's time step.
 *
 * <p>One step (one ADI iteration) is one team region of four worksharing loops, each ending
 * in a barrier:
 * <ol>
 * <li>primitive variables for every point, over the collapsed (k, j) rows;</li>
 * <li>for each interior row (j, k): its right-hand side, then its xi line solve (the row is
 *     the line, so the same thread solves the row it just computed, while it is in cache);</li>
 * <li>the eta line solves over the collapsed (k, i) lines;</li>
 * <li>the zeta line solves over the collapsed (j, i) lines, each followed by the update of
 *     u on its own points (the reference's add).</li>
 * </ol>
 * The loops are shared with the static schedule over the same collapsed ranges as the
 * reference's {@code COLLAPSE(2)} OpenMP loops. Each member uses its own {@link BtLineSolver}
 * scratch, allocated when a team larger than any before first calls {@link #step}.
 */
final class BtZone extends FlowZone {

    /** Points in one k plane, nxmax * ny. */
    final int plane;
    final BtConstants c;
    private BtLineSolver[] solvers = new BtLineSolver[0];

    BtZone(MzProblem problem, int nx, int ny, int nz) {
        this(new BtConstants(problem), nx, ny, nz);
    }

    private BtZone(BtConstants c, int nx, int ny, int nz) {
        super("BT-MZ", c, nx, ny, nz);
        this.c = c;
        this.plane = nxmax * ny;
    }

    @Override
    public void initialize() {
        initializeFlow();
        Arrays.fill(rhs, 0.0);
    }

    @Override
    public void step(Team team) {
        BtLineSolver[] s = solversFor(team.size());
        team.region(ctx -> adi(ctx, s[ctx.id()]));
    }

    private void adi(TeamContext ctx, BtLineSolver solver) {
        int rows = ny - 2, lines = nx - 2;
        ctx.parallelForRange(0, nz * ny, Schedule.STATIC, (from, to) -> BtRhs.primitives(this, from, to));
        ctx.parallelForRange(0, (nz - 2) * rows, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                int k = 1 + r / rows, j = 1 + r % rows;
                BtRhs.row(this, j, k);
                solver.solveX(this, j, k);
            }
        });
        ctx.parallelForRange(0, (nz - 2) * lines, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                solver.solveY(this, 1 + r % lines, 1 + r / lines);
            }
        });
        ctx.parallelForRange(0, (ny - 2) * lines, Schedule.STATIC, (from, to) -> {
            for (int r = from; r < to; r++) {
                solver.solveZAndAdd(this, 1 + r % lines, 1 + r / lines);
            }
        });
    }

    private BtLineSolver[] solversFor(int members) {
        if (solvers.length < members) {
            BtLineSolver[] grown = Arrays.copyOf(solvers, members);
            int n = Math.max(nx, Math.max(ny, nz));
            for (int m = solvers.length; m < members; m++) {
                grown[m] = new BtLineSolver(n);
            }
            solvers = grown;
        }
        return solvers;
    }

    /** compute_rhs over the team, for the residual norm. */
    @Override
    protected void computeRhs(Team team) {
        team.region(ctx -> {
            ctx.parallelForRange(0, nz * ny, Schedule.STATIC, (from, to) -> BtRhs.primitives(this, from, to));
            ctx.parallelForRange(0, (nz - 2) * (ny - 2), Schedule.STATIC, (from, to) -> {
                for (int r = from; r < to; r++) {
                    BtRhs.row(this, 1 + r % (ny - 2), 1 + r / (ny - 2));
                }
            });
        });
    }
}
