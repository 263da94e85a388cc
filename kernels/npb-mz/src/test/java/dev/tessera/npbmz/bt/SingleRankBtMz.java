package dev.tessera.npbmz.bt;

import dev.tessera.npbmz.Face;
import dev.tessera.npbmz.MzProblem;
import dev.tessera.npbmz.ZoneBenchmark;
import dev.tessera.npbmz.ZoneSolver;
import dev.tessera.task.Team;

/**
 * A whole BT-MZ run on one rank, for tests: every zone of the problem held here, the zones
 * stepped one after the other, the boundary exchange done by packFace/unpackFace between
 * the zone objects (periodic neighbours, as exch_qbc.f), in bt.f's order: initialize, one
 * exchange and step to touch all code, initialize again, then niter x (exchange, step), then
 * the norms summed over zones as verify.f sums them.
 */
final class SingleRankBtMz {

    final MzProblem problem;
    final ZoneSolver[] zones;
    private final int xz, yz;
    private final double[][] faces;

    SingleRankBtMz(ZoneBenchmark bench, MzProblem problem) {
        this.problem = problem;
        this.xz = problem.xZones();
        this.yz = problem.yZones();
        double ratio = bench.zoneRatio(problem);
        int[] wx = BtMz.zoneWidths(problem.gx(), xz, ratio);
        int[] wy = BtMz.zoneWidths(problem.gy(), yz, ratio);
        zones = new ZoneSolver[xz * yz];
        faces = new double[xz * yz * 4][];
        for (int j = 0; j < yz; j++) {
            for (int i = 0; i < xz; i++) {
                int z = i + j * xz;
                zones[z] = bench.newZone(problem, wx[i], wy[j], problem.gz());
                for (Face f : Face.values()) {
                    faces[z * 4 + f.ordinal()] = new double[zones[z].faceLength(f)];
                }
            }
        }
    }

    /** Runs the benchmark's time steps and returns the zone-summed norms. */
    double[] run(Team team, int iterations) {
        for (ZoneSolver z : zones) {
            z.initialize();
        }
        exchange();
        for (ZoneSolver z : zones) {
            z.step(team);
        }
        for (ZoneSolver z : zones) {
            z.initialize();
        }
        for (int it = 0; it < iterations; it++) {
            exchange();
            for (ZoneSolver z : zones) {
                z.step(team);
            }
        }
        double[] sum = new double[10];
        for (ZoneSolver z : zones) {
            double[] n = z.verificationNorms(team);
            for (int m = 0; m < 10; m++) {
                sum[m] += n[m];
            }
        }
        return sum;
    }

    /** exch_qbc.f on one rank: every zone packs its four faces, then takes its neighbours'. */
    void exchange() {
        for (int z = 0; z < zones.length; z++) {
            for (Face f : Face.values()) {
                zones[z].packFace(f, faces[z * 4 + f.ordinal()], 0);
            }
        }
        for (int j = 0; j < yz; j++) {
            for (int i = 0; i < xz; i++) {
                ZoneSolver z = zones[i + j * xz];
                int west = (i + xz - 1) % xz + j * xz, east = (i + 1) % xz + j * xz;
                int south = i + ((j + yz - 1) % yz) * xz, north = i + ((j + 1) % yz) * xz;
                z.unpackFace(Face.WEST, faces[west * 4 + Face.EAST.ordinal()], 0);
                z.unpackFace(Face.EAST, faces[east * 4 + Face.WEST.ordinal()], 0);
                z.unpackFace(Face.SOUTH, faces[south * 4 + Face.NORTH.ordinal()], 0);
                z.unpackFace(Face.NORTH, faces[north * 4 + Face.SOUTH.ordinal()], 0);
            }
        }
    }
}
