package dev.tessera.bench.smp;

import dev.tessera.comm.Buffer;
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
 * smp ping-pong: one operation is a full round trip (send, then receive the echo), so the
 * half-round-trip latency that MPI benchmarks report is the score divided by two.
 * Sample mode gives the median and percentiles.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class SmpPingPongBenchmark {

    @Param({"8", "1024", "65536"})
    int bytes;

    private SmpPair pair;
    private Buffer out;
    private Buffer in;

    @Setup(Level.Trial)
    public void start() {
        pair = new SmpPair(SmpPair.Mode.ECHO, bytes, 1);
        out = Buffer.of(new byte[bytes]);
        in = Buffer.of(new byte[bytes]);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        pair.close();
    }

    @Benchmark
    public void roundTrip() {
        pair.rank0.send(out, 1, SmpPair.DATA);
        pair.rank0.recv(in, 1, SmpPair.DATA);
    }
}
