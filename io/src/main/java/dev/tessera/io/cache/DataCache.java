package dev.tessera.io.cache;

import dev.tessera.comm.Comm;
import dev.tessera.io.pfile.CollectiveCheck;
import java.util.Arrays;

/**
 * A cache of read-mostly shared input files served over message passing (the MPJ-Cache
 * idea: server ranks hold files in memory and clients fetch them by name, instead of every
 * rank hitting the shared file system). Names are sharded over several servers by
 * rendezvous hashing, so no single server is the bottleneck; files travel in chunks; each
 * server keeps chunks in memory, then on local disk, with LRU or FIFO eviction under byte
 * budgets; a client falls back to the file system when its server is gone.
 *
 * <pre>{@code
 * DataCache.run(world, CacheConfig.of(inputDir, 0, 4), client -> {
 *     byte[] mesh = client.read("mesh/part-17.bin");      // clients only; servers serve meanwhile
 * });
 * }</pre>
 *
 * Opening is collective (all ranks, same configuration) and gives the cache its own
 * communicator, so its messages never mix with the application's.
 */
public final class DataCache implements AutoCloseable {

    /** What a client rank does with the cache. */
    @FunctionalInterface
    public interface ClientBody {
        void run(CacheClient client) throws Exception;
    }

    private final Comm comm;
    private final CacheConfig config;
    private final CacheServer server;
    private final CacheClient client;

    private DataCache(Comm comm, CacheConfig config) {
        this.comm = comm;
        this.config = config;
        if (config.isServer(comm.rank())) {
            this.server = new CacheServer(comm, config);
            this.client = null;
        } else {
            this.server = null;
            this.client = new CacheClient(comm, config);
        }
    }

    /** Opens the cache on every rank of {@code comm} (collective). */
    public static DataCache open(Comm comm, CacheConfig config) {
        String error = null;
        for (int s : config.servers()) {
            if (s >= comm.size()) {
                error = "server rank " + s + " does not exist in a communicator of " + comm.size() + " ranks";
            }
        }
        if (error == null && config.servers().length >= comm.size()) {
            error = "every rank is a server (" + Arrays.toString(config.servers()) + "): no rank left to be a client";
        }
        String mine = Arrays.toString(config.servers()) + " " + config.backingDir().toAbsolutePath() + " " + config.chunkBytes();
        java.util.List<String> all = comm.allgatherObject(mine);
        if (error == null && !all.stream().allMatch(mine::equals)) {
            error = "ranks disagree on servers, directory or chunk size: " + all;
        }
        CollectiveCheck.agree(comm, "DataCache.open", config.backingDir(), error);
        return new DataCache(comm.dup(), config);
    }

    /**
     * Runs a cached job phase (collective): server ranks serve until every client is done;
     * client ranks run {@code body}, then tell the servers they are done.
     */
    public static void run(Comm comm, CacheConfig config, ClientBody body) throws Exception {
        try (DataCache cache = open(comm, config)) {
            if (cache.isServer()) {
                cache.server().serve();
            } else {
                body.run(cache.client());
            }
        }
    }

    public boolean isServer() {
        return server != null;
    }

    /** This rank's server role (null on clients). */
    public CacheServer server() {
        return server;
    }

    /** This rank's client role (null on servers). */
    public CacheClient client() {
        return client;
    }

    /** Clients: tells the servers this client is done. Servers: nothing (serve() returns once all clients are done). */
    public void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    /** Clients tell the servers they are done; the cache's communicator is released. */
    @Override
    public void close() {
        closeClient();
        if (!comm.isFreed()) {
            comm.free();
        }
    }

    public CacheConfig config() {
        return config;
    }

    Comm comm() {
        return comm;
    }
}
