package dev.tessera.bench.team;

import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * EPCC-syncbench-style overheads of Tessera's team constructs, measured exactly as
 * bench/native/syncbench_omp.c measures OpenMP's: INNER repetitions of a construct whose
 * body is a fixed delay, minus INNER sequential delays, divided by INNER; the median of
 * OUTER measurements, in microseconds. Warm-up rounds first, so the JIT has compiled
 * the constructs.
 *
 * <p>Usage: {@code TeamSyncBench threads [delayLength]}; prints "NAME overhead_us" lines.
 */
public final class TeamSyncBench {

    static final int OUTER = 21;
    static final int INNER = 2000;
    private static volatile double sink;

    private TeamSyncBench() {
    }

    static void delay(int n) {
        double a = 0;
        for (int i = 0; i < n; i++) {
            a += i;
        }
        if (a < 0) {
            sink = a;
        }
    }

    interface Construct {
        void run(Team team, int delayLength);
    }

    static Map<String, Construct> constructs(int threads) {
        Map<String, Construct> m = new LinkedHashMap<>();
        m.put("PARALLEL", (team, d) -> {
            for (int j = 0; j < INNER; j++) {
                team.region(ctx -> delay(d));
            }
        });
        m.put("FOR", (team, d) -> team.region(ctx -> {
            for (int j = 0; j < INNER; j++) {
                ctx.parallelFor(0, threads, i -> delay(d));
            }
        }));
        m.put("PARALLEL_FOR", (team, d) -> {
            for (int j = 0; j < INNER; j++) {
                team.parallelFor(0, threads, i -> delay(d));
            }
        });
        m.put("PARALLEL_FOR_DYNAMIC", (team, d) -> {
            for (int j = 0; j < INNER; j++) {
                team.parallelFor(0, threads, Schedule.dynamic(1), i -> delay(d));
            }
        });
        m.put("BARRIER", (team, d) -> team.region(ctx -> {
            for (int j = 0; j < INNER; j++) {
                delay(d);
                ctx.barrier();
            }
        }));
        m.put("SINGLE", (team, d) -> team.region(ctx -> {
            for (int j = 0; j < INNER; j++) {
                ctx.single(() -> delay(d));
            }
        }));
        m.put("REDUCTION", (team, d) -> {
            double total = 0;
            for (int j = 0; j < INNER; j++) {
                total += team.reduceDouble(0, threads, 0.0, i -> {
                    delay(d);
                    return 1.0;
                }, Double::sum);
            }
            if (total < 0) {
                sink = total;
            }
        });
        return m;
    }

    static double reference(int delayLength) {
        double[] t = new double[OUTER];
        for (int o = 0; o < OUTER; o++) {
            long s = System.nanoTime();
            for (int j = 0; j < INNER; j++) {
                delay(delayLength);
            }
            t[o] = (System.nanoTime() - s) / 1e3 / INNER;
        }
        Arrays.sort(t);
        return t[OUTER / 2];
    }

    /** Overhead of every construct in microseconds, for a team of {@code threads}. */
    public static Map<String, Double> measure(int threads, int delayLength) {
        Map<String, Double> out = new LinkedHashMap<>();
        try (Team team = Team.create(threads)) {
            Map<String, Construct> all = constructs(threads);
            for (int warm = 0; warm < 5; warm++) {
                reference(delayLength);
                all.values().forEach(c -> c.run(team, delayLength));
            }
            double ref = reference(delayLength);
            for (Map.Entry<String, Construct> e : all.entrySet()) {
                double[] t = new double[OUTER];
                for (int o = 0; o < OUTER; o++) {
                    long s = System.nanoTime();
                    e.getValue().run(team, delayLength);
                    t[o] = (System.nanoTime() - s) / 1e3 / INNER;
                }
                Arrays.sort(t);
                out.put(e.getKey(), t[OUTER / 2] - ref);
            }
        }
        return out;
    }

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        int delayLength = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        measure(threads, delayLength).forEach((k, v) -> System.out.printf("%s %.4f%n", k, v));
    }
}
