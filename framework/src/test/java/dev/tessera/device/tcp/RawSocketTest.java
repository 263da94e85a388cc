package dev.tessera.device.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.EOFException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Heap arrays through a connected socket's descriptor, without NIO's staging copies. */
@Timeout(30)
class RawSocketTest {

    /** Both ends of a loopback TCP connection (Linux only: raw descriptors are used there only). */
    private record Pair(ServerSocketChannel server, SocketChannel a, SocketChannel b) implements AutoCloseable {
        static Pair open() throws java.io.IOException {
            assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "raw descriptors are used on Linux only");
            ServerSocketChannel server = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel a = SocketChannel.open(server.getLocalAddress());
            return new Pair(server, a, server.accept());
        }

        @Override
        public void close() throws java.io.IOException {
            b.close();
            a.close();
            server.close();
        }
    }

    @Test
    void movesHeapArraysBothWaysAndSeesTheEndOfTheStream() throws Exception {
        try (Pair pair = Pair.open()) {
            SocketChannel a = pair.a();
            SocketChannel b = pair.b();
            a.configureBlocking(false);
            b.configureBlocking(false);
            RawSocket ra = RawSocket.of(a);
            RawSocket rb = RawSocket.of(b);
            assertNotNull(ra, "the client's descriptor is found");
            assertNotNull(rb, "the server's descriptor is found");

            double[] sent = new Random(7).doubles(300_000).toArray(); // 2.4 MB: many pieces, a full socket
            double[] received = new double[sent.length];
            MemorySegment from = MemorySegment.ofArray(sent);
            MemorySegment into = MemorySegment.ofArray(received);
            long written = 0;
            long read = 0;
            while (read < into.byteSize()) { // one thread, both ends non-blocking: alternate
                if (written < from.byteSize()) {
                    written += ra.write(from, written);
                }
                read += rb.read(into, read, into.byteSize() - read);
            }
            assertArrayEquals(sent, received);

            ra.close();
            ra.close(); // idempotent
            assertThrows(ClosedChannelException.class, () -> ra.write(from, 0), "no raw call after close");
            a.close();
            assertThrows(EOFException.class, () -> {
                while (true) {
                    rb.read(into, 0, 8);
                    Thread.onSpinWait();
                }
            });
        }
    }

    /** The device picks its connections' congestion control; a refused choice leaves the kernel's default. */
    @Test
    void setsTheCongestionControlOrKeepsTheDefault() throws Exception {
        try (Pair pair = Pair.open()) {
            RawSocket ra = RawSocket.of(pair.a());
            assertNotNull(ra, "the client's descriptor is found");
            assertEquals("reno", ra.congestionControl("reno"), "reno is built into every Linux kernel");
            String fallback = ra.congestionControl("no-such-algorithm");
            assertNotEquals("no-such-algorithm", fallback);
            assertEquals("reno", fallback, "a refused request leaves the algorithm in effect");
            ra.close();
        }
    }
}
