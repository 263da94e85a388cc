package dev.tessera.npbmz.lu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The counters that order the pipelined sweeps and the step's barriers. */
@Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SweepPipelineTest {

    /** One thread per simulated member (the common pool may have a single thread). */
    private final ExecutorService members = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "pipeline-test-member");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stopMembers() {
        members.shutdownNow();
    }

    @Test
    void awaitReturnsOncePublishedAndSeesThePublishersWrites() throws Exception {
        SweepPipeline p = new SweepPipeline(2);
        double[] plane = new double[1];
        Future<Double> reader = members.submit(() -> {
            p.await(0, 3);
            return plane[0];
        });
        Thread.sleep(50);
        assertFalse(reader.isDone(), "await returned before the count was published");
        plane[0] = 42.0;
        p.publish(0, 3);
        assertEquals(42.0, reader.get(10, TimeUnit.SECONDS));
    }

    @Test
    void abortReleasesAWaiterWithAnErrorInsteadOfAHang() throws Exception {
        SweepPipeline p = new SweepPipeline(2);
        Future<?> waiter = members.submit(() -> p.await(1, 1));
        Thread.sleep(50);
        p.abort();
        ExecutionException e = assertThrows(ExecutionException.class, () -> waiter.get(10, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
        assertTrue(p.aborted());
    }

    @Test
    void barrierHoldsEveryMemberUntilTheLastArrives() throws Exception {
        SweepPipeline p = new SweepPipeline(3);
        AtomicBoolean lastArrived = new AtomicBoolean();
        Future<Boolean> m0 = members.submit(() -> {
            p.barrier(0, 3, 5);
            return lastArrived.get();
        });
        Future<Boolean> m1 = members.submit(() -> {
            p.barrier(1, 3, 5);
            return lastArrived.get();
        });
        Thread.sleep(50);
        assertFalse(m0.isDone() || m1.isDone());
        lastArrived.set(true);
        p.barrier(2, 3, 5);
        assertTrue(m0.get(10, TimeUnit.SECONDS));
        assertTrue(m1.get(10, TimeUnit.SECONDS));
        assertEquals(5, p.finished(2));
    }

    @Test
    void anInterruptedWaiterGivesUpAndAbortsThePipeline() throws Exception {
        SweepPipeline p = new SweepPipeline(2);
        Future<?> waiter = members.submit(() -> p.await(1, 1));
        Thread.sleep(50);
        waiter.cancel(true);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!p.aborted() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(p.aborted(), "the interrupted waiter did not abort the pipeline");
    }
}
