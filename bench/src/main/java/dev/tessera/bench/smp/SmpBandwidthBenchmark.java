package dev.tessera.bench.smp;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Request;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * smp streaming bandwidth, osu_bw style: a window of nonblocking sends, then one
 * acknowledgement from the receiver. The score is time per message; bandwidth is
 * {@code bytes / score}. Compare with {@link CopyCeilingBenchmark} at the same size in
 * the same run: a single-copy device cannot beat one memory copy.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class SmpBandwidthBenchmark {

    static final int WINDOW = 16;

    @Param({"1048576", "4194304"})
    int bytes;

    private SmpPair pair;
    private Buffer[] out;
    private final Request[] sends = new Request[WINDOW];
    private Buffer ack;

    @Setup(Level.Trial)
    public void start() {
        pair = new SmpPair(SmpPair.Mode.STREAM, bytes, WINDOW);
        out = new Buffer[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            out[i] = Buffer.of(new byte[bytes]);
        }
        ack = Buffer.of(new byte[1]);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        pair.close();
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void window() {
        for (int i = 0; i < WINDOW; i++) {
            sends[i] = pair.rank0.isend(out[i], 1, SmpPair.DATA);
        }
        Request.waitAll(sends);
        pair.rank0.recv(ack, 1, SmpPair.ACK);
    }
}
