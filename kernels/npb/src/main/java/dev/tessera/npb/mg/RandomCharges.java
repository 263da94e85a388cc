package dev.tessera.npb.mg;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.npb.Randlc;
import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import java.util.Arrays;
import java.util.Comparator;

/**
 * MG's right-hand side (NPB3.4-MPI/MG/mg.f {@code zran3}): draw one pseudo-random number
 * per grid point, in the global x-fastest order, then put +1 at the ten points holding
 * the largest numbers, -1 at the ten holding the smallest, and 0 everywhere else.
 *
 * <p>Point (x, y, z) takes draw number x + n*(y + n*z) of the NPB sequence (seed
 * 314159265, multiplier 5^13, MG/mg.f), so every rank jumps straight to its own lines
 * with a^index (exact modular powers, {@link Randlc#power}) and the field does not depend
 * on the decomposition. Each rank keeps its ten largest and ten smallest candidates
 * (strict comparisons against 0 and 1 as the reference's initial lists); one allgather
 * gives every rank all candidates, from which every rank picks the same global ten and
 * ten. The reference reaches the same sets with ten rounds of max/min allreduce.
 */
final class RandomCharges {

    /** Seed of MG's draws (MG/mg.f zran3: x = 314159265.D0). */
    private static final double SEED = 314159265.0;
    /** Points charged with each sign (MG/mg.f zran3: mm = 10). */
    private static final int MM = 10;

    private RandomCharges() {
    }

    /** Fills the finest level's block {@code v} (ghosts left to the caller's exchange). */
    static void fill(Comm comm, Team team, MgLevel level, int n, double[] v) {
        int m1 = level.m1;
        int m2 = level.m2;
        int m3 = level.m3;
        int e1 = m1 - 2;
        double a1 = Randlc.power(Randlc.A, n);
        Arrays.fill(v, 0.0);
        team.parallelForRange(1, m3 - 1, Schedule.STATIC, (from, to) -> {
            double[] x = new double[1];
            for (int i3 = from; i3 < to; i3++) {
                long first = level.o1 + (long) n * ((level.o2) + (long) n * (level.o3 + i3 - 1));
                double[] line = {SEED};
                Randlc.randlc(line, Randlc.power(Randlc.A, first));
                for (int i2 = 1; i2 < m2 - 1; i2++) {
                    x[0] = line[0];
                    Randlc.vranlc(e1, x, Randlc.A, v, (i3 * m2 + i2) * m1 + 1);
                    Randlc.randlc(line, a1);
                }
            }
        });

        // Local candidates: largest[0] is the smallest of the ten largest, smallest[0] the largest of the ten smallest.
        double[] largest = new double[MM];
        long[] largestAt = new long[MM];
        double[] smallest = new double[MM];
        long[] smallestAt = new long[MM];
        Arrays.fill(smallest, 1.0);
        Arrays.fill(largestAt, -1);
        Arrays.fill(smallestAt, -1);
        for (int i3 = 1; i3 < m3 - 1; i3++) {
            for (int i2 = 1; i2 < m2 - 1; i2++) {
                int row = (i3 * m2 + i2) * m1;
                for (int i1 = 1; i1 < m1 - 1; i1++) {
                    double z = v[row + i1];
                    if (z > largest[0]) {
                        insert(largest, largestAt, z, globalIndex(level, n, i1, i2, i3), true);
                    }
                    if (z < smallest[0]) {
                        insert(smallest, smallestAt, z, globalIndex(level, n, i1, i2, i3), false);
                    }
                }
            }
        }

        // Every rank's candidates to every rank: (value, global index) pairs, largest then smallest.
        double[] mine = new double[4 * MM];
        for (int i = 0; i < MM; i++) {
            mine[2 * i] = largest[i];
            mine[2 * i + 1] = largestAt[i];
            mine[2 * MM + 2 * i] = smallest[i];
            mine[2 * MM + 2 * i + 1] = smallestAt[i];
        }
        double[] all = new double[4 * MM * comm.size()];
        comm.allgather(Buffer.of(mine), Buffer.of(all));
        double[][] big = new double[MM * comm.size()][];
        double[][] small = new double[MM * comm.size()][];
        for (int r = 0; r < comm.size(); r++) {
            for (int i = 0; i < MM; i++) {
                int o = 4 * MM * r;
                big[MM * r + i] = new double[] {all[o + 2 * i], all[o + 2 * i + 1]};
                small[MM * r + i] = new double[] {all[o + 2 * MM + 2 * i], all[o + 2 * MM + 2 * i + 1]};
            }
        }
        Arrays.sort(big, Comparator.comparingDouble((double[] c) -> c[0]).reversed());
        Arrays.sort(small, Comparator.comparingDouble((double[] c) -> c[0]));

        Arrays.fill(v, 0.0);
        for (int i = 0; i < MM; i++) {
            charge(level, n, v, (long) small[i][1], -1.0);
            charge(level, n, v, (long) big[i][1], +1.0);
        }
    }

    /** Keeps {@code list} the MM most extreme values seen, list[0] the least extreme (the reference's bubble). */
    private static void insert(double[] list, long[] at, double z, long index, boolean keepLargest) {
        list[0] = z;
        at[0] = index;
        for (int i = 0; i < MM - 1; i++) {
            boolean swap = keepLargest ? list[i] > list[i + 1] : list[i] < list[i + 1];
            if (!swap) {
                return;
            }
            double t = list[i];
            list[i] = list[i + 1];
            list[i + 1] = t;
            long ti = at[i];
            at[i] = at[i + 1];
            at[i + 1] = ti;
        }
    }

    private static long globalIndex(MgLevel level, int n, int i1, int i2, int i3) {
        return (level.o1 + i1 - 1) + (long) n * ((level.o2 + i2 - 1) + (long) n * (level.o3 + i3 - 1));
    }

    /** Sets the point of global index {@code g} to {@code value} if it lies in this block. */
    private static void charge(MgLevel level, int n, double[] v, long g, double value) {
        if (g < 0) {
            return;
        }
        int x = (int) (g % n) - level.o1;
        int y = (int) ((g / n) % n) - level.o2;
        int z = (int) (g / ((long) n * n)) - level.o3;
        if (x >= 0 && x < level.m1 - 2 && y >= 0 && y < level.m2 - 2 && z >= 0 && z < level.m3 - 2) {
            v[((z + 1) * level.m2 + (y + 1)) * level.m1 + (x + 1)] = value;
        }
    }
}
