package dev.tessera.device.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The first bytes on every connection: a challenge-response proof, in both directions, that
 * each side knows the job secret. The secret itself never travels, so a listener that is not
 * a rank of the job (another user's, planted in a rendezvous directory) learns nothing it
 * could use, and neither does a stranger connecting to a rank.
 *
 * <pre>
 *  dialer   -> acceptor  HELLO  magic, version, dialer's rank, 32-byte nonce Nd     (44 bytes)
 *  acceptor -> dialer    magic, 32-byte nonce Na, proof Pa                          (68 bytes)
 *  dialer   -> acceptor  proof Pd                                                   (32 bytes)
 *  acceptor -> dialer    1 (accepted)                                               (1 byte)
 *
 *  Pa = HMAC-SHA256(secret, "tessera-tcp accept" | dialer rank | acceptor rank | Nd | Na)
 *  Pd = HMAC-SHA256(secret, "tessera-tcp dial"   | dialer rank | acceptor rank | Nd | Na)
 * </pre>
 *
 * Both nonces are fresh from {@link SecureRandom}, so a recorded exchange cannot be replayed;
 * the two labels differ, so neither side's proof can be reflected back as the other's; the
 * proofs are compared in constant time ({@link MessageDigest#isEqual}). The dialer checks the
 * acceptor's proof before it sends its own. Anything else (a port scanner, another job,
 * garbage, a wrong proof) is rejected and the connection closed. The handshake authenticates
 * the ranks to each other; the stream after it is not encrypted (as MPI's TCP transports).
 */
final class Handshake {

    static final int MAGIC = 0x48535354;
    static final int VERSION = 2;
    static final int NONCE = 32;
    static final int PROOF = 32;
    static final int HELLO_BYTES = 12 + NONCE;
    static final int CHALLENGE_BYTES = 4 + NONCE + PROOF;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Handshake() {
    }

    /**
     * The dialer's half: proves itself to rank {@code peer} and checks that the other end
     * is that rank of this job. Every read waits at most until {@code deadlineNanos}.
     */
    static void send(SocketChannel ch, int rank, int peer, String secret, long deadlineNanos) throws IOException {
        byte[] nd = nonce();
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        hello.putInt(MAGIC).putInt(VERSION).putInt(rank).put(nd).flip();
        TcpIo.writeFully(ch, hello);
        ByteBuffer challenge = ByteBuffer.allocate(CHALLENGE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        TcpIo.readFully(ch, challenge, left(deadlineNanos));
        if (challenge.getInt(0) != MAGIC) {
            throw new IOException("the listener is not a Tessera rank (bad magic)");
        }
        byte[] na = new byte[NONCE];
        byte[] pa = new byte[PROOF];
        challenge.get(4, na).get(4 + NONCE, pa);
        if (!MessageDigest.isEqual(pa, proof(secret, "tessera-tcp accept", rank, peer, nd, na))) {
            throw new Refused("the listener did not prove that it knows the job secret: not rank " + peer
                    + " of this job");
        }
        TcpIo.writeFully(ch, ByteBuffer.wrap(proof(secret, "tessera-tcp dial", rank, peer, nd, na)));
        ByteBuffer answer = ByteBuffer.allocate(1);
        TcpIo.readFully(ch, answer, left(deadlineNanos));
        if (answer.get(0) != 1) {
            throw new IOException("handshake refused by rank " + peer);
        }
    }

    /**
     * The acceptor's half: reads and checks a handshake within {@code timeout}, returns the
     * peer's rank, or throws with the reason (the caller closes the connection).
     */
    static int receive(SocketChannel ch, String secret, int me, int size, Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        TcpIo.readFully(ch, hello, left(deadline));
        if (hello.getInt(0) != MAGIC) {
            throw new IOException("not a Tessera handshake (bad magic)");
        }
        if (hello.getInt(4) != VERSION) {
            throw new IOException("protocol version " + hello.getInt(4) + ", expected " + VERSION);
        }
        int rank = hello.getInt(8);
        if (rank < 0 || rank >= size) {
            throw new IOException("peer claims invalid rank " + rank);
        }
        byte[] nd = new byte[NONCE];
        hello.get(12, nd);
        byte[] na = nonce();
        ByteBuffer challenge = ByteBuffer.allocate(CHALLENGE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        challenge.putInt(MAGIC).put(na).put(proof(secret, "tessera-tcp accept", rank, me, nd, na)).flip();
        TcpIo.writeFully(ch, challenge);
        ByteBuffer pd = ByteBuffer.allocate(PROOF);
        TcpIo.readFully(ch, pd, left(deadline));
        if (!MessageDigest.isEqual(pd.array(), proof(secret, "tessera-tcp dial", rank, me, nd, na))) {
            throw new IOException("wrong proof of the job secret from a peer claiming rank " + rank);
        }
        TcpIo.writeFully(ch, ByteBuffer.wrap(new byte[] {1}));
        return rank;
    }

    /** The other side answered but failed the proof: it is not the rank it should be. */
    static final class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    static byte[] nonce() {
        byte[] n = new byte[NONCE];
        RANDOM.nextBytes(n);
        return n;
    }

    /** HMAC-SHA256 keyed with the secret over a label, two ranks and two nonces. */
    static byte[] proof(String secret, String label, int dialer, int acceptor, byte[] nd, byte[] na) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            byte[] key = secret.getBytes(StandardCharsets.UTF_8);
            mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
            mac.update(label.getBytes(StandardCharsets.US_ASCII));
            mac.update(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(dialer).putInt(acceptor).array());
            mac.update(nd);
            mac.update(na);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static Duration left(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1, deadlineNanos - System.nanoTime()));
    }
}
