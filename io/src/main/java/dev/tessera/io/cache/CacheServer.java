package dev.tessera.io.cache;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Request;
import dev.tessera.comm.Status;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server rank of a {@link DataCache}: answers chunk requests from memory, then its local
 * disk tier, then the backing directory ({@link ChunkStore}), until every client has said
 * it is done. Replies are sent nonblocking, so a client that stopped waiting cannot stall
 * the server; they are cancelled when the server stops.
 */
public final class CacheServer {

    private static final System.Logger LOG = System.getLogger(CacheServer.class.getName());

    private final Comm comm;
    private final int clients;
    private final ChunkStore store;
    private final AtomicLong chunksServed = new AtomicLong();
    private volatile boolean halted;

    CacheServer(Comm comm, CacheConfig config) {
        this.comm = comm;
        this.clients = comm.size() - config.servers().length;
        Path spill = config.spillDir() == null ? null : config.spillDir().resolve("server-" + comm.rank());
        this.store = new ChunkStore(config.backingDir(), config.chunkBytes(), config.memoryBytes(), spill,
                config.diskBytes(), config.eviction());
    }

    /** Serves until every client has stopped, or until {@link #halt()}. */
    public void serve() {
        List<Request> replies = new ArrayList<>();
        int stopped = 0;
        int idle = 0;
        while (stopped < clients && !halted) {
            java.util.Optional<Status> probed = comm.iprobe(Comm.ANY_SOURCE, Comm.ANY_TAG);
            if (probed.isEmpty()) {
                // Spin briefly, then park: a server waits most of its life, and halt() must be noticed.
                idle = idle < 200 ? idle + 1 : idle;
                if (idle > 50) {
                    LockSupport.parkNanos(idle < 200 ? 20_000 : 200_000);
                }
                continue;
            }
            idle = 0;
            Status st = probed.get();
            if (st.tag() == CacheProtocol.STOP) {
                comm.recvObject(st.source(), CacheProtocol.STOP);
                stopped++;
                continue;
            }
            CacheProtocol.ChunkRequest rq = comm.recvObject(st.source(), CacheProtocol.REQUEST);
            replies.add(comm.isend(Buffer.of(answer(rq, st.source())), st.source(), rq.replyTag()));
            chunksServed.incrementAndGet();
            replies.removeIf(Request::test);
        }
        for (Request r : replies) {
            if (!r.test()) {
                r.cancel();
            }
        }
    }

    private byte[] answer(CacheProtocol.ChunkRequest rq, int client) {
        try {
            ChunkStore.Chunk c = store.chunk(rq.name(), rq.chunk());
            return CacheProtocol.reply(CacheProtocol.OK, c.fileSize(), c.data(), null);
        } catch (NoSuchFileException e) {
            return CacheProtocol.reply(CacheProtocol.NOT_FOUND, -1, null, "no such file: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cache server rank " + comm.rank() + ": chunk " + rq.chunk() + " of '"
                    + rq.name() + "' for rank " + client + " failed: " + e);
            return CacheProtocol.reply(CacheProtocol.FAILED, -1, null, e.toString());
        }
    }

    /**
     * Stops serving at once without telling anyone, as a crashed server would: clients
     * waiting for it time out and read from the file system. May be called from any thread.
     */
    public void halt() {
        halted = true;
    }

    /** Chunks answered so far. */
    public long chunksServed() {
        return chunksServed.get();
    }

    /** Chunks served from memory, local disk and the backing directory, and evictions from memory and disk. */
    public String statistics() {
        return "rank " + comm.rank() + ": served " + store.served[0] + " from memory, " + store.served[1] + " from disk, "
                + store.served[2] + " from the backing directory; evicted " + store.evictedFromMemory + " from memory, "
                + store.evictedFromDisk + " from disk";
    }

    ChunkStore store() {
        return store;
    }
}
