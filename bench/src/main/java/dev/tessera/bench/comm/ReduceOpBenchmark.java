package dev.tessera.bench.comm;

import dev.tessera.comm.*;
import dev.tessera.internal.CommAccess;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reduction kernels (ReduceKernels through Op.apply) that every reduce and allreduce
 * runs on each received piece: in[i] op inout[i] over {@code count} elements, for the
 * built-in SUM, MAX and PROD on doubles, floats and ints, and a user function
 * (Op.ofDoubles) for comparison. The score divided by count is the time per element.
 *
 * <p>The code measured is internal to the framework; it is reached through
 * {@link CommAccess} (a package the framework module does not export), held in a field.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class ReduceOpBenchmark {

    private static final CommAccess ACCESS = CommAccess.get();

    @Param({"1024", "131072"})
    int count;

    @Param({"SUM", "MAX", "PROD", "USER_SUM"})
    String op;

    @Param({"DOUBLE", "FLOAT", "INT"})
    String type;

    private Op operation;
    private Datatype datatype;
    private MemorySegment in;
    private MemorySegment inout;

    @Setup
    public void setUp() {
        operation = switch (op) {
            case "SUM" -> Op.SUM;
            case "MAX" -> Op.MAX;
            case "PROD" -> Op.PROD;
            default -> switch (type) {
                case "DOUBLE" -> Op.ofDoubles(Double::sum, true);
                case "INT" -> Op.ofInts(Integer::sum, true);
                default -> Op.create((a, b, n, t) -> {
                    for (int i = 0; i < n; i++) {
                        b.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i,
                                a.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                                        + b.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED, i));
                    }
                }, true);
            };
        };
        switch (type) {
            case "DOUBLE" -> {
                datatype = Datatype.DOUBLE;
                in = MemorySegment.ofArray(filled(new double[count]));
                inout = MemorySegment.ofArray(filled(new double[count]));
            }
            case "FLOAT" -> {
                datatype = Datatype.FLOAT;
                float[] a = new float[count];
                float[] b = new float[count];
                java.util.Arrays.fill(a, 1f);
                java.util.Arrays.fill(b, 1f);
                in = MemorySegment.ofArray(a);
                inout = MemorySegment.ofArray(b);
            }
            default -> {
                datatype = Datatype.INT;
                int[] a = new int[count];
                int[] b = new int[count];
                java.util.Arrays.fill(a, 1);
                java.util.Arrays.fill(b, 1);
                in = MemorySegment.ofArray(a);
                inout = MemorySegment.ofArray(b);
            }
        }
    }

    /** Ones: products stay 1 and no value becomes subnormal (subnormal arithmetic is far slower). */
    private static double[] filled(double[] a) {
        java.util.Arrays.fill(a, 1.0);
        return a;
    }

    @Benchmark
    public MemorySegment apply() {
        ACCESS.reduce(operation, in, inout, count, datatype);
        return inout;
    }
}
