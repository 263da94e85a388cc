package dev.tessera.bench.io.pfile;

import dev.tessera.comm.Comm;
import dev.tessera.io.cache.CacheClient;
import dev.tessera.io.cache.CacheConfig;
import dev.tessera.io.cache.DataCache;
import dev.tessera.launch.SmpJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * N client ranks read the same set of files, directly from the file system and through a
 * {@link DataCache} with S server ranks, in the same run: cold (every file's pages dropped
 * from the page cache first) and warm (a second pass). Aggregate client bandwidth =
 * clients x bytes / time of the slowest client.
 *
 * <pre>
 *   java -cp bench.jar:lib/* dev.tessera.bench.io.pfile.DataCacheBench [--quick] [--servers 1] [--clients 3]
 *        [--files 32] [--file-mib 8] [--dir /tmp] [--repeat 3]
 * </pre>
 */
public final class DataCacheBench {

    public static void main(String[] args) throws Exception {
        boolean quick = ParallelFileBench.has(args, "--quick");
        int servers = Integer.parseInt(ParallelFileBench.value(args, "--servers", "1"));
        int clients = Integer.parseInt(ParallelFileBench.value(args, "--clients", "3"));
        int files = Integer.parseInt(ParallelFileBench.value(args, "--files", quick ? "16" : "32"));
        int fileMib = Integer.parseInt(ParallelFileBench.value(args, "--file-mib", quick ? "1" : "8"));
        int repeat = Integer.parseInt(ParallelFileBench.value(args, "--repeat", quick ? "2" : "3"));
        Path root = Path.of(ParallelFileBench.value(args, "--dir", System.getProperty("java.io.tmpdir")))
                .resolve("tessera-cache-bench-" + ProcessHandle.current().pid());
        List<String> names = new ArrayList<>();
        Random rnd = new Random(1);
        Files.createDirectories(root);
        for (int i = 0; i < files; i++) {
            byte[] b = new byte[fileMib << 20];
            rnd.nextBytes(b);
            String n = "input-" + i + ".bin";
            Files.write(root.resolve(n), b);
            // Written back now, so "cold" passes can drop the pages (dirty pages cannot be dropped).
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(root.resolve(n),
                    java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            names.add(n);
        }
        long total = (long) files * (fileMib << 20);
        System.out.printf("data cache: %d clients read %d files of %d MiB (%d MiB each), %d server(s), dir %s%n",
                clients, files, fileMib, total >> 20, servers, root.getParent());
        System.out.println("CPU: " + ParallelFileBench.cpu());
        int[] serverRanks = new int[servers];
        for (int i = 0; i < servers; i++) {
            serverRanks[i] = i;
        }
        CacheConfig config = CacheConfig.of(root, serverRanks).withMemory(2 * total).withTimeout(Duration.ofSeconds(60));
        String[] phases = {"direct, cold", "direct, warm", "cache, cold", "cache, warm"};
        List<List<Double>> results = new ArrayList<>();
        for (int i = 0; i < phases.length; i++) {
            results.add(new ArrayList<>());
        }
        try {
            for (int r = 0; r < repeat; r++) {
                ConcurrentHashMap<String, Double> seconds = new ConcurrentHashMap<>();
                SmpJob.run(servers + clients, new String[0], Duration.ofMinutes(10), s -> {
                    boolean server = config.isServer(s.rank());
                    Comm clientComm = s.world().split(server ? 0 : 1, s.rank());
                    if (!server) {
                        seconds.put(phases[0], pass(clientComm, names, n -> Files.readAllBytes(root.resolve(n)), root, true));
                        seconds.put(phases[1], pass(clientComm, names, n -> Files.readAllBytes(root.resolve(n)), root, false));
                    }
                    s.world().barrier();
                    DataCache cache = DataCache.open(s.world(), config);
                    if (server) {
                        cache.server().serve();
                        return;
                    }
                    CacheClient c = cache.client();
                    seconds.put(phases[2], pass(clientComm, names, c::read, root, true));
                    seconds.put(phases[3], pass(clientComm, names, c::read, root, false));
                    cache.closeClient();
                });
                StringBuilder line = new StringBuilder("  round " + (r + 1) + ":");
                for (int i = 0; i < phases.length; i++) {
                    double mbs = clients * total / seconds.get(phases[i]) / 1e6;
                    results.get(i).add(mbs);
                    line.append(String.format(" %s %.0f MB/s;", phases[i], mbs));
                }
                System.out.println(line);
            }
        } finally {
            for (String n : names) {
                Files.deleteIfExists(root.resolve(n));
            }
            Files.deleteIfExists(root);
        }
        System.out.println();
        System.out.println("| median of " + repeat + ", " + clients + " clients, " + servers + " server(s) | aggregate MB/s |");
        System.out.println("|---|---|");
        for (int i = 0; i < phases.length; i++) {
            System.out.printf("| %s | %.0f |%n", phases[i], ParallelFileBench.median(results.get(i)));
        }
    }

    private interface Reader {
        byte[] read(String name) throws Exception;
    }

    /** Every client reads every file (in an order of its own); seconds of the slowest client (rank 0 of clients). */
    private static double pass(Comm clients, List<String> names, Reader reader, Path root, boolean cold) throws Exception {
        if (cold && clients.rank() == 0) {
            for (String n : names) {
                ParallelFileBench.dropCache(root.resolve(n));
            }
        }
        List<String> order = new ArrayList<>(names);
        Collections.shuffle(order, new Random(clients.rank()));
        clients.barrier();
        long t0 = System.nanoTime();
        long bytes = 0;
        for (String n : order) {
            bytes += reader.read(n).length;
        }
        clients.barrier();
        double s = (System.nanoTime() - t0) / 1e9;
        if (bytes == 0 && !names.isEmpty()) {
            throw new IllegalStateException("read nothing");
        }
        return s;
    }
}
