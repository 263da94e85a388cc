package dev.tessera.device.tcp;

import dev.tessera.device.DeviceRequest;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connection to one peer: a non-blocking socket, an input buffer that whichever
 * thread holds {@link #readLock} fills and parses (a rank's waiting threads, or the
 * device's progress thread when nobody waits), and a writer thread for frames that cannot
 * go out at once on the calling thread.
 *
 * <p>Writes: a small frame is written on the caller's thread when nothing is queued before
 * it (the latency path, no thread handoff); everything else, and every frame produced
 * while reading (CTS, RDATA), goes through the queue, in order. A writer that finds the
 * socket full reads meanwhile, so two ranks writing large messages to each other never
 * wait on each other.
 */
final class PeerConnection {

    /** A frame to send: header, optional payload (written straight from the user's buffer), request to complete. */
    record Outgoing(ByteBuffer header, MemorySegment payload, DeviceRequest completes) {
    }

    private static final Outgoing STOP = new Outgoing(null, null, null);
    private static final System.Logger LOG = System.getLogger("dev.tessera.device.tcp");

    /**
     * Congestion control for the device's connections (-Dtessera.tcp.congestion, or
     * TESSERA_TCP_CONGESTION; "system" keeps the kernel's default). Default cubic: with BBR,
     * which some cloud images make the default, the device's loopback streams of 64-256 KiB
     * messages ran at 1.2-1.5 GB/s instead of 4-6 (BBR paces, and after the spurious
     * retransmissions a fully loaded 2-core host causes, its rate estimate collapses); Linux's
     * usual default, cubic, is what cluster networks are tuned for.
     */
    static final String CONGESTION = System.getProperty("tessera.tcp.congestion",
            System.getenv().getOrDefault("TESSERA_TCP_CONGESTION", "cubic")).trim();

    /** Size of the input buffer: a header and an eager payload usually arrive with one read. */
    static final int INPUT_BYTES = 64 * 1024 + 2 * Frame.HEADER_BYTES;

    final int peer;
    final SocketChannel channel;
    private final TcpDevice device;
    private final LinkedBlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
    /** Frames from heap memory are assembled here (guarded by writeLock): header and eager payload in one write. */
    private final ByteBuffer staging = ByteBuffer.allocateDirect(INPUT_BYTES);
    private final MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    /** Large payloads from heap memory go out through this, allocated on first use (guarded by writeLock). */
    private ByteBuffer bulkOut;
    private final Thread writer;
    /** Serializes writes: the writer thread, or a caller writing inline when nothing is queued. */
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Frames queued or being written by the writer thread; inline writes only when zero (keeps the order). */
    private final AtomicInteger queued = new AtomicInteger();
    private Selector writeSelector;
    /** The socket's descriptor for heap payloads without staging copies; null where unavailable. */
    private volatile RawSocket raw;

    /** Held by the thread that reads this connection's input; tried, never waited for, by pollers. */
    final ReentrantLock readLock = new ReentrantLock();
    /** Input bytes not yet parsed, between position and limit (read mode). */
    final ByteBuffer input = ByteBuffer.allocateDirect(INPUT_BYTES).order(ByteOrder.LITTLE_ENDIAN).flip();
    /** The whole input buffer as a segment, for copies out of it. */
    final MemorySegment inputSegment = MemorySegment.ofBuffer(input.duplicate().clear());
    private Selector readSelector;
    /** Set once input has ended: GOODBYE, ABORT or a broken connection. Guarded by readLock. */
    boolean inputClosed;
    volatile boolean saidGoodbye;

    PeerConnection(int myRank, int peer, SocketChannel channel, TcpDevice device) {
        this.peer = peer;
        this.channel = channel;
        this.device = device;
        this.writer = new Thread(this::writeLoop, "tessera-tcp-w" + myRank + "-" + peer);
        writer.setDaemon(true);
    }

    /** Switches the socket to non-blocking mode and starts the writer; returns the socket for the progress selector. */
    SocketChannel start() throws IOException {
        channel.configureBlocking(false);
        raw = RawSocket.of(channel);
        if (raw != null && !CONGESTION.isEmpty() && !CONGESTION.equals("system")) {
            String now = raw.congestionControl(CONGESTION);
            if (!now.equals(CONGESTION)) {
                LOG.log(System.Logger.Level.DEBUG, "connection to rank " + peer + ": congestion control " + CONGESTION
                        + " refused, using " + now);
            }
        }
        readSelector = Selector.open();
        channel.register(readSelector, SelectionKey.OP_READ);
        writeSelector = Selector.open();
        channel.register(writeSelector, SelectionKey.OP_WRITE);
        writer.start();
        return channel;
    }

    // ------------------------------------------------------------------ writing

    /**
     * Sends a frame: written at once on the calling thread when nothing is queued before it
     * and no other thread is writing, else queued for the writer thread, which keeps the order.
     */
    void send(Outgoing frame) {
        if (TcpDevice.isReading()) {
            // produced while reading: never written under a read lock (two ranks could wait on each other's reads)
            if (!device.defer(this, frame)) {
                enqueue(frame);
            }
            return;
        }
        if (writeLock.tryLock()) {
            try {
                // not inside this thread's own write of another frame (a write that reads while the socket is full)
                if (queued.get() == 0 && writeLock.getHoldCount() == 1) {
                    write(frame);
                    return;
                }
            } finally {
                writeLock.unlock();
            }
        }
        enqueue(frame);
    }

    private void enqueue(Outgoing frame) {
        queued.incrementAndGet();
        queue.add(frame);
    }

    /** Writes one frame and completes its request; on failure fails it and everything queued. */
    private void write(Outgoing f) {
        try {
            ByteBuffer header = f.header().rewind();
            MemorySegment payload = f.payload();
            long n = payload == null ? 0 : payload.byteSize();
            ByteBuffer direct = n == 0 ? null : TcpIo.view(payload);
            if (n == 0) {
                writeFully(header);
            } else if (direct != null) {
                writeFully(header, direct);
            } else if (n <= staging.capacity() - Frame.HEADER_BYTES) {
                // header and payload in one write: one segment on the wire, one read at the other end
                staging.clear().put(header);
                MemorySegment.copy(payload, 0, stagingSegment, Frame.HEADER_BYTES, n);
                writeFully(staging.position(0).limit(Frame.HEADER_BYTES + (int) n));
            } else {
                writeFully(header);
                writeSegment(payload);
            }
        } catch (IOException | RuntimeException e) {
            if (f.completes() != null) {
                f.completes().complete(peer, -1, 0, -1, new dev.tessera.RankFailedException(peer,
                        "sending to rank " + peer + " failed: " + e.getMessage(), e));
            }
            drainWithError(e);
            device.connectionFailed(this, e);
            return;
        }
        if (f.completes() != null) {
            f.completes().completeSend();
        }
    }

    /** Gathering write of a header and its payload (one system call, one segment for small messages). */
    private void writeFully(ByteBuffer header, ByteBuffer payload) throws IOException {
        ByteBuffer[] both = {header, payload};
        while (payload.hasRemaining()) {
            if (channel.write(both) == 0) {
                waitWritable();
            }
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (channel.write(b) == 0) {
                waitWritable();
            } else {
                fullSince = 0;
            }
        }
    }

    /** How long a reader or writer in the middle of a frame polls before it sleeps in a selector. */
    private static final long SPIN_NANOS = 200_000;
    /** When the socket became full in the current write (0: it is not), guarded by writeLock. */
    private long fullSince;
    private int fullPolls;

    /**
     * The socket is full: the peer is reading (or waits for us to read what it sent, which
     * we do meanwhile). Poll for a while, as the peer drains the socket in moments when it
     * is busy with this frame, then sleep in the selector (briefly, to notice failures).
     */
    private void waitWritable() throws IOException {
        long now = System.nanoTime();
        if (fullSince == 0) {
            fullSince = now;
        }
        if ((++fullPolls & 15) == 0) {
            device.failure().check();
            if (device.isClosing() && !channel.isOpen()) {
                throw new EOFException("connection closed");
            }
            device.pumpAll();
        }
        if (now - fullSince < SPIN_NANOS) {
            Thread.onSpinWait();
            return;
        }
        device.pumpAll();
        writeSelector.selectedKeys().clear();
        writeSelector.select(10);
    }

    /** Writes a large heap segment: straight from the array where the descriptor is known, else through the bulk buffer. */
    private void writeSegment(MemorySegment seg) throws IOException {
        if (raw != null) {
            for (long off = 0; off < seg.byteSize(); ) {
                long n = raw.write(seg, off);
                if (n == 0) {
                    waitWritable();
                } else {
                    fullSince = 0;
                    off += n;
                }
            }
            return;
        }
        if (bulkOut == null) {
            bulkOut = ByteBuffer.allocateDirect(TcpIo.STAGING);
        }
        MemorySegment stage = MemorySegment.ofBuffer(bulkOut.clear());
        for (long off = 0; off < seg.byteSize(); off += bulkOut.capacity()) {
            int n = (int) Math.min(bulkOut.capacity(), seg.byteSize() - off);
            MemorySegment.copy(seg, off, stage, 0, n);
            writeFully(bulkOut.clear().limit(n));
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
                    write(f);
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
                f.completes().complete(peer, -1, 0, -1, new dev.tessera.RankFailedException(peer,
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

    // ------------------------------------------------------------------ reading (caller holds readLock)

    /** Reads what the socket has now into the input buffer, without waiting; false if nothing came. */
    boolean fill() throws IOException {
        input.compact();
        int n;
        try {
            n = channel.read(input);
        } finally {
            input.flip();
        }
        if (n < 0) {
            throw new EOFException("connection closed by peer");
        }
        if (n > 0) {
            emptySince = 0;
        }
        return n > 0;
    }

    /** Makes sure {@code bytes} input bytes are buffered, waiting for the rest of a frame already under way. */
    void need(int bytes) throws IOException {
        while (input.remaining() < bytes) {
            if (!fill()) {
                waitReadable();
            }
        }
    }

    /**
     * Moves the next {@code count} bytes of the stream into {@code dst} (null: discards
     * them): first what is buffered, then straight from the socket into native and byte[]
     * memory, through the input buffer into other heap arrays.
     */
    void consume(long count, MemorySegment dst) throws IOException {
        long done = 0;
        int buffered = (int) Math.min(count, input.remaining());
        if (buffered > 0) {
            if (dst != null) {
                MemorySegment.copy(inputSegment, input.position(), dst, 0, buffered);
            }
            input.position(input.position() + buffered);
            done = buffered;
        }
        ByteBuffer direct = dst == null || done == count ? null : TcpIo.view(dst.asSlice(done, count - done));
        if (direct != null) {
            while (direct.hasRemaining()) {
                int n = channel.read(direct);
                if (n < 0) {
                    throw new EOFException("connection closed by peer");
                }
                if (n == 0) {
                    waitReadable();
                } else {
                    emptySince = 0;
                }
            }
            return;
        }
        if (dst != null && count - done > input.capacity()) {
            done = consumeBulk(count, done, dst);
        }
        while (done < count) {
            need(1);
            int n = (int) Math.min(count - done, input.remaining());
            if (dst != null) {
                MemorySegment.copy(inputSegment, input.position(), dst, done, n);
            }
            input.position(input.position() + n);
            done += n;
        }
    }

    /** Large payloads into heap memory come in through this, allocated on first use (guarded by readLock). */
    private ByteBuffer bulkIn;

    /**
     * Reads a large part of a payload (input buffer already empty) into a heap segment:
     * all of it straight into the array where the descriptor is known, else the part above
     * the input buffer's size through the bulk buffer.
     */
    private long consumeBulk(long count, long done, MemorySegment dst) throws IOException {
        if (raw != null) {
            while (done < count) {
                long n = raw.read(dst, done, count - done);
                if (n == 0) {
                    waitReadable();
                } else {
                    emptySince = 0;
                    done += n;
                }
            }
            return done;
        }
        if (bulkIn == null) {
            bulkIn = ByteBuffer.allocateDirect(TcpIo.STAGING);
        }
        MemorySegment stage = MemorySegment.ofBuffer(bulkIn.clear());
        while (count - done > input.capacity()) {
            bulkIn.clear().limit((int) Math.min(bulkIn.capacity(), count - done));
            int n = channel.read(bulkIn);
            if (n < 0) {
                throw new EOFException("connection closed by peer");
            }
            if (n == 0) {
                waitReadable();
                continue;
            }
            emptySince = 0;
            MemorySegment.copy(stage, 0, dst, done, n);
            done += n;
        }
        return done;
    }

    /** When reads within the current frame started coming back empty (0: they do not), guarded by readLock. */
    private long emptySince;
    private int emptyReads;

    /**
     * The rest of a frame is on its way: poll for a while (the peer is writing it), then
     * sleep in the selector (briefly, so a job failure is noticed).
     */
    private void waitReadable() throws IOException {
        long now = System.nanoTime();
        if (emptySince == 0) {
            emptySince = now;
        }
        if ((++emptyReads & 255) == 0) {
            device.failure().check();
        }
        if (now - emptySince < SPIN_NANOS) {
            Thread.onSpinWait();
            return;
        }
        device.failure().check();
        readSelector.selectedKeys().clear();
        readSelector.select(10);
    }

    void close() {
        if (raw != null) {
            raw.close(); // no raw read or write on the descriptor once the channel has closed it
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a dead socket: nothing to do
        }
        for (Selector s : new Selector[] {readSelector, writeSelector}) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing to release
                }
            }
        }
    }
}
