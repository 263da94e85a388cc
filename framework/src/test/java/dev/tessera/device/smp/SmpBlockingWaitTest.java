package dev.tessera.device.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.device.ReceiveRequest;
import dev.tessera.device.WaitMode;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The smp device's blocking wait: a rank blocked in a receive parks instead of spinning. */
@Timeout(60)
class SmpBlockingWaitTest {

    @Test
    void aWaitingRankParks() throws Exception {
        SmpFabric fabric = new SmpFabric(2);
        SmpDevice receiver = new SmpDevice(fabric, 1, WaitMode.BLOCK);
        SmpDevice sender = new SmpDevice(fabric, 0, WaitMode.BLOCK);
        MemorySegment in = MemorySegment.ofArray(new int[1]);
        AtomicLong cpu = new AtomicLong(-1);
        Thread waiter = new Thread(() -> {
            long cpu0 = dev.tessera.device.ThreadCpu.nanos();
            ReceiveRequest r = receiver.irecv(in, 0, 7, 0, ReceiveRequest.ANY_TYPE);
            receiver.await(r);
            cpu.set(dev.tessera.device.ThreadCpu.nanos() - cpu0);
        }, "smp-waiter");
        long wall0 = System.nanoTime();
        waiter.start();
        // Watch the waiter for about two seconds: parked (WAITING or TIMED_WAITING) nearly all the time.
        int samples = 0;
        int parked = 0;
        while (System.nanoTime() - wall0 < 2_000_000_000L) {
            Thread.sleep(20);
            Thread.State s = waiter.getState();
            samples++;
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                parked++;
            }
        }
        sender.await(sender.isend(MemorySegment.ofArray(new int[] {42}), 1, 7, 0, ReceiveRequest.ANY_TYPE, false));
        waiter.join();
        long wall = System.nanoTime() - wall0;
        assertEquals(42, in.get(ValueLayout.JAVA_INT, 0));
        assertTrue(parked > samples / 2, "the waiting rank was parked in only " + parked + " of " + samples + " samples");
        assertTrue(cpu.get() >= 0 && cpu.get() < wall / 2, "the waiting rank used " + cpu.get() / 1_000_000
                + " ms of CPU in " + wall / 1_000_000 + " ms");
    }

    /**
     * Ranks that each have a core poll as long as shm's spinning ranks before they park (a 1 MiB
     * ping-pong parked and woke late with the short default spin: 96-97 us against 33-35); ranks
     * whose waits block keep the short spin and long parks.
     */
    @Test
    void spinningRanksPollAsLongAsShmsBeforeTheyPark() {
        SmpFabric fabric = new SmpFabric(2);
        assertEquals(dev.tessera.device.BackoffIdleStrategy.LONG_SPIN, new SmpDevice(fabric, 0, WaitMode.SPIN).idleStrategy());
        org.junit.jupiter.api.Assertions.assertNotEquals(dev.tessera.device.BackoffIdleStrategy.LONG_SPIN,
                new SmpDevice(fabric, 1, WaitMode.BLOCK).idleStrategy());
    }

    @Test
    void theWaitModeComesFromTheVariableOrTheCoreCount() {
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(WaitMode.BLOCK, WaitMode.resolve(java.util.Map.of("TESSERA_WAIT", "block"), 0, 1));
        assertEquals(WaitMode.SPIN, WaitMode.resolve(java.util.Map.of("TESSERA_WAIT", "spin"), 0, cores + 1));
        assertEquals(WaitMode.BLOCK, WaitMode.resolve(java.util.Map.of(), 0, cores + 1));
        assertEquals(WaitMode.SPIN, WaitMode.resolve(java.util.Map.of("TESSERA_WAIT", "auto"), 0, cores));
        dev.tessera.TesseraException e = org.junit.jupiter.api.Assertions.assertThrows(dev.tessera.TesseraException.class,
                () -> WaitMode.resolve(java.util.Map.of("TESSERA_WAIT", "sometimes"), 3, 2));
        assertTrue(e.getMessage().contains("rank 3") && e.getMessage().contains("sometimes"), e.getMessage());
    }
}
