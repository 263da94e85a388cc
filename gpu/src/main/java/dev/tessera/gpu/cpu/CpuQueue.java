package dev.tessera.gpu.cpu;

import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.WorkSize;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A CPU-backend queue: commands run in order on one daemon thread of the queue, so they
 * are asynchronous to the caller exactly as on a GPU (a solver overlaps its halo exchange
 * with a launch the same way on every backend). Kernel bodies split their loops over the
 * rank's team from that thread; the team serializes constructs from different threads.
 * A failed command fails its event; {@link #finish()} rethrows the first failure not yet seen.
 *
 * <p>Fast path: a small command (a copy under {@value #INLINE_BYTES} bytes, a launch of
 * fewer than {@value #INLINE_ITEMS} work items, a marker) enqueued while the queue is
 * idle runs at once on the caller's thread: nothing is ahead of it, so order is kept, and
 * it saves two thread hand-offs, which on a busy node (ranks spinning in receives) can
 * cost milliseconds. Waits on events that already completed enqueue nothing.
 */
final class CpuQueue extends Queue {

    private final CpuAccelerator cpu;
    private final ExecutorService thread;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    /** Commands submitted to the thread and not finished; only the enqueueing thread increments it. */
    private final AtomicInteger inFlight = new AtomicInteger();
    static final long INLINE_BYTES = 1 << 20;
    static final long INLINE_ITEMS = 1 << 15;

    CpuQueue(CpuAccelerator owner, int id) {
        super(owner);
        this.cpu = owner;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tessera-cpu-queue-" + id);
            t.setDaemon(true);
            return t;
        });
    }

    private CpuEvent submit(Runnable command) {
        return submit(command, false);
    }

    private CpuEvent submit(Runnable command, boolean small) {
        CpuEvent e = new CpuEvent();
        if (small && inFlight.get() == 0) {
            run(command, e);
            return e;
        }
        inFlight.incrementAndGet();
        thread.execute(() -> {
            try {
                run(command, e);
            } finally {
                inFlight.decrementAndGet();
            }
        });
        return e;
    }

    private void run(Runnable command, CpuEvent e) {
        try {
            command.run();
            e.done.complete(null);
        } catch (RuntimeException | Error t) {
            if (t instanceof RuntimeException r) {
                failure.compareAndSet(null, r);
            }
            e.done.completeExceptionally(t);
        }
    }

    private static Event blockingIf(boolean blocking, CpuEvent e) {
        if (blocking) {
            e.await();
        }
        return e;
    }

    @Override
    protected Event enqueueWrite(MemorySegment src, DeviceBuffer dst, long dstByteOffset, boolean blocking) {
        MemorySegment d = ((CpuBuffer) dst).segment();
        return blockingIf(blocking, submit(() -> MemorySegment.copy(src, 0, d, dstByteOffset, src.byteSize()),
                src.byteSize() < INLINE_BYTES));
    }

    @Override
    protected Event enqueueRead(DeviceBuffer src, long srcByteOffset, MemorySegment dst, boolean blocking) {
        MemorySegment s = ((CpuBuffer) src).segment();
        return blockingIf(blocking, submit(() -> MemorySegment.copy(s, srcByteOffset, dst, 0, dst.byteSize()),
                dst.byteSize() < INLINE_BYTES));
    }

    @Override
    protected Event enqueueCopy(DeviceBuffer src, long srcByteOffset, DeviceBuffer dst, long dstByteOffset, long bytes) {
        MemorySegment s = ((CpuBuffer) src).segment();
        MemorySegment d = ((CpuBuffer) dst).segment();
        return submit(() -> MemorySegment.copy(s, srcByteOffset, d, dstByteOffset, bytes), bytes < INLINE_BYTES);
    }

    @Override
    protected Event enqueueLaunch(Kernel kernel, WorkSize size, Object[] args) {
        CpuProgram.CpuKernelHandle k = (CpuProgram.CpuKernelHandle) kernel;
        return submit(() -> k.body().run(new CpuLaunchContext(cpu.team(), size, args, kernel.name())),
                size.total() < INLINE_ITEMS);
    }

    @Override
    protected void enqueueWait(Event[] events) {
        boolean allDone = true;
        for (Event e : events) {
            allDone &= e.isComplete();
        }
        if (!allDone) {
            Event[] copy = events.clone();
            submit(() -> Event.awaitAll(copy));
        }
    }

    @Override
    protected Event enqueueMarker() {
        return submit(() -> { }, true);
    }

    @Override
    protected void finishAll() {
        CpuEvent last = submit(() -> { }, true);
        try {
            last.await();
        } finally {
            RuntimeException f = failure.getAndSet(null);
            if (f != null) {
                throw f;
            }
        }
    }

    @Override
    protected void release() {
        thread.shutdown();
    }
}
