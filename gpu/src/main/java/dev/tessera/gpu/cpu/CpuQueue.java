package dev.tessera.gpu.cpu;

import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.Kernel;
import dev.tessera.gpu.Queue;
import dev.tessera.gpu.WorkSize;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A CPU-backend queue: commands run in order on one daemon thread of the queue, so they
 * are asynchronous to the caller exactly as on a GPU (a solver overlaps its halo exchange
 * with a launch the same way on every backend). Kernel bodies split their loops over the
 * rank's team from that thread; the team serializes constructs from different threads.
 * A failed command fails its event; {@link #finish()} rethrows the first failure not yet seen.
 */
final class CpuQueue extends Queue {

    private final CpuAccelerator cpu;
    private final ExecutorService thread;
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

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
        CpuEvent e = new CpuEvent();
        thread.execute(() -> {
            try {
                command.run();
                e.done.complete(null);
            } catch (RuntimeException | Error t) {
                if (t instanceof RuntimeException r) {
                    failure.compareAndSet(null, r);
                }
                e.done.completeExceptionally(t);
            }
        });
        return e;
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
        return blockingIf(blocking, submit(() -> MemorySegment.copy(src, 0, d, dstByteOffset, src.byteSize())));
    }

    @Override
    protected Event enqueueRead(DeviceBuffer src, long srcByteOffset, MemorySegment dst, boolean blocking) {
        MemorySegment s = ((CpuBuffer) src).segment();
        return blockingIf(blocking, submit(() -> MemorySegment.copy(s, srcByteOffset, dst, 0, dst.byteSize())));
    }

    @Override
    protected Event enqueueCopy(DeviceBuffer src, long srcByteOffset, DeviceBuffer dst, long dstByteOffset, long bytes) {
        MemorySegment s = ((CpuBuffer) src).segment();
        MemorySegment d = ((CpuBuffer) dst).segment();
        return submit(() -> MemorySegment.copy(s, srcByteOffset, d, dstByteOffset, bytes));
    }

    @Override
    protected Event enqueueLaunch(Kernel kernel, WorkSize size, Object[] args) {
        CpuProgram.CpuKernelHandle k = (CpuProgram.CpuKernelHandle) kernel;
        return submit(() -> k.body().run(new CpuLaunchContext(cpu.team(), size, args, kernel.name())));
    }

    @Override
    protected void enqueueWait(Event[] events) {
        Event[] copy = events.clone();
        submit(() -> Event.awaitAll(copy));
    }

    @Override
    protected Event enqueueMarker() {
        return submit(() -> { });
    }

    @Override
    protected void finishAll() {
        CpuEvent last = submit(() -> { });
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
