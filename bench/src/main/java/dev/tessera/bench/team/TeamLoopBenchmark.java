package dev.tessera.bench.team;

import dev.tessera.task.Schedule;
import dev.tessera.task.Team;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Team loops on real work, next to the plain loop: an axpy (y += a x) with parallelFor,
 * static and dynamic schedules, and a dot product with reduceDouble, over {@code n}
 * doubles. TeamSyncBench measures the constructs' pure overheads the EPCC way; this
 * shows what they cost on a loop of a given length (small n: overhead-bound).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class TeamLoopBenchmark {

    @Param({"1000", "1000000"})
    int n;

    @Param({"1", "2"})
    int threads;

    private Team team;
    private double[] x;
    private double[] y;

    @Setup(Level.Trial)
    public void setUp() {
        team = Team.create(threads);
        x = new double[n];
        y = new double[n];
        java.util.Arrays.fill(x, 1.0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        team.close();
    }

    @Benchmark
    public double[] axpySequential() {
        for (int i = 0; i < n; i++) {
            y[i] += 0.5 * x[i];
        }
        return y;
    }

    @Benchmark
    public double[] axpyStatic() {
        team.parallelFor(0, n, i -> y[i] += 0.5 * x[i]);
        return y;
    }

    @Benchmark
    public double[] axpyDynamic() {
        team.parallelFor(0, n, Schedule.dynamic(1024), i -> y[i] += 0.5 * x[i]);
        return y;
    }

    @Benchmark
    public double dot() {
        return team.reduceDouble(0, n, 0.0, i -> x[i] * y[i], Double::sum);
    }
}
