package dev.tessera.npbmz;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.grid.ZoneBalancer;
import dev.tessera.runtime.Session;
import dev.tessera.task.Team;
import dev.tessera.task.TeamContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The multi-zone driver, one instance per rank: what the reference's main programs
 * (NPB3.4-MZ-MPI/SP-MZ/sp.f, bt.f, lu.f) do around the zone solvers.
 *
 * <ol>
 *   <li>zone_setup ({@link ZoneLayout}) and map_zones ({@link ZoneMapping}): every rank computes
 *       the same mapping from the zone sizes and the thread counts the ranks were started with;</li>
 *   <li>every zone of this rank is created and initialized;</li>
 *   <li>one untimed step (exchange + step of every zone) touches all code, then the zones are
 *       initialized again, as the reference does;</li>
 *   <li>the timed loop: before every step the boundary exchange ({@link BoundaryExchange}),
 *       then one step of every zone of the rank;</li>
 *   <li>verification: the zones' norms are summed over zones and ranks, the time is the
 *       maximum over ranks; the benchmark compares the norms with the reference values.</li>
 * </ol>
 *
 * <p>Threads: by default each zone's solver spreads its loops over the rank's team (the
 * reference's OpenMP loops inside a zone). With {@link Settings#zoneThreads} the team's threads
 * take whole zones instead (the outer level of the reference's nested OpenMP version): zones
 * are balanced over the threads like zones over ranks and each is solved serially by its
 * thread, which saves a fork/join per loop when a rank holds several zones per thread.
 */
public final class MzDriver {

    /**
     * How to run.
     *
     * @param iterations     time steps to run, or 0 for the class's (other values fail verification)
     * @param balanceThreads redistribute the job's threads over ranks in proportion to load (reference default)
     * @param zoneThreads    threads over zones instead of inside zones
     * @param verbose        print the zone-to-rank table (the reference's NPB_VERBOSE > 0)
     * @param out            where rank 0 prints the banner, mapping, steps and verification; null for none
     * @param progress       where rank 0 prints a progress line on long runs; null for none
     */
    public record Settings(int iterations, boolean balanceThreads, boolean zoneThreads, boolean verbose,
            PrintStream out, PrintStream progress) {

        /** Class defaults, threads inside zones, balanced threads, nothing printed. */
        public static Settings quiet() {
            return new Settings(0, true, false, false, null, null);
        }
    }

    private MzDriver() {
    }

    /** Runs {@code bench} on {@code problem} on every rank of {@code session}; returns the same result on every rank. */
    public static MzResult run(Session session, ZoneBenchmark bench, MzProblem problem, Settings settings) {
        Comm world = session.world();
        int rank = world.rank();
        int ranks = world.size();
        if (settings.iterations() < 0) {
            throw new IllegalArgumentException("rank " + rank + ": " + bench.name() + ": iterations must be >= 0, got "
                    + settings.iterations());
        }
        MzProblem p = settings.iterations() > 0
                ? new MzProblem(problem.problemClass(), problem.gx(), problem.gy(), problem.gz(), problem.xZones(),
                        problem.yZones(), settings.iterations(), problem.dt())
                : problem;
        ZoneLayout layout = ZoneLayout.of(p, bench.zoneRatio(p));
        int[] started = new int[ranks];
        world.allgather(Buffer.of(new int[] {session.threads()}), Buffer.of(started));
        ZoneMapping mapping = ZoneMapping.map(layout, ranks, started, settings.balanceThreads());
        PrintStream out = rank == 0 ? settings.out() : null;
        if (out != null) {
            MzReport.printHeader(out, bench.name(), p, ranks, mapping.totalThreads());
            if (ranks > layout.zones()) {
                out.printf(Locale.ROOT, " Warning: %d ranks for %d zones: %d ranks have no zone%n", ranks,
                        layout.zones(), ranks - layout.zones());
            }
            mapping.print(out, settings.verbose());
        }
        int myThreads = mapping.threads(rank);
        boolean ownTeam = myThreads != session.threads();
        Team team = ownTeam ? Team.create(myThreads) : session.team();
        List<Team> extraTeams = new ArrayList<>();
        BoundaryExchange exchange = null;
        try {
            int[] mine = mapping.zonesOf(rank);
            ZoneSolver[] solvers = new ZoneSolver[layout.zones()];
            for (int z : mine) {
                solvers[z] = bench.newZone(p, layout.nx(z), layout.ny(z), layout.nz(z));
                solvers[z].initialize();
            }
            exchange = new BoundaryExchange(world, mapping, solvers);
            Runnable stepAll = settings.zoneThreads() && team.size() > 1
                    ? zonesOverThreads(team, layout, mine, solvers, extraTeams)
                    : () -> {
                        for (int z : mine) {
                            solvers[z].step(team);
                        }
                    };

            // One step to touch all code (and let the JIT see it), then start again (sp.f, bt.f, lu.f).
            exchange.exchange(team);
            stepAll.run();
            for (int z : mine) {
                solvers[z].initialize();
            }

            world.barrier();
            ProgressLine progress = new ProgressLine(rank == 0 ? settings.progress() : null,
                    bench.name() + " class " + p.problemClass(), p.iterations());
            double start = Session.wtime();
            for (int step = 1; step <= p.iterations(); step++) {
                if (out != null && (step % 20 == 0 || step == 1)) {
                    out.printf(Locale.ROOT, " Time step %4d%n", step);
                }
                exchange.exchange(team);
                stepAll.run();
                progress.step(step);
            }
            double seconds = world.allreduce(Session.wtime() - start, Op.MAX);
            progress.done();

            double[] norms = sumNorms(world, mine, solvers, team);
            ZoneBenchmark.Verification v = bench.verify(p, norms);
            int[] verified = {v.verified() ? 1 : 0};
            world.bcast(Buffer.of(verified), 0);
            if (out != null) {
                out.print(v.detail().endsWith("\n") || v.detail().isEmpty() ? v.detail() : v.detail() + "\n");
            }
            return new MzResult(bench.name(), p, ranks, mapping.totalThreads(), seconds, bench.mops(p, seconds),
                    verified[0] == 1, v.detail(), norms, mapping.imbalance(), mapping.calculatedSpeedup(),
                    session.deviceName(), settings.zoneThreads() && team.size() > 1);
        } finally {
            if (exchange != null) {
                exchange.close();
            }
            for (Team t : extraTeams) {
                t.close();
            }
            if (ownTeam) {
                team.close();
            }
        }
    }

    /**
     * The zones' verification quantities summed over all zones in zone order, whatever the
     * mapping: every zone's values travel in a slot of their own (the allreduce adds zeros to
     * them), so the sum, and the verification, are bit-identical on every layout.
     */
    private static double[] sumNorms(Comm world, int[] mine, ZoneSolver[] solvers, Team team) {
        double[][] perZone = new double[mine.length][];
        int length = 0;
        for (int i = 0; i < mine.length; i++) {
            perZone[i] = solvers[mine[i]].verificationNorms(team);
            length = Math.max(length, perZone[i].length);
        }
        // A rank without zones learns the length from the others.
        length = world.allreduce(length, Op.MAX);
        double[] slots = new double[solvers.length * length];
        for (int i = 0; i < mine.length; i++) {
            if (perZone[i].length != length) {
                throw new IllegalStateException("rank " + world.rank() + ": zones returned " + perZone[i].length
                        + " and " + length + " verification norms");
            }
            System.arraycopy(perZone[i], 0, slots, mine[i] * length, length);
        }
        world.allreduce(Buffer.of(slots), Op.SUM);
        double[] sum = new double[length];
        for (int z = 0; z < solvers.length; z++) {
            for (int m = 0; m < length; m++) {
                sum[m] += slots[z * length + m];
            }
        }
        return sum;
    }

    /**
     * A step of every zone with the team's threads over zones: the rank's zones are balanced
     * over the members (largest first), and each member steps its zones with a team of one.
     */
    private static Runnable zonesOverThreads(Team team, ZoneLayout layout, int[] mine, ZoneSolver[] solvers,
            List<Team> extraTeams) {
        List<ZoneBalancer.Zone> zones = new ArrayList<>();
        for (int i = 0; i < mine.length; i++) {
            zones.add(new ZoneBalancer.Zone(i, layout.points(mine[i])));
        }
        ZoneBalancer.Assignment a = new ZoneBalancer().assign(zones, team.size(), team.size());
        ZoneSolver[][] byMember = new ZoneSolver[team.size()][];
        Team[] single = new Team[team.size()];
        for (int m = 0; m < team.size(); m++) {
            byMember[m] = a.zonesOf(m).stream().map(i -> solvers[mine[i]]).toArray(ZoneSolver[]::new);
            single[m] = Team.create(1);
            extraTeams.add(single[m]);
        }
        Consumer<TeamContext> body = ctx -> {
            for (ZoneSolver s : byMember[ctx.id()]) {
                s.step(single[ctx.id()]);
            }
        };
        return () -> team.region(body);
    }
}
