package dev.tessera.gpu.comm;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import dev.tessera.comm.Request;
import dev.tessera.gpu.Accelerator;
import dev.tessera.gpu.DeviceBuffer;
import dev.tessera.gpu.Event;
import dev.tessera.gpu.HostBuffer;
import dev.tessera.gpu.Queue;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Point-to-point messages between device buffers of different ranks, staged through
 * pinned host memory and pipelined in chunks.
 *
 * <p>Algorithm. A message of N bytes travels as ceil(N / chunk) messages of the same tag
 * (Tessera keeps messages of one source, tag and communicator in order, so the receiver
 * needs no sequence numbers). The sender keeps up to {@code depth} chunks in flight
 * through a ring of pinned host slots: it enqueues device-to-host copies for the next
 * chunks while the earlier ones are on the wire, and reuses a slot once its send
 * completed. The receiver posts receives for {@code depth} chunks, and as each arrives
 * enqueues its host-to-device copy and posts the receive of the chunk that will reuse the
 * slot once that copy has completed. For a large face the device-to-host copy, the wire
 * and the host-to-device copy of different chunks then overlap, instead of adding up.
 *
 * <p>Both sides must use the same chunk size (it defines the chunk count). Not
 * thread-safe: one thread uses an instance at a time. Data written to a buffer by
 * commands on other queues must be complete, or those commands' events passed as
 * {@code after}.
 */
public final class DeviceMessaging implements AutoCloseable {

    /** 256 KiB chunks: large enough to run copies near full bandwidth, small enough to pipeline a face of a few MiB. */
    public static final long DEFAULT_CHUNK_BYTES = 256 << 10;
    private static final int DEPTH = 4;

    private final Comm comm;
    private final Queue queue;
    private final long chunkBytes;
    private final HostBuffer[] slots = new HostBuffer[DEPTH];
    private final Accelerator accelerator;

    /** Messaging over {@code comm} for buffers of {@code accelerator}, with its own transfer queue. */
    public DeviceMessaging(Comm comm, Accelerator accelerator) {
        this(comm, accelerator, DEFAULT_CHUNK_BYTES);
    }

    public DeviceMessaging(Comm comm, Accelerator accelerator, long chunkBytes) {
        this.comm = Objects.requireNonNull(comm, "comm");
        this.accelerator = Objects.requireNonNull(accelerator, "accelerator");
        if (chunkBytes < 8) {
            throw new IllegalArgumentException("DeviceMessaging: chunk size must be at least 8 bytes, got " + chunkBytes);
        }
        this.chunkBytes = chunkBytes;
        this.queue = accelerator.createQueue();
    }

    private MemorySegment slot(int s, long bytes) {
        if (slots[s] == null) {
            slots[s] = accelerator.allocateHost(chunkBytes);
        }
        return slots[s].segment().asSlice(0, bytes);
    }

    /** Sends all of {@code buffer} to {@code dest}; returns when the data left the buffer. */
    public void send(DeviceBuffer buffer, int dest, int tag, Event... after) {
        send(buffer, 0, buffer.count(), dest, tag, after);
    }

    /** Sends elements {@code [offset, offset + count)} of {@code buffer} to {@code dest}. */
    public void send(DeviceBuffer buffer, long offset, long count, int dest, int tag, Event... after) {
        queue.waitFor(after);
        ChunkPlan plan = ChunkPlan.of(count, buffer.type().byteSize(), chunkBytes);
        int n = plan.chunks();
        Event[] copied = new Event[DEPTH];
        Request[] sent = new Request[DEPTH];
        int next = 0;
        for (int c = 0; c < n; c++) {
            while (next < n && next < c + DEPTH) {
                int s = next % DEPTH;
                if (sent[s] != null) {
                    sent[s].await();
                }
                copied[s] = queue.readAsync(buffer, offset + plan.start(next),
                        slot(s, plan.length(next) * plan.elementSize()));
                next++;
            }
            int s = c % DEPTH;
            copied[s].await();
            sent[s] = comm.isend(Buffer.of(slot(s, plan.length(c) * plan.elementSize()), Datatype.BYTE), dest, tag);
        }
        for (Request r : sent) {
            if (r != null) {
                r.await();
            }
        }
    }

    /** Receives into all of {@code buffer} from {@code source}; returns when the data is on the device. */
    public void recv(DeviceBuffer buffer, int source, int tag) {
        recv(buffer, 0, buffer.count(), source, tag);
    }

    /** Receives into elements {@code [offset, offset + count)} of {@code buffer}. */
    public void recv(DeviceBuffer buffer, long offset, long count, int source, int tag) {
        ChunkPlan plan = ChunkPlan.of(count, buffer.type().byteSize(), chunkBytes);
        int n = plan.chunks();
        Request[] received = new Request[DEPTH];
        for (int c = 0; c < Math.min(n, DEPTH); c++) {
            received[c] = comm.irecv(Buffer.of(slot(c, plan.length(c) * plan.elementSize()), Datatype.BYTE), source, tag);
        }
        for (int c = 0; c < n; c++) {
            int s = c % DEPTH;
            received[s].await();
            Event written = queue.writeAsync(slot(s, plan.length(c) * plan.elementSize()), buffer,
                    offset + plan.start(c));
            int later = c + DEPTH;
            if (later < n) {
                written.await();
                received[s] = comm.irecv(Buffer.of(slot(s, plan.length(later) * plan.elementSize()), Datatype.BYTE),
                        source, tag);
            }
        }
        queue.finish();
    }

    /** The transfer queue (for ordering other queues after a receive: {@code other.waitFor(messaging.queue().marker())}). */
    public Queue queue() {
        return queue;
    }

    @Override
    public void close() {
        queue.close();
        for (HostBuffer h : slots) {
            if (h != null) {
                h.close();
            }
        }
    }
}
