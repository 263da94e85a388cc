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
 * exactly one connection. Accepted connections must pass the {@link Handshake} (job
 * secret); anything else is logged and dropped while the rank keeps accepting. Once the
 * mesh is complete the listening socket is closed: nothing can connect later.
 */
public final class TcpMesh {

    private static final System.Logger LOG = System.getLogger("dev.tessera.device.tcp");

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
        while (true) {
            try {
                SocketChannel ch = SocketChannel.open();
                tune(ch);
                ch.connect(target);
                Handshake.send(ch, spec.rank(), spec.secret());
                return ch;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("cannot connect to rank " + peer + " at " + target + ": " + e.getMessage(), e);
                }
                LockSupport.parkNanos(20_000_000L);
            }
        }
    }

    private static void acceptAll(ServerSocketChannel server, Spec spec, TcpDevice device) {
        int expected = spec.size() - 1 - spec.rank();
        int accepted = 0;
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        try {
            server.configureBlocking(false);
            while (accepted < expected && System.nanoTime() < deadline) {
                SocketChannel ch = server.accept();
                if (ch == null) {
                    LockSupport.parkNanos(2_000_000L);
                    continue;
                }
                try {
                    int peer = Handshake.receive(ch, spec.secret(), spec.size(), Duration.ofSeconds(5));
                    if (peer <= spec.rank() || device.isAttached(peer)) {
                        throw new IOException("unexpected connection from rank " + peer);
                    }
                    tune(ch);
                    device.attach(peer, ch);
                    accepted++;
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "rank " + spec.rank() + ": rejected connection from "
                            + remote(ch) + ": " + e.getMessage());
                    ch.close();
                }
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
