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
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ranks in separate processes (on one host or many) over TCP: one connection per pair
 * of ranks (see {@link TcpMesh}), a writer and a reader thread per connection, and this
 * rank's {@link MatchingEngine} fed by the readers in each sender's order.
 *
 * <p>Protocols ({@link Frame} layout): a standard send up to the eager limit (64 KiB) is
 * one DATA frame written straight from the sender's buffer, completed once written. A
 * larger or synchronous send announces itself with RTS; when a receive matches, the
 * receiver answers CTS and the sender writes RDATA from its buffer, which the reader
 * reads straight into the posted receive buffer. Both kinds travel in one ordered stream
 * per pair, so MPI's non-overtaking order holds across protocols. Messages to self match
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

    private record PendingSend(MemorySegment buffer, DeviceRequest request) {
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
    }

    /** Called by the mesh once a connection to {@code peer} is established. */
    synchronized void attach(int peer, java.nio.channels.SocketChannel channel) {
        peers[peer] = new PeerConnection(rank, peer, channel, this);
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

    void startAll() {
        for (PeerConnection c : peers) {
            if (c != null) {
                c.start();
            }
        }
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
            pendingSends.put(id, new PendingSend(buffer, send));
            peer.send(new PeerConnection.Outgoing(Frame.header(Frame.RTS, tag, context, typeCode, id, n), null, null));
        }
        return send;
    }

    // ------------------------------------------------------------------ receiving

    @Override
    public boolean progress() {
        return false;
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

    /** The reader thread of one connection: frames in, in order. */
    void readLoop(PeerConnection conn) {
        PeerConnection.READER.set(true);
        ByteBuffer h = ByteBuffer.allocate(Frame.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (true) {
                h.clear();
                TcpIo.readFully(conn.channel, h);
                if (h.getInt(Frame.OFF_MAGIC) != Frame.MAGIC) {
                    throw new IOException("corrupt frame from rank " + conn.peer + " (bad magic)");
                }
                byte type = h.get(Frame.OFF_TYPE);
                long len = h.getLong(Frame.OFF_LENGTH);
                if (len < 0 || len > Frame.MAX_LENGTH) {
                    throw new IOException("corrupt frame from rank " + conn.peer + " (length " + len + ")");
                }
                Envelope env = new Envelope(conn.peer, h.getInt(Frame.OFF_TAG), h.getInt(Frame.OFF_CONTEXT), len,
                        h.getInt(Frame.OFF_TYPE_CODE));
                int id = h.getInt(Frame.OFF_ID);
                switch (type) {
                    case Frame.DATA -> onData(conn, env, len);
                    case Frame.RTS -> {
                        RemoteRendezvous m = new RemoteRendezvous(env, conn, id);
                        ReceiveRequest r = engine.arrive(m);
                        if (r != null) {
                            m.deliver(r);
                        }
                    }
                    case Frame.CTS -> {
                        PendingSend s = pendingSends.remove(id);
                        if (s == null) {
                            throw new IOException("CTS for unknown rendezvous " + id + " from rank " + conn.peer);
                        }
                        conn.send(new PeerConnection.Outgoing(Frame.header(Frame.RDATA, 0, 0, 0, id, s.buffer().byteSize()),
                                s.buffer(), s.request()));
                    }
                    case Frame.RDATA -> onRendezvousData(conn, id, len);
                    case Frame.GOODBYE -> {
                        conn.saidGoodbye = true;
                        return;
                    }
                    case Frame.ABORT -> {
                        ByteBuffer text = ByteBuffer.allocate((int) Math.min(len, 64 * 1024));
                        TcpIo.readFully(conn.channel, text);
                        failure.report(conn.peer, new RemoteRankFailure(new String(text.array(), StandardCharsets.UTF_8)));
                        return;
                    }
                    default -> throw new IOException("corrupt frame from rank " + conn.peer + " (type " + type + ")");
                }
            }
        } catch (IOException | RuntimeException e) {
            connectionFailed(conn, e);
        }
    }

    /** A connection broke (read or write side): unless it was closed on purpose, the peer has failed. */
    void connectionFailed(PeerConnection conn, Exception e) {
        if (!conn.saidGoodbye && !closing) {
            LOG.log(System.Logger.Level.DEBUG, "connection to rank " + conn.peer + " ended", e);
            failure.report(conn.peer, new RemoteRankFailure("connection lost ("
                    + (e == null ? "write failed" : e.getMessage())
                    + "): the process of rank " + conn.peer + " died or was killed"));
        }
    }

    private void onData(PeerConnection conn, Envelope env, long len) throws IOException {
        if (len > Integer.MAX_VALUE - 16) {
            throw new IOException("eager frame of " + len + " bytes from rank " + conn.peer);
        }
        byte[] data = new byte[(int) len];
        TcpIo.readFully(conn.channel, ByteBuffer.wrap(data));
        BufferedMessage m = new BufferedMessage(env, MemorySegment.ofArray(data));
        ReceiveRequest r = engine.arrive(m);
        if (r != null) {
            m.deliver(r);
        }
    }

    private void onRendezvousData(PeerConnection conn, int id, long len) throws IOException {
        PendingReceive pending = pendingReceives.remove(key(conn.peer, id));
        if (pending == null) {
            throw new IOException("RDATA for unknown rendezvous " + id + " from rank " + conn.peer);
        }
        ReceiveRequest r = pending.receive();
        Envelope announced = pending.envelope();
        long[] copied = {0};
        r.accept(new Envelope(conn.peer, announced.tag(), announced.context(), len, announced.typeCode()),
                (dst, n) -> {
                    try {
                        TcpIo.readSegment(conn.channel, dst.asSlice(0, n), conn.readStaging);
                        copied[0] = n;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        skip(conn, len - copied[0]);
    }

    private static void skip(PeerConnection conn, long bytes) throws IOException {
        ByteBuffer sink = ByteBuffer.allocate((int) Math.min(bytes, 1 << 16));
        while (bytes > 0) {
            sink.clear().limit((int) Math.min(bytes, sink.capacity()));
            TcpIo.readFully(conn.channel, sink);
            bytes -= sink.limit();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void abort(int failedRank, Throwable cause) {
        super.abort(failedRank, cause);
        String text = "rank " + failedRank + " failed: " + cause;
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (PeerConnection c : peers) {
            if (c != null) {
                c.send(new PeerConnection.Outgoing(Frame.header(Frame.ABORT, 0, 0, 0, 0, bytes.length),
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
            while (c != null && !c.saidGoodbye && !failure.hasFailed() && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }
        for (PeerConnection c : peers) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** The failure of another rank, as its connection reported it. */
    static final class RemoteRankFailure extends TesseraException {
        RemoteRankFailure(String message) {
            super(ErrorClass.PROC_FAILED, message);
        }
    }
}
