package dev.tessera.device.tcp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.MatchingDevice;
import dev.tessera.device.BufferedMessage;
import dev.tessera.device.DeviceRequest;
import dev.tessera.device.Envelope;
import dev.tessera.device.IdleStrategy;
import dev.tessera.device.IncomingMessage;
import dev.tessera.device.JobFailure;
import dev.tessera.device.MatchingEngine;
import dev.tessera.device.ReceiveRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Ranks in separate processes (on one host or many) over TCP: one connection per pair
 * of ranks (see {@link TcpMesh}) and this rank's {@link MatchingEngine}, fed with each
 * sender's frames in order.
 *
 * <p>Progress: the sockets are non-blocking and a thread waiting in a call reads them
 * itself while it spins (as native MPI libraries poll), so a small message costs a
 * write on one side and a read on the other, with no thread handoff. When no thread has
 * polled for a millisecond (the rank computes, or its waiters have gone to sleep), the
 * device's progress thread takes over: it blocks in a selector and reads whatever comes,
 * so rendezvous handshakes, socket buffers and failures are handled at any time.
 *
 * <p>Protocols ({@link Frame} layout): a standard send up to the eager limit (64 KiB) is
 * one DATA frame written straight from the sender's buffer, completed once written. A
 * larger or synchronous send announces itself with RTS; when a receive matches, the
 * receiver answers CTS and the sender writes RDATA from its buffer, which is read
 * straight into the posted receive buffer. Both kinds travel in one ordered stream per
 * pair, so MPI's non-overtaking order holds across protocols. Messages to self match
 * locally, as on the smp device.
 *
 * <p>Failure: a connection that ends without a GOODBYE frame means the peer died; an
 * ABORT frame carries a peer's failure. Either is reported to the job's {@link JobFailure},
 * which wakes every blocked call on this rank with an error naming the rank.
 */
public final class TcpDevice extends MatchingDevice {

    /** Default eager limit of the tcp device. */
    public static final long DEFAULT_EAGER_LIMIT = 64 * 1024;

    private static final System.Logger LOG = System.getLogger("dev.tessera.device.tcp");

    private final int rank;
    private final int size;
    private final long eagerLimit;
    private final PeerConnection[] peers;
    private final AtomicInteger nextId = new AtomicInteger();
    private final Map<Integer, PendingSend> pendingSends = new ConcurrentHashMap<>();
    private final Map<Long, PendingReceive> pendingReceives = new ConcurrentHashMap<>();
    private volatile boolean closing;

    /** Threads polling the sockets in a wait right now; the progress thread stays out while there are any. */
    private final AtomicInteger pollers = new AtomicInteger();
    /** When the last poller stopped (nanoTime); the progress thread takes over a millisecond later. */
    private volatile long lastPollEnd;
    private static final long HANDOVER_NANOS = 1_000_000;
    private Selector selector;
    private Thread progressThread;
    private volatile boolean stopped;

    /** True on a thread that is reading a connection: frames it produces are deferred or queued, never written then. */
    private static final ThreadLocal<Boolean> READING = ThreadLocal.withInitial(() -> false);

    /** Frames a waiting thread produced while reading (CTS, RDATA): it writes them itself once it has stopped reading. */
    private static final ThreadLocal<java.util.ArrayDeque<Deferred>> DEFERRED =
            ThreadLocal.withInitial(java.util.ArrayDeque::new);

    private record Deferred(PeerConnection to, PeerConnection.Outgoing frame) {
    }

    /** Keeps a frame produced while reading for this thread to write after reading; false on the progress thread (queue it). */
    boolean defer(PeerConnection to, PeerConnection.Outgoing frame) {
        if (Thread.currentThread() == progressThread) {
            return false;
        }
        DEFERRED.get().add(new Deferred(to, frame));
        return true;
    }

    private record PendingSend(MemorySegment buffer, DeviceRequest request, int dest) {
    }

