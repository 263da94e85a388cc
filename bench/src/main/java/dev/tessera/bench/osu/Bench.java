package dev.tessera.bench.osu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs one suite: Tessera through {@code bin/tessera run} (any device; rank 0 of
 * {@link OsuRank} prints the results) and, when asked, native Open MPI through
 * {@code mpirun} with bench/native/osu_mpi.c, built with mpicc on first use.
 */
public final class Bench {

    /**
     * What to measure. {@code warmup} and {@code blocks} count timing blocks per size; warm-up
     * goes on until {@code warmupMs} milliseconds are spent too.
     */
    public record Config(Suite suite, int ranks, String device, List<Integer> sizes, int iters, int warmup,
                         int warmupMs, int blocks, int window) {

        List<String> rankArgs() {
            return List.of(suite.cliName(), sizes.stream().map(String::valueOf).collect(Collectors.joining(",")),
                    Integer.toString(iters), Integer.toString(warmup), Integer.toString(warmupMs), Integer.toString(blocks),
                    Integer.toString(window));
        }
    }

    private final Path root;
    private final Progress progress;

    public Bench(Path root, Progress progress) {
        this.root = root;
        this.progress = progress;
    }

    /** The project root: -Dtessera.home (set by bin/tessera), else found from this class's location. */
    public static Path findRoot() {
        String home = System.getProperty("tessera.home");
        if (home != null) {
            return Path.of(home);
        }
        Path p = codeSource();
        while (p != null && !Files.exists(p.resolve("bin/tessera"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("cannot find the Tessera project root; set -Dtessera.home");
        }
        return p;
    }

    /** The jar or class directory holding the bench classes (the ranks' class path). */
    static Path codeSource() {
        try {
            return Path.of(Bench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public Series runTessera(Config c) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/tessera").toString(), "run",
                "-np", Integer.toString(c.ranks()), "--device", c.device(), "-cp", codeSource().toString(),
                OsuRank.class.getName()));
        cmd.addAll(c.rankArgs());
        return new Series(c.suite(), "tessera", c.device(), c.ranks(), execute(cmd, c, "tessera/" + c.device()));
    }

    public Series runNative(Config c, NativeMpi mpi) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(mpi.mpirun(c.ranks(), c.device()));
        cmd.add(mpi.binary().toString());
        cmd.addAll(c.rankArgs());
        return new Series(c.suite(), "native", NativeMpi.transport(c.device()), c.ranks(),
                execute(cmd, c, "native/" + NativeMpi.transport(c.device())));
    }

    private List<Series.Point> execute(List<String> cmd, Config c, String who) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("TESSERA_BENCH_BUFFERS", System.getProperty("tessera.bench.buffers", "heap"));
        pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process proc = pb.start();
        ResultParser parser = new ResultParser();
        Deque<String> other = new ArrayDeque<>();
        String what = c.suite().cliName() + " " + who + " np=" + c.ranks();
        int index = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (ResultParser.isProtocol(line)) {
                    int size = parser.accept(line);
                    if (size >= 0) {
                        progress.size(what, size, ++index, c.sizes().size());
                    }
                } else {
                    other.addLast(line);
                    if (other.size() > 40) {
                        other.removeFirst();
                    }
                }
            }
        }
        int rc = proc.waitFor();
        if (rc != 0 || parser.points().size() != c.sizes().size()) {
            throw new IOException(who + " run failed (exit status " + rc + "): " + String.join(" ", cmd)
                    + (other.isEmpty() ? "" : "\n" + String.join("\n", other)));
        }
        return parser.points();
    }
}
