package dev.tessera.device.tcp;

import dev.tessera.device.DeviceRequest;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The connection to one peer: a socket, a writer thread that sends queued frames in
 * order, and a reader thread that hands each incoming frame to the device. A separate
 * writer means a reader never blocks on a full socket buffer (which, with two peers
 * writing large messages to each other, would deadlock).
 */
final class PeerConnection {

    /** A frame to send: header, optional payload (written straight from the user's buffer), request to complete. */
    record Outgoing(ByteBuffer header, MemorySegment payload, DeviceRequest completes) {
    }

    private static final Outgoing STOP = new Outgoing(null, null, null);

    final int peer;
    final SocketChannel channel;
    private final LinkedBlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
    private final ByteBuffer writeStaging = ByteBuffer.allocateDirect(TcpIo.STAGING);
    /** Staging for the reader thread's reads into heap segments that are not byte arrays. */
    final ByteBuffer readStaging = ByteBuffer.allocateDirect(TcpIo.STAGING);
    private final Runnable onWriteFailure;
    private final Thread writer;
    private final Thread reader;
    volatile boolean saidGoodbye;

    PeerConnection(int myRank, int peer, SocketChannel channel, TcpDevice device) {
        this.peer = peer;
        this.onWriteFailure = () -> device.connectionFailed(this, null);
        this.channel = channel;
        this.writer = new Thread(this::writeLoop, "tessera-tcp-w" + myRank + "-" + peer);
        this.reader = new Thread(() -> device.readLoop(this), "tessera-tcp-r" + myRank + "-" + peer);
        writer.setDaemon(true);
        reader.setDaemon(true);
    }

    void start() {
        writer.start();
        reader.start();
    }

    /** Serializes writes: the writer thread, or a caller writing inline when nothing is queued. */
    private final java.util.concurrent.locks.ReentrantLock writeLock = new java.util.concurrent.locks.ReentrantLock();
    private final ByteBuffer inlineStaging = ByteBuffer.allocateDirect(TcpIo.STAGING);

    /**
     * Sends a frame: written at once on the calling thread when nothing is queued before it
     * and no other thread is writing (the latency path: no thread handoff), else queued for
     * the writer thread, which keeps the order.
     */
    void send(Outgoing frame) {
        // Never inline on a reader thread: a reader blocked in a write while its peer's reader is
        // blocked the same way would deadlock the pair; readers always hand frames to the writer.
        if (!READER.get() && (frame.payload() == null || frame.payload().byteSize() <= TcpIo.STAGING)) {
            if (writeLock.tryLock()) {
                try {
                    if (queued.get() == 0) {
                        write(frame, inlineStaging);
                        return;
                    }
                } finally {
                    writeLock.unlock();
                }
            }
        }
        queued.incrementAndGet();
        queue.add(frame);
    }

    /** True on the reader threads of every connection. */
    static final ThreadLocal<Boolean> READER = ThreadLocal.withInitial(() -> false);

    /** Frames queued or being written by the writer thread; inline writes only when zero (keeps the order). */
    private final java.util.concurrent.atomic.AtomicInteger queued = new java.util.concurrent.atomic.AtomicInteger();

    /** Writes one frame and completes its request; on failure fails it and everything queued. */
    private void write(Outgoing f, ByteBuffer staging) {
        try {
            TcpIo.writeFully(channel, f.header().rewind());
            if (f.payload() != null && f.payload().byteSize() > 0) {
                TcpIo.writeSegment(channel, f.payload(), staging);
            }
        } catch (IOException | RuntimeException e) {
            if (f.completes() != null) {
                f.completes().complete(-1, -1, 0, -1,
                        new dev.tessera.TesseraException(dev.tessera.ErrorClass.PROC_FAILED,
                                "sending to rank " + peer + " failed: " + e.getMessage(), e));
            }
            drainWithError(e);
            onWriteFailure.run();
            return;
        }
        if (f.completes() != null) {
            f.completes().completeSend();
        }
    }

    private void writeLoop() {
        try {
            while (true) {
                Outgoing f = queue.take();
                if (f == STOP) {
                    queued.decrementAndGet();
                    return;
                }
                writeLock.lock();
                try {
                    write(f, writeStaging);
                    queued.decrementAndGet();
                } finally {
                    writeLock.unlock();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void drainWithError(Exception e) {
        Outgoing f;
        while ((f = queue.poll()) != null) {
            if (f.completes() != null) {
                f.completes().complete(-1, -1, 0, -1, new dev.tessera.TesseraException(dev.tessera.ErrorClass.PROC_FAILED,
                        "sending to rank " + peer + " failed: " + e.getMessage(), e));
            }
        }
    }

    /** Queues the stop marker and waits (bounded) for queued frames to go out. */
    void finishWriting(long millis) {
        queued.incrementAndGet();
        queue.add(STOP);
        try {
            writer.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a dead socket: nothing to do
        }
        try {
            reader.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
