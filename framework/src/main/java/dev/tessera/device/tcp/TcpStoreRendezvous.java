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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Rendezvous through a TCP store on rank 0 ({@code TESSERA_ROOT=host:port}, like
 * MASTER_ADDR/MASTER_PORT): rank 0 listens there, every other rank connects and sends
 * its rank and line, and once all have arrived rank 0 answers each with the whole table.
 * Connections must open with the job secret; anything else is dropped. The store closes
 * after the exchange.
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
        List<Socket> clients = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (server) {
            while (clients.size() < size - 1) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    List<Integer> missing = new ArrayList<>();
                    for (int r = 1; r < size; r++) {
                        if (lines[r] == null) {
                            missing.add(r);
                        }
                    }
                    throw new TesseraException(ErrorClass.PROC_FAILED, "rank 0: startup timeout after "
                            + timeout.toSeconds() + " s: rank(s) " + missing + " never reached TESSERA_ROOT " + host + ":" + port);
                }
                server.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                Socket s;
                try {
                    s = server.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                try {
                    s.setSoTimeout(5000);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    if (in.readInt() != MAGIC || !in.readUTF().equals(secret)) {
                        throw new IOException("bad magic or secret");
                    }
                    int rank = in.readInt();
                    String line = in.readUTF();
                    if (rank <= 0 || rank >= size || lines[rank] != null) {
                        throw new IOException("unexpected rank " + rank);
                    }
                    lines[rank] = line;
                    clients.add(s);
                } catch (IOException e) {
                    System.getLogger("dev.tessera.device.tcp").log(System.Logger.Level.WARNING,
                            "rank 0: rejected rendezvous connection from " + s.getRemoteSocketAddress() + ": " + e.getMessage());
                    s.close();
                }
            }
            for (Socket s : clients) {
                try (s) {
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    for (String l : lines) {
                        out.writeUTF(l);
                    }
                    out.flush();
                }
            }
        }
        return lines;
    }

    private String[] ask(int me, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 2000);
                s.setSoTimeout((int) Math.max(1000, timeout.toMillis()));
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(MAGIC);
                out.writeUTF(secret);
                out.writeInt(me);
                out.writeUTF(myLine);
                out.flush();
                DataInputStream in = new DataInputStream(s.getInputStream());
                List<String> lines = new ArrayList<>();
                while (true) {
                    try {
                        lines.add(in.readUTF());
                    } catch (java.io.EOFException end) {
                        break;
                    }
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
