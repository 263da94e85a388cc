package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.JobFailure;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tcp device's and the TCP store's handshakes (issue #28, items 8 and 9): the job secret
 * never travels (each side proves it knows it), a listener or store that cannot prove it is
 * refused before the rank proves anything, a wrong proof is rejected, and idle connections
 * to a rank's port (any local user can open them) do not hold up the job.
 */
@Timeout(120)
class TcpHandshakeSecurityTest {

    private static final String SECRET = "correct-horse-battery-staple";

    /** A listener that is no rank of the job: answers every connection with a made-up challenge and records what it got. */
    private static final class Impostor implements AutoCloseable {
        final ServerSocket server;
        final List<byte[]> received = Collections.synchronizedList(new ArrayList<>());
        final Thread thread;

        Impostor(int answerBytes) throws Exception {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            thread = Thread.ofPlatform().daemon().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        s.setSoTimeout(1500);
                        byte[] answer = new byte[answerBytes];
                        new java.util.Random(7).nextBytes(answer);
                        ByteBuffer.wrap(answer).order(ByteOrder.LITTLE_ENDIAN).putInt(0, Handshake.MAGIC);
                        ByteArrayOutputStream got = new ByteArrayOutputStream();
                        InputStream in = s.getInputStream();
                        byte[] chunk = new byte[4096];
                        boolean answered = false;
                        try {
                            int n;
                            while ((n = in.read(chunk)) >= 0) {
                                got.write(chunk, 0, n);
                                if (!answered) {
                                    s.getOutputStream().write(answer);
                                    answered = true;
                                }
                            }
                        } catch (java.net.SocketTimeoutException | java.net.SocketException done) {
                            // the dialer went quiet or hung up: all it sent is recorded
                        }
                        received.add(got.toByteArray());
                    } catch (Exception e) {
                        return;
                    }
                }
            });
        }

        int port() {
            return server.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            server.close();
            thread.join(5000);
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void aListenerThatCannotProveTheSecretIsRefusedAndNeverLearnsIt(@TempDir Path dir) throws Exception {
        try (Impostor impostor = new Impostor(Handshake.CHALLENGE_BYTES)) {
            // The impostor took rank 0's place in the rendezvous (as another user could in a shared /tmp before #28).
            Files.writeString(dir.resolve("rank-0"), "127.0.0.1 " + impostor.port() + " 1 localhost");
            TcpMesh.Spec rank1 = new TcpMesh.Spec(1, 2, SECRET, new DirectoryRendezvous(dir),
                    InetAddress.getLoopbackAddress(), Duration.ofSeconds(3), TcpDevice.DEFAULT_EAGER_LIMIT);
            TesseraException e = assertThrows(TesseraException.class, () -> TcpMesh.connect(rank1, new JobFailure()));
            assertTrue(e.getMessage().contains("did not prove that it knows the job secret")
                    && e.getMessage().contains("rank 0"), e.getMessage());
            impostor.close();
            assertFalse(impostor.received.isEmpty(), "rank 1 dialed the impostor");
            byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
            for (byte[] got : impostor.received) {
                assertFalse(contains(got, secret), "the secret travelled to the impostor");
                // Only the HELLO (magic, version, rank, nonce): rank 1 sends its proof only to a proven peer.
                assertEquals(Handshake.HELLO_BYTES, got.length, "bytes the impostor got from rank 1");
            }
        }
    }

    @Test
    void aStrangerWithAWrongProofIsDisconnectedAndTheJobGoesOn(@TempDir Path dir) throws Exception {
        DirectoryRendezvous rendezvous = new DirectoryRendezvous(dir);
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            // A placeholder for rank 1's address lets rank 0 start accepting before the real rank 1 comes.
            Files.writeString(dir.resolve("rank-1"), "127.0.0.1 1 1 localhost");
            CompletableFuture<TcpDevice> rank0 = CompletableFuture.supplyAsync(() -> TcpMesh.connect(new TcpMesh.Spec(0, 2,
                    SECRET, rendezvous, InetAddress.getLoopbackAddress(), Duration.ofSeconds(30),
                    TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure()), pool);
            int port = publishedPort(dir, 0);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                s.setSoTimeout(30_000);
                ByteBuffer hello = ByteBuffer.allocate(Handshake.HELLO_BYTES).order(ByteOrder.LITTLE_ENDIAN);
                hello.putInt(Handshake.MAGIC).putInt(Handshake.VERSION).putInt(1).put(new byte[Handshake.NONCE]);
                s.getOutputStream().write(hello.array());
                byte[] challenge = new DataInputStream(s.getInputStream()).readNBytes(Handshake.CHALLENGE_BYTES);
                assertEquals(Handshake.CHALLENGE_BYTES, challenge.length, "rank 0 answers a HELLO with its challenge");
                assertFalse(contains(challenge, SECRET.getBytes(StandardCharsets.UTF_8)));
                // Replaying rank 0's own proof back (a reflection) is as wrong as any other 32 bytes.
                s.getOutputStream().write(challenge, 4 + Handshake.NONCE, Handshake.PROOF);
                int answer;
                try {
                    answer = s.getInputStream().read();
                } catch (java.net.SocketException reset) {
                    answer = -1;
                }
                assertEquals(-1, answer, "the stranger is disconnected, not accepted");
            }
            TcpDevice rank1 = TcpMesh.connect(new TcpMesh.Spec(1, 2, SECRET, rendezvous, InetAddress.getLoopbackAddress(),
                    Duration.ofSeconds(30), TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure());
            exchange(rank0.get(30, TimeUnit.SECONDS), rank1, pool);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twentyIdleConnectionsDoNotHoldUpTheMesh(@TempDir Path dir) throws Exception {
        DirectoryRendezvous rendezvous = new DirectoryRendezvous(dir);
        ExecutorService pool = Executors.newCachedThreadPool();
        List<Socket> idle = new ArrayList<>();
        try {
            // 20 s of start-up time: before #28 each idle connection held rank 0's only acceptor for 5 s.
            CompletableFuture<TcpDevice> rank0 = CompletableFuture.supplyAsync(() -> TcpMesh.connect(new TcpMesh.Spec(0, 3,
                    SECRET, rendezvous, InetAddress.getLoopbackAddress(), Duration.ofSeconds(20),
                    TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure()), pool);
            int port = publishedPort(dir, 0);
            for (int i = 0; i < 20; i++) {
                idle.add(new Socket(InetAddress.getLoopbackAddress(), port));
            }
            CompletableFuture<TcpDevice> rank2 = CompletableFuture.supplyAsync(() -> TcpMesh.connect(new TcpMesh.Spec(2, 3,
                    SECRET, rendezvous, InetAddress.getLoopbackAddress(), Duration.ofSeconds(20),
                    TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure()), pool);
            TcpDevice d1 = TcpMesh.connect(new TcpMesh.Spec(1, 3, SECRET, rendezvous, InetAddress.getLoopbackAddress(),
                    Duration.ofSeconds(20), TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure());
            TcpDevice d0 = rank0.get(60, TimeUnit.SECONDS);
            TcpDevice d2 = rank2.get(60, TimeUnit.SECONDS);
            // Each idle connection is closed by rank 0 once its handshake time is up (bounded, not held for ever).
            for (Socket s : idle) {
                s.setSoTimeout(60_000);
                int b;
                try {
                    b = s.getInputStream().read();
                } catch (java.net.SocketException reset) {
                    b = -1;
                }
                assertEquals(-1, b, "an idle connection is closed by the rank");
            }
            CompletableFuture<Void> c0 = CompletableFuture.runAsync(d0::close, pool);
            CompletableFuture<Void> c2 = CompletableFuture.runAsync(d2::close, pool);
            d1.close();
            c0.get(30, TimeUnit.SECONDS);
            c2.get(30, TimeUnit.SECONDS);
        } finally {
            for (Socket s : idle) {
                s.close();
            }
            pool.shutdownNow();
        }
    }

    @Test
    void theStoreProvesItselfNeverLearnsTheSecretFromAnImpostorAndIgnoresIdleConnections() throws Exception {
        // An impostor on TESSERA_ROOT: rank 1 refuses it and sends it neither the secret nor its address.
        try (Impostor impostor = new Impostor(Handshake.NONCE + Handshake.PROOF)) {
            TcpStoreRendezvous r1 = new TcpStoreRendezvous("127.0.0.1:" + impostor.port(), 1, SECRET);
            r1.publish(1, "address-of-rank-1");
            TesseraException e = assertThrows(TesseraException.class, () -> r1.gather(1, 2, Duration.ofSeconds(5)));
            assertTrue(e.getMessage().contains("did not prove that it knows the job secret"), e.getMessage());
            impostor.close();
            for (byte[] got : impostor.received) {
                assertFalse(contains(got, SECRET.getBytes(StandardCharsets.UTF_8)), "the secret travelled");
                assertFalse(contains(got, "address-of-rank-1".getBytes(StandardCharsets.UTF_8)), "the address travelled");
            }
        }
        // The real store: 20 idle connections and a wrong proof first, then the ranks meet.
        ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        String root = "127.0.0.1:" + probe.getLocalPort();
        probe.close();
        TcpStoreRendezvous store0 = new TcpStoreRendezvous(root, 0, SECRET);
        List<Socket> idle = new ArrayList<>();
        ExecutorService pool = Executors.newCachedThreadPool();
        try {
            store0.publish(0, "line-0");
            CompletableFuture<String[]> table0 = CompletableFuture.supplyAsync(
                    () -> store0.gather(0, 3, Duration.ofSeconds(60)), pool);
            for (int i = 0; i < 20; i++) {
                Socket s = new Socket();
                s.connect(new InetSocketAddress("127.0.0.1", probe.getLocalPort()));
                idle.add(s);
            }
            try (Socket s = new Socket("127.0.0.1", probe.getLocalPort())) {
                s.setSoTimeout(30_000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                out.writeInt(0x54535452);
                out.writeInt(1);
                out.write(new byte[Handshake.NONCE]);
                out.flush();
                byte[] challenge = s.getInputStream().readNBytes(Handshake.NONCE + Handshake.PROOF);
                out.write(challenge, Handshake.NONCE, Handshake.PROOF); // reflected: wrong
                out.writeUTF("evil");
                out.flush();
                int answer;
                try {
                    answer = s.getInputStream().read();
                } catch (java.net.SocketException reset) {
                    answer = -1;
                }
                assertEquals(-1, answer, "a wrong proof gets no table");
            }
            List<CompletableFuture<String[]>> tables = new ArrayList<>(List.of(table0));
            for (int r = 1; r < 3; r++) {
                int rank = r;
                tables.add(CompletableFuture.supplyAsync(() -> {
                    TcpStoreRendezvous store = new TcpStoreRendezvous(root, rank, SECRET);
                    store.publish(rank, "line-" + rank);
                    return store.gather(rank, 3, Duration.ofSeconds(60));
                }, pool));
            }
            for (CompletableFuture<String[]> t : tables) {
                assertArrayEquals(new String[] {"line-0", "line-1", "line-2"}, t.get(60, TimeUnit.SECONDS));
            }
        } finally {
            for (Socket s : idle) {
                s.close();
            }
            pool.shutdownNow();
        }
    }

    private static int publishedPort(Path dir, int rank) throws Exception {
        Path published = dir.resolve("rank-" + rank);
        while (!Files.exists(published)) {
            Thread.sleep(5);
        }
        return Integer.parseInt(Files.readString(published).trim().split("\\s+")[1]);
    }

    private static void exchange(TcpDevice d0, TcpDevice d1, ExecutorService pool) throws Exception {
        CompletableFuture<int[]> received = CompletableFuture.supplyAsync(() -> {
            Comm w0 = dev.tessera.internal.CommAccess.get().createWorld(d0, ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
            int[] got = new int[1];
            w0.recv(Buffer.of(got), 1, 7);
            return got;
        }, pool);
        Comm w1 = dev.tessera.internal.CommAccess.get().createWorld(d1, ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
        w1.send(Buffer.of(new int[] {42}), 0, 7);
        assertEquals(42, received.get(30, TimeUnit.SECONDS)[0]);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(d0::close, pool);
        d1.close();
        closing.get(30, TimeUnit.SECONDS);
    }
}
