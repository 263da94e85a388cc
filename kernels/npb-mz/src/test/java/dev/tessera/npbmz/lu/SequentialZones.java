package dev.tessera.npbmz.lu;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.npbmz.ZoneSolver;
import dev.tessera.task.Team;

/**
 * A whole NPB-MZ run on one rank, zones processed one after the other, for the solver's own
 * tests (the multi-zone driver of dev.tessera.npbmz does the same over ranks): zones of
 * zone_setup.f's equal split, periodic neighbours in x and y, and before every step the
 * boundary exchange of exch_qbc.f through packFace/unpackFace (all faces packed first, then
 * all unpacked), then one step of every zone. As lu.f: set-up, one untimed warm-up step,
 * set-up again, the timed steps, then the norms summed over zones.
 */
class SequentialZones {

    /** The outcome: zone-summed norms, verification, timed seconds and Mop/s. */
    record Result(double[] norms, ZoneBenchmark.Verification verification, double seconds, double mops) {
    }

    private final ZoneBenchmark bench;
    private final MzProblem problem;
    private final ZoneSolver[] zones;
    private final double[][][] packed;   // [zone][face] values the zone gives across that face

    SequentialZones(ZoneBenchmark bench, MzProblem problem) {
        this.bench = bench;
        this.problem = problem;
        int xz = problem.xZones(), yz = problem.yZones();
        zones = new ZoneSolver[xz * yz];
        packed = new double[zones.length][Face.values().length][];
        for (int jz = 0; jz < yz; jz++) {
            for (int iz = 0; iz < xz; iz++) {
                int nx = LuMz.zoneSize(problem.gx(), xz, iz);
                int ny = LuMz.zoneSize(problem.gy(), yz, jz);
                ZoneSolver z = bench.newZone(problem, nx, ny, problem.gz());
                zones[iz + jz * xz] = z;
                for (Face f : Face.values()) {
                    packed[iz + jz * xz][f.ordinal()] = new double[z.faceLength(f)];
                }
            }
        }
    }

    ZoneSolver zone(int iz, int jz) {
        return zones[iz + jz * problem.xZones()];
    }

    /** Runs {@code steps} timed steps (the class's count when negative) with {@code team}. */
    Result run(Team team, int steps, boolean warmUp) {
        int n = steps < 0 ? problem.iterations() : steps;
        for (ZoneSolver z : zones) {
            z.initialize();
        }
        if (warmUp) {
            exchange();
            for (ZoneSolver z : zones) {
                z.step(team);
            }
            for (ZoneSolver z : zones) {
                z.initialize();
            }
        }
        long start = System.nanoTime();
        for (int s = 0; s < n; s++) {
            exchange();
            for (ZoneSolver z : zones) {
                z.step(team);
            }
        }
        double seconds = (System.nanoTime() - start) * 1e-9;
        double[] norms = new double[11];
        for (ZoneSolver z : zones) {
            double[] zn = z.verificationNorms(team);
            for (int m = 0; m < norms.length; m++) {
                norms[m] += zn[m];
            }
        }
        return new Result(norms, bench.verify(problem, norms), seconds, bench.mops(problem, seconds));
    }

    /** exch_qbc.f: every zone's four faces out, then every zone's boundary in from its neighbours. */
    void exchange() {
        int xz = problem.xZones(), yz = problem.yZones();
        for (int z = 0; z < zones.length; z++) {
            for (Face f : Face.values()) {
                zones[z].packFace(f, packed[z][f.ordinal()], 0);
            }
        }
        for (int jz = 0; jz < yz; jz++) {
            for (int iz = 0; iz < xz; iz++) {
                ZoneSolver z = zones[iz + jz * xz];
                int west = (iz - 1 + xz) % xz + jz * xz;
                int east = (iz + 1) % xz + jz * xz;
                int south = iz + ((jz - 1 + yz) % yz) * xz;
                int north = iz + ((jz + 1) % yz) * xz;
                z.unpackFace(Face.WEST, packed[west][Face.EAST.ordinal()], 0);
                z.unpackFace(Face.EAST, packed[east][Face.WEST.ordinal()], 0);
                z.unpackFace(Face.SOUTH, packed[south][Face.NORTH.ordinal()], 0);
                z.unpackFace(Face.NORTH, packed[north][Face.SOUTH.ordinal()], 0);
            }
        }
    }

    /** Runs class {@code args[0]} (default A) with {@code args[1]} threads (default 1) and prints the result. */
    public static void main(String[] args) {
        char cls = args.length > 0 ? args[0].charAt(0) : 'A';
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        LuMz bench = new LuMz();
        MzProblem p = bench.problem(cls);
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        try (Team team = Team.create(threads)) {
            for (int r = 0; r < repeats; r++) {
                SequentialZones zones = new SequentialZones(bench, p);
                long cpu0 = os.getProcessCpuTime();
                Result res = zones.run(team, -1, true);
                double cpu = (os.getProcessCpuTime() - cpu0) * 1e-9;
                System.out.print(res.verification().detail());
                System.out.printf("LU-MZ class %c threads %d: %.3f s, %.2f Mop/s, verified %b; process CPU %.2f s"
                        + " (set-up and warm-up included)%n",
                        cls, threads, res.seconds(), res.mops(), res.verification().verified(), cpu);
            }
        }
    }
}