    /**
     * A job that goes on without a dead rank: the rendezvous sends waiting for its reply and the
     * matched receives waiting for its data fail, naming it.
     */
    private void failPendingWith(int dead) {
        for (var e : pendingSends.entrySet()) {
            if (e.getValue().dest() == dead && pendingSends.remove(e.getKey(), e.getValue())) {
                e.getValue().request().complete(dead, 0, 0, 0, JobFailure.rankFailed(rank, dead, "send to"));
            }
        }
        for (var e : pendingReceives.entrySet()) {
            Envelope env = e.getValue().envelope();
            if (env.source() == dead && pendingReceives.remove(e.getKey(), e.getValue())) {
                e.getValue().receive().complete(dead, env.tag(), 0, env.typeCode(),
                        JobFailure.rankFailed(rank, dead, "receive from"));
            }
        }
    }

    /** A matched remote rendezvous: the receive and the envelope the RTS announced. */
    private record PendingReceive(ReceiveRequest receive, Envelope envelope) {
    }

    /** Node name of every rank, as published at startup (for the auto device). */
    private String[] nodes = new String[0];

    TcpDevice(int rank, int size, long eagerLimit, JobFailure failure, MatchingEngine engine) {
        super(engine, failure, IdleStrategy.backoff());
        this.rank = rank;
        this.size = size;
        this.eagerLimit = eagerLimit;
        this.peers = new PeerConnection[size];
        failure.onRankDeath(this::failPendingWith);
    }

    /** Called by the mesh once a connection to {@code peer} is established. */
    synchronized void attach(int peer, java.nio.channels.SocketChannel channel) {
        peers[peer] = new PeerConnection(rank, peer, channel, this);
    }

    /** Attaches an accepted connection unless {@code peer} has one already; false then. */
    synchronized boolean attachOnce(int peer, java.nio.channels.SocketChannel channel) {
        if (peers[peer] != null) {
            return false;
        }
        attach(peer, channel);
        return true;
    }

    void nodes(String[] names) {
        this.nodes = names.clone();
    }

    /** The node (host, or TESSERA_NODE) of every rank. */
    public String[] nodes() {
        return nodes.clone();
    }

    synchronized boolean isAttached(int peer) {
        return peers[peer] != null;
    }

    void startAll() throws IOException {
        selector = Selector.open();
        for (PeerConnection c : peers) {
            if (c != null) {
                c.start().register(selector, SelectionKey.OP_READ, c);
            }
        }
        progressThread = Thread.ofPlatform().daemon().name("tessera-tcp-progress-" + rank).start(this::progressLoop);
    }

    JobFailure failure() {
        return failure;
    }

    boolean isClosing() {
        return closing;
    }

    static boolean isReading() {
        return READING.get();
    }

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long eagerLimit() {
        return eagerLimit;
    }

    // ------------------------------------------------------------------ sending

    @Override
    public DeviceRequest isend(MemorySegment buffer, int dest, int tag, int context, int typeCode, boolean synchronous) {
        failure.check();
        failure.checkPeer(rank, dest, "send to");
        DeviceRequest send = new DeviceRequest(DeviceRequest.Kind.SEND);
        long n = buffer.byteSize();
        boolean eager = !synchronous && n <= eagerLimit;
        if (dest == rank) {
            return deliverLocally(engine, buffer, new Envelope(rank, tag, context, n, typeCode), eager, send);
        }
        PeerConnection peer = peers[dest];
        if (eager) {
            peer.send(new PeerConnection.Outgoing(Frame.header(Frame.DATA, tag, context, typeCode, 0, n), buffer, send));
        } else {
            int id = nextId.incrementAndGet();
            pendingSends.put(id, new PendingSend(buffer, send, dest));
            peer.send(new PeerConnection.Outgoing(Frame.header(Frame.RTS, tag, context, typeCode, id, n), null, null));
        }
        return send;
    }

    // ------------------------------------------------------------------ receiving

    @Override
    public boolean progress() {
        PeerConnection[] list = polled;
        if (list == null) {
            return pumpAll();
        }
        boolean any = false;
        for (PeerConnection c : list) {
            if (pump(c)) {
                any = true;
            }
        }
        return any;
    }

