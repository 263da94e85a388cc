package dev.tessera.io.cache;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Messages between cache clients and servers, on a communicator of their own.
 *
 * <pre>
 *   client -> server, tag REQUEST:  ChunkRequest(name, chunk, replyTag)   (object message)
 *   client -> server, tag STOP:     null                                  (client done)
 *   server -> client, tag replyTag: int status  int length  long fileSize  bytes[length]
 * </pre>
 *
 * Every request has a reply tag of its own, so a reply that comes after its client gave up
 * waiting never matches a later receive.
 */
final class CacheProtocol {

    static final int REQUEST = 1;
    static final int STOP = 2;
    static final int FIRST_REPLY_TAG = 16;
    static final int HEADER = 16;

    static final int OK = 0;
    static final int NOT_FOUND = 1;
    static final int FAILED = 2;

    /** A client asks for chunk {@code chunk} of file {@code name}. */
    record ChunkRequest(String name, long chunk, int replyTag) implements Serializable {
    }

    private CacheProtocol() {
    }

    static byte[] reply(int status, long fileSize, byte[] data, String error) {
        byte[] body = data != null ? data : error == null ? new byte[0] : error.getBytes(StandardCharsets.UTF_8);
        ByteBuffer bb = ByteBuffer.allocate(HEADER + body.length);
        bb.putInt(status).putInt(body.length).putLong(fileSize).put(body);
        return bb.array();
    }

    /**
     * The server for {@code name}: highest-random-weight (rendezvous) hashing over the
     * servers, so every client picks the same one without coordination and names spread
     * evenly over them.
     */
    static int shard(String name, int[] servers) {
        int best = servers[0];
        long bestWeight = Long.MIN_VALUE;
        for (int s : servers) {
            CRC32C crc = new CRC32C();
            crc.update(name.getBytes(StandardCharsets.UTF_8));
            crc.update(s);
            long w = mix(crc.getValue() * 0x9E3779B97F4A7C15L + s);
            if (w > bestWeight) {
                bestWeight = w;
                best = s;
            }
        }
        return best;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
