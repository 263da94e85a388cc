package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.device.JobFailure;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Failures specific to the tcp device: each is an error in seconds (or is rejected), never a hang. */
@Timeout(90)
class TcpFailureTest {

    @Test
    void aPeerThatNeverStartsIsATimeoutNamingIt(@TempDir Path dir) {
        TcpMesh.Spec spec = new TcpMesh.Spec(0, 3, "s3cret", new DirectoryRendezvous(dir),
                InetAddress.getLoopbackAddress(), Duration.ofSeconds(2), TcpDevice.DEFAULT_EAGER_LIMIT);
        TesseraException e = assertThrows(TesseraException.class, () -> TcpMesh.connect(spec, new JobFailure()));
        assertEquals(ErrorClass.PROC_FAILED, e.errorClass());
        assertTrue(e.getMessage().contains("[1, 2]") && e.getMessage().contains("never showed up"), e.getMessage());
    }

    @Test
    void strangersWrongSecretsAndGarbageAreRejectedAndTheJobGoesOn(@TempDir Path dir) throws Exception {
        DirectoryRendezvous rendezvous = new DirectoryRendezvous(dir);
        // Own threads, not the common pool: it may have a single thread on a 2-core machine.
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newCachedThreadPool();
        CompletableFuture<TcpDevice> rank0 = CompletableFuture.supplyAsync(() -> TcpMesh.connect(new TcpMesh.Spec(0, 2,
                "right-secret", rendezvous, InetAddress.getLoopbackAddress(), Duration.ofSeconds(30),
                TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure()), pool);
        Path published = dir.resolve("rank-0");
        while (!Files.exists(published)) {
            Thread.sleep(5);
        }
        int port = Integer.parseInt(Files.readString(published).trim().split("\\s+")[1]);
        // A port scanner: connect and leave.
        new Socket(InetAddress.getLoopbackAddress(), port).close();
        // Garbage bytes.
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes());
        }
        // A well-formed handshake with the wrong secret; the answer comes once rank 0 accepts.
        TcpDevice rank1;
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            byte[] secret = "wrong-secret".getBytes();
            ByteBuffer b = ByteBuffer.allocate(16 + secret.length).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(Handshake.MAGIC).putInt(Handshake.VERSION).putInt(1).putInt(secret.length).put(secret);
            OutputStream out = s.getOutputStream();
            out.write(b.array());
            out.flush();
            rank1 = TcpMesh.connect(new TcpMesh.Spec(1, 2, "right-secret", rendezvous,
                    InetAddress.getLoopbackAddress(), Duration.ofSeconds(30), TcpDevice.DEFAULT_EAGER_LIMIT),
                    new JobFailure());
            int answer;
            try {
                answer = s.getInputStream().read();
            } catch (java.net.SocketException reset) {
                answer = -1;
            }
            assertEquals(-1, answer, "the impostor is disconnected, not accepted");
        }
        TcpDevice d0 = rank0.get(30, TimeUnit.SECONDS);
        CompletableFuture<int[]> received = CompletableFuture.supplyAsync(() -> {
            Comm w0 = dev.tessera.internal.CommAccess.get().createWorld(d0, ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
            int[] got = new int[1];
            w0.recv(Buffer.of(got), 1, 7);
            return got;
        }, pool);
        Comm w1 = dev.tessera.internal.CommAccess.get().createWorld(rank1, ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
        w1.send(Buffer.of(new int[] {42}), 0, 7);
        assertEquals(42, received.get(30, TimeUnit.SECONDS)[0]);
        CompletableFuture<Void> closing = CompletableFuture.runAsync(d0::close, pool);
        rank1.close();
        closing.get(30, TimeUnit.SECONDS);
        pool.shutdownNow();
    }
}
