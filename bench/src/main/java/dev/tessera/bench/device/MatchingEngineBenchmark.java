package dev.tessera.bench.device;

import dev.tessera.device.BufferedMessage;
import dev.tessera.device.Envelope;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.ReceiveRequest;
import java.lang.foreign.MemorySegment;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The matching engine alone (no device, no copies): one operation is one message matched
 * to one receive. {@code expected}: the receive is posted first and the arrival finds it;
 * {@code unexpected}: the message arrives first and the receive finds it. {@code depth - 1}
 * non-matching receives (other tags) stay posted ahead of the matching one, so the cost of
 * walking a long posted queue shows as depth grows. Receives and messages are reused;
 * only the queue work is measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class MatchingEngineBenchmark {

    static final int CONTEXT = 0;
    static final int TAG = 1;

    @Param({"1", "16", "256"})
    int depth;

    private MatchingEngine engine;
    private ReceiveRequest receive;
    private BufferedMessage message;

    @Setup(Level.Trial)
    public void setUp() {
        engine = new MatchingEngine();
        MemorySegment buf = MemorySegment.ofArray(new byte[8]);
        for (int i = 1; i < depth; i++) {
            engine.post(new ReceiveRequest(buf, 1, 1000 + i, CONTEXT, ReceiveRequest.ANY_TYPE));
        }
        receive = new ReceiveRequest(buf, 1, TAG, CONTEXT, ReceiveRequest.ANY_TYPE);
        message = new BufferedMessage(new Envelope(1, TAG, CONTEXT, 8, 0), MemorySegment.ofArray(new byte[8]));
    }

    @Benchmark
    public Object expected() {
        engine.post(receive);
        return engine.arrive(message);
    }

    @Benchmark
    public Object unexpected() {
        engine.arrive(message);
        return engine.post(receive);
    }
}
