package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.CollectiveTuning;
import dev.tessera.comm.Comm;
import dev.tessera.comm.ThreadLevel;
import dev.tessera.device.JobFailure;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Corrupt frames after a successful handshake (issue #28, item 10; the suite's blind spot 5):
 * a peer that knows the secret but then writes garbage, an impossible length (2^40 and more,
 * or 2^31 for a data frame), an unknown type, answers to rendezvous that were never announced,
 * or half a header and then hangs up. The rank waiting for that peer gets an error naming
 * the peer and what was wrong with its frame within seconds: never a hang, never a wrong answer.
 */
@Timeout(90)
class TcpCorruptFrameTest {

    private static final String SECRET = "frame-test-secret";

    static Stream<Arguments> corruptions() {
        return Stream.of(
                Arguments.of("garbage", ascii("GET / HTTP/1.0\r\n\r\nand some more bytes"), "corrupt frame from rank 1 (bad magic)"),
                Arguments.of("length 2^40 + 1", Frame.header(Frame.DATA, 7, 0, 0, 0, (1L << 40) + 1).array(),
                        "corrupt frame from rank 1 (length 1099511627777)"),
                Arguments.of("negative length", Frame.header(Frame.DATA, 7, 0, 0, 0, -5).array(),
                        "corrupt frame from rank 1 (length -5)"),
                Arguments.of("data frame of 2^31 bytes", Frame.header(Frame.DATA, 7, 0, 0, 0, 1L << 31).array(),
                        "corrupt frame from rank 1 (a data frame of 2147483648 bytes)"),
                Arguments.of("unknown type", Frame.header((byte) 99, 7, 0, 0, 0, 0).array(),
                        "corrupt frame from rank 1 (type 99)"),
                Arguments.of("CTS never asked for", Frame.header(Frame.CTS, 0, 0, 0, 12345, 0).array(),
                        "corrupt frame from rank 1 (CTS for unknown rendezvous 12345)"),
                Arguments.of("RDATA never asked for", Frame.header(Frame.RDATA, 0, 0, 0, 777, 4).array(),
                        "corrupt frame from rank 1 (RDATA for unknown rendezvous 777)"),
                Arguments.of("half a header, then hang up", java.util.Arrays.copyOf(
                        Frame.header(Frame.DATA, 7, 0, 0, 0, 4).array(), 10), "rank 1"));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void aCorruptFrameFailsTheWaitingReceiveNamingThePeer(String name, byte[] bytes, String expected,
                                                          @TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        SocketChannel impostor = null;
        try {
            DirectoryRendezvous rendezvous = new DirectoryRendezvous(dir);
            // Rank 1 is played by the test: it publishes an address (never dialed: rank 1 dials rank 0) ...
            Files.writeString(dir.resolve("rank-1"), "127.0.0.1 1 1 localhost");
            CompletableFuture<TcpDevice> rank0 = CompletableFuture.supplyAsync(() -> TcpMesh.connect(new TcpMesh.Spec(0, 2,
                    SECRET, rendezvous, InetAddress.getLoopbackAddress(), Duration.ofSeconds(30),
                    TcpDevice.DEFAULT_EAGER_LIMIT), new JobFailure()), pool);
            Path published = dir.resolve("rank-0");
            while (!Files.exists(published)) {
                Thread.sleep(5);
            }
            int port = Integer.parseInt(Files.readString(published).trim().split("\\s+")[1]);
            // ... and passes the real handshake: it knows the secret.
            impostor = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            Handshake.send(impostor, 1, 0, SECRET, System.nanoTime() + 30_000_000_000L);
            TcpDevice d0 = rank0.get(30, TimeUnit.SECONDS);
            Comm w0 = dev.tessera.internal.CommAccess.get().createWorld(d0, ThreadLevel.MULTIPLE, new CollectiveTuning(), "localhost");
            CompletableFuture<int[]> received = CompletableFuture.supplyAsync(() -> {
                int[] got = new int[1];
                w0.recv(Buffer.of(got), 1, 7);
                return got;
            }, pool);
            ByteBuffer out = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            while (out.hasRemaining()) {
                impostor.write(out);
            }
            if (name.startsWith("half")) {
                impostor.close();
            }
            try {
                int[] got = received.get(30, TimeUnit.SECONDS);
                fail("the receive returned " + got[0] + " after a corrupt frame (" + name + ")");
            } catch (ExecutionException e) {
                TesseraException t = (TesseraException) e.getCause();
                assertEquals(ErrorClass.PROC_FAILED, t.errorClass(), t.getMessage());
                assertTrue(t.getMessage().contains("rank 1 failed") && t.getMessage().contains(expected),
                        "'" + expected + "' in: " + t.getMessage());
            }
            d0.close();
        } finally {
            if (impostor != null) {
                impostor.close();
            }
            pool.shutdownNow();
        }
    }
}
