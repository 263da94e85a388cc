package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Request;
import dev.tessera.launch.SmpJob;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link NpbWait} returns once the request has completed, with the data in place, whether the
 * message comes while it polls or only after it has handed over to the device's wait, and
 * with polling switched off; a bad value of the switch is refused with its name.
 */
@Timeout(60)
class NpbWaitTest {

    @ParameterizedTest(name = "poll for {0} ns")
    @ValueSource(longs = {0L, 1_000L, 5_000_000_000L})
    void returnsWithTheMessageInPlace(long spinNanos) {
        double[][] got = new double[1][];
        boolean[] complete = new boolean[1];
        SmpJob.run(2, new String[] {"--threads", "1"}, Duration.ofSeconds(50), session -> {
            var world = session.world();
            if (world.rank() == 0) {
                double[] in = new double[3];
                Request r = world.irecv(Buffer.of(in), 1, 7);
                NpbWait.await(r, spinNanos);
                complete[0] = r.isComplete();
                got[0] = in.clone();
            } else {
                try {
                    Thread.sleep(200); // the receiver has long been waiting (past a 1 us poll)
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Request s = world.isend(Buffer.of(new double[] {1.5, -2.0, 3.25}), 0, 7);
                NpbWait.await(s, spinNanos);
            }
        });
        assertTrue(complete[0]);
        assertArrayEquals(new double[] {1.5, -2.0, 3.25}, got[0]);
    }

    @Test
    void theSwitchTakesMicrosecondsAndRefusesOtherValues() {
        assertEquals(2_000_000L, NpbWait.spinNanos(null));
        assertEquals(0L, NpbWait.spinNanos("0"));
        assertEquals(150_000L, NpbWait.spinNanos(" 150 "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NpbWait.spinNanos("-1"));
        assertTrue(e.getMessage().contains("tessera.npb.spinMicros=-1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> NpbWait.spinNanos("fast"));
    }
}
