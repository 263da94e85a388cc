package dev.tessera.bench.comm;

import dev.tessera.comm.*;
import dev.tessera.internal.CommAccess;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
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
 * Object messages (sendObject, bcastObject, ...): ObjectCodec's encode and decode, the
 * part of an object message that plain buffer messages do not pay, for a small record,
 * a double[] of 1024 elements and a list of 100 short strings. {@code roundTrip} is
 * encode then decode, what one object message costs in serialization.
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
public class ObjectCodecBenchmark {

    private static final CommAccess ACCESS = CommAccess.get();

    /** A small message a particle code might send: an id and a position. */
    record Particle(long id, double x, double y, double z) implements Serializable {
    }

    @Param({"record", "double[1024]", "list<string>[100]"})
    String payload;

    private Object value;
    private byte[] encoded;

    @Setup
    public void setUp() {
        value = switch (payload) {
            case "record" -> new Particle(42, 1.0, 2.0, 3.0);
            case "double[1024]" -> new double[1024];
            default -> {
                List<String> l = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    l.add("item-" + i);
                }
                yield l;
            }
        };
        encoded = ACCESS.encodeObject(value, "bench");
    }

    @Benchmark
    public byte[] encode() {
        return ACCESS.encodeObject(value, "bench");
    }

    @Benchmark
    public Object decode() {
        return ACCESS.decodeObject(encoded, "bench");
    }

    @Benchmark
    public Object roundTrip() {
        return ACCESS.decodeObject(ACCESS.encodeObject(value, "bench"), "bench");
    }
}
