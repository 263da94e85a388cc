package dev.tessera.device.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/** Blocking read and write helpers for socket channels. */
final class TcpIo {

    private TcpIo() {
    }

    static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new EOFException("connection closed by peer");
            }
        }
    }

    /** Reads with a deadline (the channel is switched to non-blocking for the duration). */
    static void readFully(SocketChannel ch, ByteBuffer b, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ch.configureBlocking(false);
        try (Selector sel = Selector.open()) {
            ch.register(sel, SelectionKey.OP_READ);
            while (b.hasRemaining()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new SocketTimeoutException("no handshake within " + timeout.toMillis() + " ms");
                }
                sel.select(Math.max(1, left / 1_000_000));
                if (ch.read(b) < 0) {
                    throw new EOFException("connection closed during handshake");
                }
                sel.selectedKeys().clear();
            }
        } finally {
            ch.configureBlocking(true);
        }
    }

    static void writeFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** Size of the buffers large heap payloads pass through. */
    static final int STAGING = 128 * 1024;

    /**
     * A byte-buffer view of a native segment, which the socket reads and writes in place;
     * null for heap arrays. Those go through the connection's own direct buffers in
     * pieces: handed a heap buffer, NIO copies the whole remainder into a temporary
     * direct buffer on every call, however little the socket then takes.
     */
    static ByteBuffer view(MemorySegment seg) {
        return seg.isNative() ? seg.asByteBuffer() : null;
    }
}
