package dev.tessera.device.tcp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Rendezvous through a TCP store on rank 0 ({@code TESSERA_ROOT=host:port}, like
 * MASTER_ADDR/MASTER_PORT): rank 0 listens there, every other rank connects and sends
 * its rank and line, and once all have arrived rank 0 answers each with the whole table.
 * Store and rank first prove to each other that they know the job secret (HMAC-SHA256 over
 * fresh nonces of both, compared in constant time, as in the device's {@link Handshake}; the
 * secret never travels); anything else is dropped. Each connection is handled on its own
 * thread within a bounded time, so idle connections delay nobody. The store closes after
 * the exchange.
 */
public final class TcpStoreRendezvous implements Rendezvous {

    private static final int MAGIC = 0x54535452;

    private final String host;
    private final int port;
    private final String secret;
    private final ServerSocket server;
    private String myLine;

    /** Rank 0 binds the store at once, so that early ranks can connect while it starts up. */
    public TcpStoreRendezvous(String root, int rank, String secret) {
        int colon = root.lastIndexOf(':');
        if (colon <= 0) {
            throw new TesseraException(ErrorClass.ARG, "TESSERA_ROOT must be host:port, got '" + root + "'");
        }
        this.host = root.substring(0, colon);
        int requested = Integer.parseInt(root.substring(colon + 1));
        this.secret = secret;
        try {
            this.server = rank == 0 ? new ServerSocket() : null;
            if (server != null) {
                server.setReuseAddress(true);
                server.bind(new InetSocketAddress(host, requested));
            }
            this.port = server != null ? server.getLocalPort() : requested;
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rank 0: cannot listen on TESSERA_ROOT " + root + ": " + e, e);
        }
    }

    /** The store's port: on rank 0 the one it listens on (the system's choice when TESSERA_ROOT's port is 0). */
    public int port() {
        return port;
    }

    @Override
    public void publish(int rank, String line) {
        myLine = line;
    }

    @Override
    public String[] gather(int me, int size, Duration timeout) {
        try {
            return me == 0 ? serve(size, timeout) : ask(me, timeout);
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + me + ": rendezvous through TESSERA_ROOT "
                    + host + ":" + port + " failed: " + e, e);
        }
    }

    private String[] serve(int size, Duration timeout) throws IOException {
        String[] lines = new String[size];
        lines[0] = myLine;
        Socket[] clients = new Socket[size];
        java.util.concurrent.atomic.AtomicInteger arrived = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(TcpMesh.MAX_PENDING_HANDSHAKES);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (server) {
            while (arrived.get() < size - 1) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    List<Integer> missing = new ArrayList<>();
                    synchronized (lines) {
                        for (int r = 1; r < size; r++) {
                            if (lines[r] == null) {
                                missing.add(r);
                            }
                        }
                    }
                    throw new TesseraException(ErrorClass.PROC_FAILED, "rank 0: startup timeout after "
                            + timeout.toSeconds() + " s: rank(s) " + missing + " never reached TESSERA_ROOT " + host + ":" + port);
                }
                // Short waits: a joiner authenticated on another thread ends the loop soon after.
                server.setSoTimeout((int) Math.min(left, 50));
                Socket s;
                try {
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (!inFlight.tryAcquire()) {
                    s.close();
                    continue;
                }
                // Each joiner is authenticated on a thread of its own within a bounded time, so idle or
                // hostile connections hold up nobody.
                Thread.ofVirtual().name("tessera-store-join").start(() -> {
                    try {
                        s.setSoTimeout((int) TcpMesh.HANDSHAKE.toMillis());
                        long until = System.nanoTime() + TcpMesh.HANDSHAKE.toNanos();
                        DataInputStream in = new DataInputStream(s.getInputStream());
                        DataOutputStream out = new DataOutputStream(s.getOutputStream());
                        if (in.readInt() != MAGIC) {
                            throw new IOException("bad magic");
                        }
                        int rank = in.readInt();
                        if (rank <= 0 || rank >= size) {
                            throw new IOException("invalid rank " + rank);
                        }
                        byte[] nc = new byte[Handshake.NONCE];
                        in.readFully(nc);
                        byte[] ns = Handshake.nonce();
                        out.write(ns);
                        out.write(Handshake.proof(secret, "tessera-store serve", rank, 0, nc, ns));
                        out.flush();
                        byte[] pc = new byte[Handshake.PROOF];
                        in.readFully(pc);
                        if (!MessageDigest.isEqual(pc, Handshake.proof(secret, "tessera-store join", rank, 0, nc, ns))) {
                            throw new IOException("wrong proof of the job secret from a peer claiming rank " + rank);
                        }
                        String line = in.readUTF();
                        if (System.nanoTime() > until) {
                            throw new IOException("handshake took longer than " + TcpMesh.HANDSHAKE.toSeconds() + " s");
                        }
                        synchronized (lines) {
                            if (lines[rank] != null) {
                                throw new IOException("rank " + rank + " joined twice");
                            }
                            lines[rank] = line;
                            clients[rank] = s;
                        }
                        arrived.incrementAndGet();
                    } catch (IOException | RuntimeException e) {
                        System.getLogger("dev.tessera.device.tcp").log(System.Logger.Level.WARNING,
                                "rank 0: rejected rendezvous connection from " + s.getRemoteSocketAddress() + ": " + e.getMessage());
                        try {
                            s.close();
                        } catch (IOException ignored) {
                            // closing a rejected connection
                        }
                    } finally {
                        inFlight.release();
                    }
                });
            }
            String[] table;
            synchronized (lines) {
                table = lines.clone();
            }
            for (int r = 1; r < size; r++) {
                try (Socket s = clients[r]) {
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    for (String l : table) {
                        out.writeUTF(l);
                    }
                    out.flush();
                }
            }
            return table;
        }
    }

    private String[] ask(int me, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 2000);
                s.setSoTimeout((int) Math.max(1000, timeout.toMillis()));
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] nc = Handshake.nonce();
                out.writeInt(MAGIC);
                out.writeInt(me);
                out.write(nc);
                out.flush();
                byte[] ns = new byte[Handshake.NONCE];
                byte[] ps = new byte[Handshake.PROOF];
                in.readFully(ns);
                in.readFully(ps);
                // The store must prove it knows the secret before this rank proves it and sends its address.
                if (!MessageDigest.isEqual(ps, Handshake.proof(secret, "tessera-store serve", me, 0, nc, ns))) {
                    throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + me + ": the listener at TESSERA_ROOT "
                            + host + ":" + port + " did not prove that it knows the job secret (TESSERA_SECRET): "
                            + "not rank 0 of this job");
                }
                out.write(Handshake.proof(secret, "tessera-store join", me, 0, nc, ns));
                out.writeUTF(myLine);
                out.flush();
                List<String> lines = new ArrayList<>();
                while (true) {
                    try {
                        lines.add(in.readUTF());
                    } catch (java.io.EOFException end) {
                        break;
                    }
                }
                if (lines.isEmpty()) {
                    throw new IOException("rank 0's store closed the connection without an answer (wrong TESSERA_SECRET?)");
                }
                return lines.toArray(new String[0]);
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + me + ": startup timeout: rank 0's store at "
                            + host + ":" + port + " (TESSERA_ROOT) never answered");
                }
                LockSupport.parkNanos(50_000_000L);
            }
        }
    }
}