    /** Connections that waiting threads poll, or null for all (the auto device leaves out same-node peers). */
    private volatile PeerConnection[] polled;

    /**
     * Waiting threads poll only the connections to these ranks (the auto device: ranks on
     * other nodes); the others carry only goodbyes and failure notices, which the progress
     * thread and {@link #close()} read.
     */
    public void pollOnly(int[] ranks) {
        polled = java.util.Arrays.stream(ranks).filter(r -> r != rank && peers[r] != null).mapToObj(r -> peers[r])
                .toArray(PeerConnection[]::new);
    }

    @Override
    protected void pollingStarted() {
        beginPolling();
    }

    @Override
    protected void pollingParks() {
        pollerParks();
    }

    @Override
    protected void pollingEnded(boolean parked) {
        endPolling(parked);
    }

    /** A thread starts polling in a wait: the progress thread keeps out of its way. */
    public void beginPolling() {
        pollers.incrementAndGet();
    }

    /** A polling thread is about to sleep: the progress thread takes over at once (and will wake it). */
    public void pollerParks() {
        pollers.decrementAndGet();
        lastPollEnd = System.nanoTime() - HANDOVER_NANOS;
        LockSupport.unpark(progressThread);
    }

    /** A polling thread's wait ended (unless it had parked, which ended its polling already). */
    public void endPolling(boolean parked) {
        if (!parked) {
            lastPollEnd = System.nanoTime();
            pollers.decrementAndGet();
        }
    }

    /** Reads every connection that has input and nobody else reading it; true if any frame arrived. */
    boolean pumpAll() {
        boolean any = false;
        for (PeerConnection c : peers) {
            if (c != null && pump(c)) {
                any = true;
            }
        }
        return any;
    }

    private boolean pump(PeerConnection c) {
        if (!c.readLock.tryLock()) {
            return false;
        }
        boolean nested = READING.get();
        if (!nested) {
            READING.set(true);
        }
        try {
            if (c.inputClosed || (!c.fill() && !c.input.hasRemaining())) {
                return false;
            }
            while (c.input.hasRemaining() && !c.inputClosed) {
                c.need(Frame.HEADER_BYTES);
                frame(c);
            }
            return true;
        } catch (IOException | RuntimeException e) {
            endInput(c);
            connectionFailed(c, e);
            return true;
        } finally {
            c.readLock.unlock();
            if (!nested) {
                READING.set(false);
                java.util.ArrayDeque<Deferred> out = DEFERRED.get();
                Deferred d;
                while ((d = out.poll()) != null) {
                    d.to().send(d.frame());
                }
            }
        }
    }

