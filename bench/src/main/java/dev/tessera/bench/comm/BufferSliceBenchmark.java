package dev.tessera.bench.comm;

import dev.tessera.comm.Buffer;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a solver pays to describe part of an array as a message buffer, once per message in
 * its loop (CG sends {@code Buffer.of(r, 0, n)} every iteration): {@code Buffer.of(double[],
 * offset, count)} and {@code Buffer.slice}, next to the plain memory-segment slice they wrap
 * ({@code segmentSlice}, the reference). Each result feeds the returned count, so nothing is
 * optimised away but what escape analysis may remove.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class BufferSliceBenchmark {

    private final double[] vector = new double[7000];
    private final Buffer whole = Buffer.of(vector);
    private int offset;

    /** The reference: a slice of the array's segment, what a buffer holds. */
    @Benchmark
    public long segmentSlice() {
        offset = (offset + 1) & 63;
        return MemorySegment.ofArray(vector).asSlice(offset * 8L, 3500 * 8L).byteSize();
    }

    @Benchmark
    public int bufferOfArrayRange() {
        offset = (offset + 1) & 63;
        return Buffer.of(vector, offset, 3500).count();
    }

    @Benchmark
    public int bufferSlice() {
        offset = (offset + 1) & 63;
        return whole.slice(offset, 3500).count();
    }
}
