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

    /** Size of the staging buffer for heap segments that are not byte arrays. */
    static final int STAGING = 256 * 1024;

    /**
     * Writes a segment. Native segments and byte[]-backed ones go straight out; other
     * heap segments (double[], int[], ...) cannot be viewed as a ByteBuffer, so they are
     * copied through {@code staging} in pieces.
     */
    static void writeSegment(SocketChannel ch, MemorySegment seg, ByteBuffer staging) throws IOException {
        ByteBuffer direct = view(seg);
        if (direct != null) {
            writeFully(ch, direct);
            return;
        }
        MemorySegment stage = MemorySegment.ofBuffer(staging.clear());
        for (long off = 0; off < seg.byteSize(); off += staging.capacity()) {
            int n = (int) Math.min(staging.capacity(), seg.byteSize() - off);
            MemorySegment.copy(seg, off, stage, 0, n);
            writeFully(ch, staging.clear().limit(n));
        }
    }

    /** Reads exactly {@code seg.byteSize()} bytes into a segment, through {@code staging} where it must. */
    static void readSegment(SocketChannel ch, MemorySegment seg, ByteBuffer staging) throws IOException {
        ByteBuffer direct = view(seg);
        if (direct != null) {
            readFully(ch, direct);
            return;
        }
        MemorySegment stage = MemorySegment.ofBuffer(staging.clear());
        for (long off = 0; off < seg.byteSize(); off += staging.capacity()) {
            int n = (int) Math.min(staging.capacity(), seg.byteSize() - off);
            readFully(ch, staging.clear().limit(n));
            MemorySegment.copy(stage, 0, seg, off, n);
        }
    }

    private static ByteBuffer view(MemorySegment seg) {
        if (seg.isNative() || seg.heapBase().orElse(null) instanceof byte[]) {
            return seg.asByteBuffer();
        }
        return null;
    }
}
