package dev.tessera.io.cache;

import dev.tessera.RankFailedException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A client rank of a {@link DataCache}: reads files by name from the server that owns the
 * name (rendezvous hashing), chunk by chunk with up to {@link #WINDOW} requests in flight.
 * A server that does not answer within the timeout, or answers that it failed, is
 * declared gone for the rest of the run (with a warning naming it), and the file is read
 * from the backing directory instead: a read never hangs and never returns other bytes
 * than the file system would. In a job that goes on when a rank dies
 * ({@code tessera run --on-rank-failure continue}), a server whose process died is noticed
 * at once: the requests to it fail with {@link RankFailedException} instead of timing out.
 */
public final class CacheClient {

    private static final System.Logger LOG = System.getLogger(CacheClient.class.getName());
    /** Chunk requests in flight per file. */
    static final int WINDOW = 4;

    private final Comm comm;
    private final CacheConfig config;
    private final Set<Integer> gone = new HashSet<>();
    private int nextTag = CacheProtocol.FIRST_REPLY_TAG;
    private long fromCache;
    private long fromDisk;
    private long fallbacks;
    private boolean closed;

    CacheClient(Comm comm, CacheConfig config) {
        this.comm = comm;
        this.config = config;
    }

    /** The whole file {@code name} (relative to the backing directory). */
    public byte[] read(String name) {
        Path file = ChunkStore.resolve(config.backingDir(), name);
        if (closed) {
            throw new CacheException(where() + ": read('" + name + "') after close");
        }
        int server = CacheProtocol.shard(name, config.servers());
        if (!gone.contains(server)) {
            try {
                byte[] data = fetch(name, server);
                if (data != null) {
                    fromCache += data.length;
                    return data;
                }
            } catch (NoSuchFileException e) {
                throw new CacheException(where() + ": read('" + name + "'): no such file " + file + " (server rank "
                        + server + ")");
            }
            fallbacks++;
        }
        try {
            byte[] data = Files.readAllBytes(file);
            fromDisk += data.length;
            return data;
        } catch (NoSuchFileException e) {
            throw new CacheException(where() + ": read('" + name + "'): no such file " + file);
        } catch (IOException e) {
            throw new CacheException(where() + ": read('" + name + "') from " + file + ": " + e, e);
        }
    }

    /** The file from its server, or null if the server is gone (it is then marked so). */
    private byte[] fetch(String name, int server) throws NoSuchFileException {
        ArrayDeque<Reply> inFlight = new ArrayDeque<>();
        try {
            return fetch(name, server, inFlight);
        } catch (RankFailedException e) {
            // the server's process died (a job that goes on without dead ranks): what is in flight to it is void
            inFlight.forEach(Reply::cancel);
            markGone(server, "its process died: " + e.getMessage());
            return null;
        }
    }

    private byte[] fetch(String name, int server, ArrayDeque<Reply> inFlight) throws NoSuchFileException {
        Reply first = request(name, 0, server);
        Reply r0 = first.await(this, server);
        if (r0 == null) {
            return null;
        }
        if (r0.status == CacheProtocol.NOT_FOUND) {
            throw new NoSuchFileException(name);
        }
        long size = r0.fileSize;
        int chunk = config.chunkBytes();
        long chunks = Math.max(1, (size + chunk - 1) / chunk);
        byte[] out = new byte[Math.toIntExact(size)];
        System.arraycopy(r0.data, 0, out, 0, r0.data.length);
        long next = 1;
        while (next < chunks || !inFlight.isEmpty()) {
            while (next < chunks && inFlight.size() < WINDOW) {
                inFlight.add(request(name, next++, server));
            }
            Reply pending = inFlight.poll();
            Reply r = pending.await(this, server);
            if (r == null || r.status != CacheProtocol.OK || r.data.length != expected(size, pending.chunk)) {
                inFlight.forEach(Reply::cancel);
                if (r != null) {
                    markGone(server, "answered chunk " + pending.chunk + " of '" + name + "' with status " + r.status);
                }
                return null;
            }
            System.arraycopy(r.data, 0, out, Math.toIntExact(pending.chunk * chunk), r.data.length);
        }
        return out;
    }

    private long expected(long size, long index) {
        return Math.max(0, Math.min(config.chunkBytes(), size - index * config.chunkBytes()));
    }

    /** A chunk request in flight: the posted receive for its reply. */
    private static final class Reply {
        final long chunk;
        final byte[] buffer;
        final Request request;
        int status;
        long fileSize;
        byte[] data;

        Reply(long chunk, byte[] buffer, Request request) {
            this.chunk = chunk;
            this.buffer = buffer;
            this.request = request;
        }

        /** Waits for the reply; null (and the server marked gone) on timeout. */
        Reply await(CacheClient client, int server) {
            long deadline = System.nanoTime() + client.config.timeout().toNanos();
            int idle = 0;
            while (!request.test()) {
                if (System.nanoTime() > deadline) {
                    cancel();
                    client.markGone(server, "no reply within " + client.config.timeout().toMillis() + " ms");
                    return null;
                }
                if (++idle > 100) {
                    LockSupport.parkNanos(50_000);
                }
            }
            ByteBuffer bb = ByteBuffer.wrap(buffer);
            status = bb.getInt();
            int length = bb.getInt();
            fileSize = bb.getLong();
            data = new byte[length];
            bb.get(data);
            if (status == CacheProtocol.FAILED) {
                LOG.log(System.Logger.Level.WARNING, "cache server rank " + server + " failed: "
                        + new String(data, StandardCharsets.UTF_8));
            }
            return this;
        }

        void cancel() {
            request.cancel();
        }
    }

    private Reply request(String name, long chunk, int server) {
        int tag = nextTag;
        nextTag = nextTag >= Comm.TAG_UB - 1 ? CacheProtocol.FIRST_REPLY_TAG : nextTag + 1;
        byte[] buffer = new byte[CacheProtocol.HEADER + Math.max(config.chunkBytes(), 4096)];
        Request r = comm.irecv(Buffer.of(buffer), server, tag);
        comm.sendObject(new CacheProtocol.ChunkRequest(name, chunk, tag), server, CacheProtocol.REQUEST);
        return new Reply(chunk, buffer, r);
    }

    private void markGone(int server, String why) {
        if (gone.add(server)) {
            LOG.log(System.Logger.Level.WARNING, where() + ": cache server rank " + server + " is gone (" + why
                    + "); reading its files from " + config.backingDir());
        }
    }

    /** Servers this client has declared gone. */
    public Set<Integer> goneServers() {
        return Set.copyOf(gone);
    }

    /** Bytes read through the cache. */
    public long bytesFromCache() {
        return fromCache;
    }

    /** Bytes read from the file system (servers gone). */
    public long bytesFromFileSystem() {
        return fromDisk;
    }

    /** Reads that fell back to the file system. */
    public long fallbacks() {
        return fallbacks;
    }

    /** Tells every server this client is done (servers stop once all clients are). */
    void close() {
        if (!closed) {
            closed = true;
            for (int s : config.servers()) {
                try {
                    comm.isendObject(null, s, CacheProtocol.STOP);
                } catch (RankFailedException e) {
                    markGone(s, "its process died: " + e.getMessage());   // nothing to tell a dead server
                }
            }
        }
    }

    private String where() {
        return "rank " + comm.rank();
    }
}