    /** The progress thread: reads for the rank whenever no thread of it is polling. */
    private void progressLoop() {
        READING.set(true);
        while (!stopped) {
            try {
                long quiet = System.nanoTime() - lastPollEnd;
                if (pollers.get() > 0 || quiet < HANDOVER_NANOS) {
                    LockSupport.parkNanos(HANDOVER_NANOS);
                    continue;
                }
                int ready = selector.select(1000);
                selector.selectedKeys().clear();
                if (!pumpAll() && ready > 0) {
                    // another thread holds the input: let it work
                    LockSupport.parkNanos(100_000);
                }
            } catch (IOException | java.nio.channels.ClosedSelectorException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "tcp progress thread", e);
            }
        }
    }

    private void endInput(PeerConnection c) {
        c.inputClosed = true;
        SelectionKey k = selector == null ? null : c.channel.keyFor(selector);
        if (k != null) {
            k.cancel();
        }
    }

    /** A remote message announced by RTS: matching it sends CTS, and the reader fills the receive when RDATA comes. */
    private final class RemoteRendezvous extends IncomingMessage {
        private final PeerConnection from;
        private final int id;

        RemoteRendezvous(Envelope env, PeerConnection from, int id) {
            super(env);
            this.from = from;
            this.id = id;
        }

        @Override
        public void deliver(ReceiveRequest receive) {
            pendingReceives.put(key(from.peer, id), new PendingReceive(receive, envelope()));
            from.send(new PeerConnection.Outgoing(Frame.header(Frame.CTS, 0, 0, 0, id, 0), null, null));
        }

        @Override
        public void copyTo(MemorySegment destination, long byteCount) {
            throw new IllegalStateException("a remote rendezvous message is received through CTS/RDATA");
        }
    }

    private static long key(int peer, int id) {
        return ((long) peer << 32) | (id & 0xFFFFFFFFL);
    }

    /** Handles the frame whose header starts the input buffer (reading its payload). */
    private void frame(PeerConnection c) throws IOException {
        ByteBuffer in = c.input;
        int p = in.position();
        if (in.getInt(p + Frame.OFF_MAGIC) != Frame.MAGIC) {
            throw new CorruptFrame("corrupt frame from rank " + c.peer + " (bad magic)");
        }
        byte type = in.get(p + Frame.OFF_TYPE);
        long len = in.getLong(p + Frame.OFF_LENGTH);
        if (len < 0 || len > Frame.MAX_LENGTH) {
            throw new CorruptFrame("corrupt frame from rank " + c.peer + " (length " + len + ")");
        }
        Envelope env = new Envelope(c.peer, in.getInt(p + Frame.OFF_TAG), in.getInt(p + Frame.OFF_CONTEXT), len,
                in.getInt(p + Frame.OFF_TYPE_CODE));
        int id = in.getInt(p + Frame.OFF_ID);
        in.position(p + Frame.HEADER_BYTES);
        switch (type) {
            case Frame.DATA -> onData(c, env, len);
            case Frame.RTS -> {
                RemoteRendezvous m = new RemoteRendezvous(env, c, id);
                ReceiveRequest r = engine.arrive(m);
                if (r != null) {
                    m.deliver(r);
                }
            }
            case Frame.CTS -> {
                PendingSend s = pendingSends.remove(id);
                if (s == null) {
                    throw new CorruptFrame("corrupt frame from rank " + c.peer + " (CTS for unknown rendezvous " + id + ")");
                }
                c.send(new PeerConnection.Outgoing(Frame.header(Frame.RDATA, 0, 0, 0, id, s.buffer().byteSize()),
                        s.buffer(), s.request()));
            }
            case Frame.RDATA -> onRendezvousData(c, id, len);
            case Frame.GOODBYE -> {
                endInput(c);
                c.saidGoodbye = true;
            }
            case Frame.ABORT -> {
                byte[] text = new byte[(int) Math.min(len, 64 * 1024)];
                c.consume(text.length, MemorySegment.ofArray(text));
                endInput(c);
                // the tag field names the rank that failed first (1-based; 0 or out of range: the sender itself)
                int origin = env.tag() > 0 && env.tag() <= size ? env.tag() - 1 : c.peer;
                failure.report(origin, new JobFailure.Notice(new String(text, StandardCharsets.UTF_8)));
            }
            default -> throw new CorruptFrame("corrupt frame from rank " + c.peer + " (type " + type + ")");
        }
    }

    /** A frame that breaks the protocol: the connection cannot be trusted further. */
    static final class CorruptFrame extends IOException {
        CorruptFrame(String message) {
            super(message);
        }
    }

    /** A connection broke (read or write side): unless it was closed on purpose, the peer has failed. */
    void connectionFailed(PeerConnection conn, Exception e) {
        if (e instanceof CorruptFrame && !closing) {
            LOG.log(System.Logger.Level.DEBUG, "connection to rank " + conn.peer + " closed", e);
            failure.report(conn.peer, new RemoteRankFailure(e.getMessage()
                    + " on the tcp connection to rank " + rank + "; connection closed (a bug, memory corruption, or "
                    + "something that is not Tessera writing to the connection)"));
            return;
        }
        if (!conn.saidGoodbye && !closing) {
            LOG.log(System.Logger.Level.DEBUG, "connection to rank " + conn.peer + " ended", e);
            failure.rankDied(conn.peer, new RemoteRankFailure("connection lost ("
                    + (e == null ? "write failed" : e.getMessage())
                    + "): the process of rank " + conn.peer + " died or was killed"));
        }
    }

    private void onData(PeerConnection c, Envelope env, long len) throws IOException {
        if (len > Integer.MAX_VALUE - 16) {
            throw new CorruptFrame("corrupt frame from rank " + c.peer + " (a data frame of " + len + " bytes)");
        }
        if (len <= c.input.capacity() - Frame.HEADER_BYTES) {
            // the payload fits the input buffer (every eager message does): gather it there, then
            // one copy, into the posted receive if there is one
            c.need((int) len);
            int pos = c.input.position();
            MemorySegment payload = c.inputSegment.asSlice(pos, len);
            ReceiveRequest r = engine.arrive(env, () -> BufferedMessage.copyOf(env, payload));
            if (r != null) {
                r.accept(env, (dst, n) -> MemorySegment.copy(payload, 0, dst, 0, n));
            }
            c.input.position(pos + (int) len);
            return;
        }
        byte[] data = new byte[(int) len];
        c.consume(len, MemorySegment.ofArray(data));
        BufferedMessage m = new BufferedMessage(env, MemorySegment.ofArray(data));
        ReceiveRequest r = engine.arrive(m);
        if (r != null) {
            m.deliver(r);
        }
    }

    private void onRendezvousData(PeerConnection c, int id, long len) throws IOException {
        PendingReceive pending = pendingReceives.remove(key(c.peer, id));
        if (pending == null) {
            throw new CorruptFrame("corrupt frame from rank " + c.peer + " (RDATA for unknown rendezvous " + id + ")");
        }
        ReceiveRequest r = pending.receive();
        Envelope announced = pending.envelope();
        long[] copied = {0};
        r.accept(new Envelope(c.peer, announced.tag(), announced.context(), len, announced.typeCode()),
                (dst, n) -> {
                    try {
                        c.consume(n, dst.asSlice(0, n));
                        copied[0] = n;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        c.consume(len - copied[0], null);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void abort(int failedRank, Throwable cause) {
        super.abort(failedRank, cause);
        // the notice names the job's first failure: a rank that stops because another failed relays it
        JobFailure.Origin origin = failure.origin();
        byte[] bytes = origin.reason().getBytes(StandardCharsets.UTF_8);
        for (PeerConnection c : peers) {
            if (c != null) {
                c.send(new PeerConnection.Outgoing(Frame.header(Frame.ABORT, origin.rank() + 1, 0, 0, 0, bytes.length),
                        MemorySegment.ofArray(bytes), null));
            }
        }
        for (PeerConnection c : peers) {
            if (c != null) {
                c.finishWriting(2000);
            }
        }
    }

    @Override
    public void close() {
        if (closing || failure.hasFailed()) {
            return;
        }
        closing = true;
        for (PeerConnection c : peers) {
            if (c != null) {
                c.send(new PeerConnection.Outgoing(Frame.header(Frame.GOODBYE, 0, 0, 0, 0, 0), null, null));
            }
        }
        for (PeerConnection c : peers) {
            if (c != null) {
                c.finishWriting(5000);
            }
        }
        // Wait (bounded, failure-aware) for every peer's GOODBYE: closing with unread input would reset the connection and cut off data in flight.
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (PeerConnection c : peers) {
            while (c != null && !c.saidGoodbye && !failure.hasFailed() && !failure.isDead(c.peer)
                    && System.nanoTime() < deadline) {
                pumpAll();
                LockSupport.parkNanos(200_000);
            }
        }
        stopProgress();
        for (PeerConnection c : peers) {
            if (c != null) {
                c.close();
            }
        }
    }

    private void stopProgress() {
        stopped = true;
        if (selector != null) {
            selector.wakeup();
        }
        if (progressThread != null && progressThread != Thread.currentThread()) {
            LockSupport.unpark(progressThread);
            try {
                progressThread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            if (selector != null) {
                selector.close();
            }
        } catch (IOException ignored) {
            // nothing to release
        }
    }

    /** The failure of another rank, as its connection reported it. */
    static final class RemoteRankFailure extends TesseraException {
        RemoteRankFailure(String message) {
            super(ErrorClass.PROC_FAILED, message);
        }
    }
}
