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
import java.util.Map;
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
        return new Series(c.suite(), "tessera", c.device(), c.ranks(),
                new Running(tesseraCommand(c), c, "tessera/" + c.device(), Map.of(), true).finish());
    }

    public Series runNative(Config c, NativeMpi mpi) throws IOException, InterruptedException {
        return new Series(c.suite(), "native", NativeMpi.transport(c.device()), c.ranks(),
                new Running(nativeCommand(c, mpi), c, "native/" + NativeMpi.transport(c.device()), Map.of(), true).finish());
    }

    /**
     * Runs Tessera's job and native Open MPI's at the same time, taking turns segment by segment
     * through a {@link Baton} (a size's warm-up, then each timed block; the side waiting sleeps),
     * so that both meet the same states of the machine. Tessera runs first if {@code tesseraSide}
     * is 0, second if it is 1. Returns Tessera's series and native's. If one job fails, the
     * other is stopped.
     */
    public Series[] runInterleaved(Config c, NativeMpi mpi, int tesseraSide) throws IOException, InterruptedException {
        Path shm = Path.of("/dev/shm");
        Path baton = Files.isDirectory(shm) && Files.isWritable(shm)
                ? Files.createTempFile(shm, "tessera-bench-baton-", "") : Files.createTempFile("tessera-bench-baton-", "");
        try {
            Files.write(baton, new byte[Baton.BYTES]);
            String transport = NativeMpi.transport(c.device());
            Running ours = new Running(tesseraCommand(c), c, "tessera/" + c.device(),
                    Map.of(Baton.ENV, baton + ":" + tesseraSide), true);
            Running theirs;
            try {
                theirs = new Running(nativeCommand(c, mpi), c, "native/" + transport,
                        Map.of(Baton.ENV, baton + ":" + (1 - tesseraSide)), false);
            } catch (IOException | RuntimeException e) {
                ours.kill();
                throw e;
            }
            // the first to end: if it failed, the other would wait for its turn in vain
            java.util.concurrent.CompletableFuture.anyOf(ours.proc.onExit(), theirs.proc.onExit()).join();
            for (Running r : List.of(ours, theirs)) {
                if (!r.proc.isAlive() && r.proc.exitValue() != 0) {
                    ours.kill();
                    theirs.kill();
                }
            }
            List<Series.Point> t;
            try {
                t = ours.finish();
            } catch (IOException e) {
                theirs.kill();
                throw e;
            }
            List<Series.Point> n = theirs.finish();
            return new Series[] {new Series(c.suite(), "tessera", c.device(), c.ranks(), t),
                new Series(c.suite(), "native", transport, c.ranks(), n)};
        } finally {
            Files.deleteIfExists(baton);
        }
    }

    private List<String> tesseraCommand(Config c) {
        List<String> cmd = new ArrayList<>(List.of(root.resolve("bin/tessera").toString(), "run",
                "-np", Integer.toString(c.ranks()), "--device", c.device(), "-cp", codeSource().toString(),
                OsuRank.class.getName()));
        cmd.addAll(c.rankArgs());
        return cmd;
    }

    private static List<String> nativeCommand(Config c, NativeMpi mpi) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(mpi.mpirun(c.ranks(), c.device()));
        cmd.add(mpi.binary().toString());
        cmd.addAll(c.rankArgs());
        return cmd;
    }

    /** A started job whose output a thread reads: the protocol lines into a parser, the last 40 others kept for errors. */
    private final class Running {
        final Process proc;
        final List<String> cmd;
        final String who;
        final Config c;
        final ResultParser parser = new ResultParser();
        final Deque<String> other = new ArrayDeque<>();
        final Thread reader;
        IOException readFailure;

        Running(List<String> cmd, Config c, String who, Map<String, String> env, boolean report) throws IOException {
            this.cmd = cmd;
            this.who = who;
            this.c = c;
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT", "1");
            pb.environment().put("TESSERA_BENCH_BUFFERS", System.getProperty("tessera.bench.buffers", "heap"));
            pb.environment().putIfAbsent("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            pb.environment().remove(Baton.ENV);
            pb.environment().putAll(env);
            proc = pb.start();
            reader = new Thread(() -> read(report), "bench-output-" + who);
            reader.setDaemon(true);
            reader.start();
        }

        private void read(boolean report) {
            String what = c.suite().cliName() + " " + who + " np=" + c.ranks();
            int index = 0;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (ResultParser.isProtocol(line)) {
                        int size = parser.accept(line);
                        if (size >= 0 && report) {
                            progress.size(what, size, ++index, c.sizes().size());
                        }
                    } else {
                        synchronized (other) {
                            other.addLast(line);
                            if (other.size() > 40) {
                                other.removeFirst();
                            }
                        }
                    }
                }
            } catch (IOException e) {
                readFailure = e;
            }
        }

        void kill() {
            proc.descendants().forEach(ProcessHandle::destroyForcibly);
            proc.destroyForcibly();
        }

        List<Series.Point> finish() throws IOException, InterruptedException {
            int rc = proc.waitFor();
            reader.join();
            if (rc != 0 || readFailure != null || parser.points().size() != c.sizes().size()) {
                String tail;
                synchronized (other) {
                    tail = other.isEmpty() ? "" : "\n" + String.join("\n", other);
                }
                throw new IOException(who + " run failed (exit status " + rc + "): " + String.join(" ", cmd) + tail,
                        readFailure);
            }
            return parser.points();
        }
    }
}
