package dev.tessera.device.tcp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.JobFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Builds the tcp device's all-to-all connections at startup. Every rank listens on an
 * ephemeral port and publishes "host port" through the rendezvous; rank i then connects
 * to every rank j < i and accepts one connection from every rank j > i, so each pair has
 * exactly one connection. Both ends of every connection prove to each other that they know
 * the job secret ({@link Handshake}, challenge-response: the secret never travels); anything
 * else is logged and dropped while the rank keeps accepting. Handshakes run concurrently,
 * each bounded in time, so idle or hostile connections cannot hold up the ranks. Once the
 * mesh is complete the listening socket is closed: nothing can connect later.
 */
public final class TcpMesh {

    private static final System.Logger LOG = System.getLogger("dev.tessera.device.tcp");

    /** How long one connection may take to complete its handshake (-Dtessera.tcp.handshakeSeconds). */
    static final Duration HANDSHAKE = Duration.ofSeconds(Long.getLong("tessera.tcp.handshakeSeconds", 10));

    /** Handshakes in progress at once; connections beyond that are closed at once. */
    static final int MAX_PENDING_HANDSHAKES = 1024;

    /**
     * What a rank needs to join: its rank, the job size, the job secret, where to
     * rendezvous, the address to listen on and advertise, and the startup timeout.
     */
    public record Spec(int rank, int size, String secret, Rendezvous rendezvous, InetAddress address,
                       Duration startTimeout, long eagerLimit, String node) {
        public Spec(int rank, int size, String secret, Rendezvous rendezvous, InetAddress address,
                    Duration startTimeout, long eagerLimit) {
            this(rank, size, secret, rendezvous, address, startTimeout, eagerLimit, "localhost");
        }
    }

    private TcpMesh() {
    }

    /** Connects this rank to all others and returns the started device. */
    public static TcpDevice connect(Spec spec, JobFailure failure) {
        return connect(spec, failure, new dev.tessera.device.MatchingEngine());
    }

    /** Connects with arrivals going into {@code engine} (shared with shared memory by the auto device). */
    public static TcpDevice connect(Spec spec, JobFailure failure, dev.tessera.device.MatchingEngine engine) {
        TcpDevice device = new TcpDevice(spec.rank(), spec.size(), spec.eagerLimit(), failure, engine);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(spec.address(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            spec.rendezvous().publish(spec.rank(), spec.address().getHostAddress() + " " + port + " "
                    + ProcessHandle.current().pid() + " " + spec.node().replaceAll("\\s", "_"));
            String[] table = spec.rendezvous().gather(spec.rank(), spec.size(), spec.startTimeout());
            String[] nodes = new String[table.length];
            for (int r = 0; r < table.length; r++) {
                String[] f = table[r].split("\\s+");
                nodes[r] = f.length > 3 ? f[3] : "localhost";
            }
            device.nodes(nodes);
            Thread acceptor = Thread.ofPlatform().daemon().name("tessera-tcp-accept-" + spec.rank())
                    .start(() -> acceptAll(server, spec, device));
            for (int peer = 0; peer < spec.rank(); peer++) {
                device.attach(peer, dial(table[peer], spec, peer));
            }
            acceptor.join(spec.startTimeout().toMillis() + 5000);
            for (int peer = spec.rank() + 1; peer < spec.size(); peer++) {
                if (!device.isAttached(peer)) {
                    throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + spec.rank() + ": startup timeout: rank "
                            + peer + " never connected within " + spec.startTimeout().toSeconds() + " s");
                }
            }
            device.startAll();
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + spec.rank() + ": cannot set up tcp connections: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TesseraException(ErrorClass.OTHER, "rank " + spec.rank() + ": interrupted during startup", e);
        }
        return device;
    }

    private static SocketChannel dial(String entry, Spec spec, int peer) throws IOException {
        String[] parts = entry.split("\\s+");
        InetSocketAddress target = new InetSocketAddress(parts[0], Integer.parseInt(parts[1]));
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        IOException refused = null;
        while (true) {
            SocketChannel ch = null;
            try {
                ch = SocketChannel.open();
                tune(ch);
                ch.connect(target);
                // One attempt waits at most HANDSHAKE for the other side's answers, then tries again.
                Handshake.send(ch, spec.rank(), peer, spec.secret(),
                        Math.min(deadline, System.nanoTime() + HANDSHAKE.toNanos()));
                return ch;
            } catch (IOException e) {
                if (ch != null) {
                    ch.close();
                }
                if (e instanceof Handshake.Refused) {
                    refused = e;
                }
                if (System.nanoTime() > deadline) {
                    // A listener that failed the proof is the story, more than the last attempt's timeout.
                    IOException reason = refused != null ? refused : e;
                    throw new IOException("cannot connect to rank " + peer + " at " + target + ": " + reason.getMessage(), reason);
                }
                LockSupport.parkNanos(20_000_000L);
            }
        }
    }

    /**
     * Accepts until every higher rank has connected. Each connection is authenticated on a
     * thread of its own within {@link #HANDSHAKE}, so connections that never complete a
     * handshake (idle, slow, hostile) delay nobody: the listener goes on accepting, and
     * such a connection is closed when its time is up.
     */
    private static void acceptAll(ServerSocketChannel server, Spec spec, TcpDevice device) {
        int expected = spec.size() - 1 - spec.rank();
        java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(MAX_PENDING_HANDSHAKES);
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        try {
            server.configureBlocking(false);
            while (accepted.get() < expected && System.nanoTime() < deadline) {
                SocketChannel ch = server.accept();
                if (ch == null) {
                    LockSupport.parkNanos(2_000_000L);
                    continue;
                }
                if (!inFlight.tryAcquire()) {
                    LOG.log(System.Logger.Level.WARNING, "rank " + spec.rank() + ": " + MAX_PENDING_HANDSHAKES
                            + " handshakes in progress; dropped a connection from " + remote(ch));
                    ch.close();
                    continue;
                }
                Thread.ofVirtual().name("tessera-tcp-handshake-" + spec.rank()).start(() -> {
                    try {
                        int peer = Handshake.receive(ch, spec.secret(), spec.rank(), spec.size(), HANDSHAKE);
                        tune(ch);
                        if (peer <= spec.rank() || !device.attachOnce(peer, ch)) {
                            throw new IOException("unexpected connection from rank " + peer);
                        }
                        accepted.incrementAndGet();
                    } catch (IOException | RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "rank " + spec.rank() + ": rejected connection from "
                                + remote(ch) + ": " + e.getMessage());
                        try {
                            ch.close();
                        } catch (IOException ignored) {
                            // closing a rejected connection
                        }
                    } finally {
                        inFlight.release();
                    }
                });
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "rank " + spec.rank() + ": accepting connections failed: " + e);
        }
    }

    /** TCP_NODELAY, and socket buffer sizes when set (-Dtessera.tcp.buffer=BYTES; default: the kernel's autotuning). */
    private static void tune(SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        int bytes = Integer.getInteger("tessera.tcp.buffer", 0);
        if (bytes > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, bytes);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
        }
    }

    private static String remote(SocketChannel ch) {
        try {
            return String.valueOf(ch.getRemoteAddress());
        } catch (IOException e) {
            return "?";
        }
    }
}
