package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Device buffers and transfers behave alike on every backend (CUDA where a CUDA device exists). */
@Timeout(60)
class BuffersAndQueuesTest {

    @ParameterizedTest
    @EnumSource(Backend.class)
    void arraysOfEveryTypeRoundTripThroughTheDevice(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Queue q = acc.defaultQueue();
            double[] d = {1.5, -2.25, 3e300, Double.MIN_VALUE, 0};
            float[] f = {1.5f, -7f, 3e30f};
            long[] l = {Long.MIN_VALUE, 42, Long.MAX_VALUE};
            int[] i = {Integer.MIN_VALUE, -1, 7, Integer.MAX_VALUE};
            DeviceBuffer bd = acc.allocate(ElementType.DOUBLE, d.length);
            DeviceBuffer bf = acc.allocate(ElementType.FLOAT, f.length);
            DeviceBuffer bl = acc.allocate(ElementType.LONG, l.length);
            DeviceBuffer bi = acc.allocate(ElementType.INT, i.length);
            q.write(d, bd);
            q.write(f, bf);
            q.write(l, bl);
            q.write(i, bi);
            double[] d2 = new double[d.length];
            float[] f2 = new float[f.length];
            long[] l2 = new long[l.length];
            int[] i2 = new int[i.length];
            q.read(bd, d2);
            q.read(bf, f2);
            q.read(bl, l2);
            q.read(bi, i2);
            assertArrayEquals(d, d2);
            assertArrayEquals(f, f2);
            assertArrayEquals(l, l2);
            assertArrayEquals(i, i2);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void slicesLandAtTheirOffsets(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend);
             DeviceBuffer b = acc.allocate(ElementType.DOUBLE, 10)) {
            Queue q = acc.defaultQueue();
            q.write(new double[10], b);
            q.write(new double[] {9, 1, 2, 3, 9}, 1, b, 4, 3);
            double[] out = new double[6];
            q.read(b, 3, out, 1, 5);
            assertArrayEquals(new double[] {0, 0, 1, 2, 3, 0}, out);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void pinnedAndHeapSegmentsRoundTripAsynchronously(Backend backend) {
        int n = 100_000;
        try (Accelerator acc = TestBackends.openOrSkip(backend);
             DeviceBuffer b = acc.allocate(ElementType.DOUBLE, n);
             DeviceBuffer c = acc.allocate(ElementType.DOUBLE, n);
             HostBuffer in = acc.allocateHost((long) n * Double.BYTES);
             HostBuffer out = acc.allocateHost((long) n * Double.BYTES);
             Arena arena = Arena.ofShared()) {
            Queue q = acc.defaultQueue();
            for (int i = 0; i < n; i++) {
                in.segment().setAtIndex(ValueLayout.JAVA_DOUBLE, i, i * 0.5);
            }
            q.writeAsync(in.segment(), b, 0);
            q.copy(b, 0, c, 0, n);
            Event e = q.readAsync(c, 0, out.segment());
            e.await();
            assertTrue(e.isComplete());
            for (int i = 0; i < n; i += 997) {
                assertEquals(i * 0.5, out.segment().getAtIndex(ValueLayout.JAVA_DOUBLE, i));
            }
            // A plain native segment (pageable) and a heap segment work too.
            MemorySegment pageable = arena.allocate((long) n * Double.BYTES);
            q.readAsync(b, 0, pageable).await();
            double[] heap = new double[n];
            q.readAsync(b, 0, MemorySegment.ofArray(heap));
            assertEquals((n - 1) * 0.5, heap[n - 1]);
            assertEquals((n - 1) * 0.5, pageable.getAtIndex(ValueLayout.JAVA_DOUBLE, n - 1));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aQueueWaitingForAnotherSeesItsResults(Backend backend) {
        int n = 1 << 20;
        try (Accelerator acc = TestBackends.openOrSkip(backend);
             DeviceBuffer b = acc.allocate(ElementType.DOUBLE, n)) {
            Queue producer = acc.createQueue();
            Queue consumer = acc.createQueue();
            Event filled = acc.gridKernels().fill(producer, b, 3.0);
            consumer.waitFor(filled);
            double[] out = new double[n];
            consumer.read(b, out);
            for (int i = 0; i < n; i += 4099) {
                assertEquals(3.0, out[i]);
            }
            assertEquals(3.0, out[n - 1]);
        }
    }

    @Test
    void cpuQueuesRunLargeWorkAsynchronouslyAndInOrder() throws Exception {
        try (Accelerator acc = TestBackends.openOrSkip(Backend.CPU);
             Arena arena = Arena.ofShared()) {
            CountDownLatch release = new CountDownLatch(1);
            List<String> order = new CopyOnWriteArrayList<>();
            Program p = acc.compile(KernelSource.of("blocking.cl", "")
                    .withCpu("wait_for_release", l -> {
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        order.add("kernel");
                    }));
            Queue q = acc.createQueue();
            DeviceBuffer b = acc.allocate(ElementType.DOUBLE, 8);
            // A launch large enough not to run inline: it must return while its body is still blocked.
            Event launched = q.launch(p.kernel("wait_for_release"), WorkSize.of(1 << 20));
            Event copied = q.writeAsync(arena.allocate(8 * Double.BYTES), b, 0);
            assertFalse(launched.isComplete());
            order.add("host");
            release.countDown();
            launched.await();
            copied.await();
            assertEquals(List.of("host", "kernel"), order);
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void misuseGivesOneClearErrorNamingTheCall(Backend backend) {
        try (Accelerator acc = TestBackends.openOrSkip(backend)) {
            Queue q = acc.defaultQueue();
            DeviceBuffer b = acc.allocate(ElementType.DOUBLE, 4);
            var overflow = assertThrows(IndexOutOfBoundsException.class, () -> q.write(new double[5], b));
            assertTrue(overflow.getMessage().contains("Queue.write"), overflow.getMessage());
            var wrongType = assertThrows(IllegalArgumentException.class, () -> q.write(new int[4], b));
            assertTrue(wrongType.getMessage().contains("int[]"), wrongType.getMessage());
            assertThrows(IllegalArgumentException.class, () -> acc.allocate(ElementType.DOUBLE, 0));
            var badArg = assertThrows(IllegalArgumentException.class,
                    () -> q.launch(acc.compile(GridKernels.source()).kernel("fill_double"), WorkSize.of(4), b, "text"));
            assertTrue(badArg.getMessage().contains("argument 1"), badArg.getMessage());
            b.close();
            var closed = assertThrows(IllegalStateException.class, () -> q.read(b, new double[4]));
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> WorkSize.of(-1));
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void closingTheAcceleratorFreesWhatIsStillOpen(Backend backend) {
        Accelerator acc = TestBackends.openOrSkip(backend);
        DeviceBuffer b = acc.allocate(ElementType.INT, 16);
        Queue q = acc.createQueue();
        acc.close();
        assertTrue(b.isClosed());
        assertThrows(IllegalStateException.class, () -> acc.allocate(ElementType.INT, 1));
        assertThrows(IllegalStateException.class, q::finish);
    }
}
