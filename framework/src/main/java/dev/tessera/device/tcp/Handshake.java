package dev.tessera.device.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;

/**
 * The first bytes on every connection, from the connecting rank: magic, protocol version,
 * its rank, and the job's secret (length-prefixed). The accepting side checks all of them
 * (the secret in constant time) and answers one byte, 1 for accepted. Anything else
 * (a port scanner, another job, garbage) is rejected and the connection closed.
 */
final class Handshake {

    static final int MAGIC = 0x48535354;
    static final int VERSION = 1;
    private static final int MAX_SECRET = 256;

    private Handshake() {
    }

    static void send(SocketChannel ch, int rank, String secret) throws IOException {
        byte[] s = secret.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(16 + s.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putInt(VERSION).putInt(rank).putInt(s.length).put(s).flip();
        while (b.hasRemaining()) {
            ch.write(b);
        }
        ByteBuffer answer = ByteBuffer.allocate(1);
        TcpIo.readFully(ch, answer);
        if (answer.get(0) != 1) {
            throw new IOException("handshake refused by peer");
        }
    }

    /**
     * Reads and checks a handshake; returns the peer's rank, or throws with the reason.
     * Blocking: the caller runs it on a socket with a read deadline.
     */
    static int receive(SocketChannel ch, String secret, int size, Duration timeout) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        TcpIo.readFully(ch, head, timeout);
        if (head.getInt(0) != MAGIC) {
            throw new IOException("not a Tessera handshake (bad magic)");
        }
        if (head.getInt(4) != VERSION) {
            throw new IOException("protocol version " + head.getInt(4) + ", expected " + VERSION);
        }
        int rank = head.getInt(8);
        int len = head.getInt(12);
        if (rank < 0 || rank >= size) {
            throw new IOException("peer claims invalid rank " + rank);
        }
        if (len < 0 || len > MAX_SECRET) {
            throw new IOException("invalid secret length " + len);
        }
        ByteBuffer s = ByteBuffer.allocate(len);
        TcpIo.readFully(ch, s, timeout);
        if (!MessageDigest.isEqual(s.array(), secret.getBytes(StandardCharsets.UTF_8))) {
            throw new IOException("wrong job secret from a peer claiming rank " + rank);
        }
        ByteBuffer ok = ByteBuffer.wrap(new byte[] {1});
        while (ok.hasRemaining()) {
            ch.write(ok);
        }
        return rank;
    }
}
