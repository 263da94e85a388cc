package dev.tessera.bench.smp;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ceiling for a single-copy transport: one thread copying {@code bytes} between two
 * buffers, with System.arraycopy and with MemorySegment.copy. Sixteen source buffers are
 * cycled, as the bandwidth benchmark's window does, so caches behave alike.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class CopyCeilingBenchmark {

    static final int WINDOW = SmpBandwidthBenchmark.WINDOW;

    @Param({"1048576", "4194304"})
    int bytes;

    private byte[][] sources;
    private byte[][] targets;

    @Setup
    public void allocate() {
        sources = new byte[WINDOW][bytes];
        targets = new byte[WINDOW][bytes];
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void arraycopy() {
        for (int i = 0; i < WINDOW; i++) {
            System.arraycopy(sources[i], 0, targets[i], 0, bytes);
        }
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void segmentCopy() {
        for (int i = 0; i < WINDOW; i++) {
            MemorySegment.copy(MemorySegment.ofArray(sources[i]), 0, MemorySegment.ofArray(targets[i]), 0, bytes);
        }
    }
}
