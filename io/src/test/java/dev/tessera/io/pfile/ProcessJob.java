package dev.tessera.io.pfile;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A job of real rank processes started with {@code bin/tessera run -np N --device D} and
 * this test JVM's class path; its output lines are collected (and may be watched as they come).
 */
public final class ProcessJob implements AutoCloseable {

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ProcessJob(Process process, Consumer<String> watcher) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                    watcher.accept(line);
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        });
    }

    /** Starts {@code main} on {@code ranks} rank processes of {@code device}. */
    public static ProcessJob start(int ranks, String device, Class<?> main, List<String> args, Consumer<String> watcher)
            throws IOException {
        return start(ranks, device, List.of(), main, args, watcher);
    }

    /** The same with more options of {@code tessera run} ({@code --on-rank-failure continue}). */
    public static ProcessJob start(int ranks, String device, List<String> runOptions, Class<?> main, List<String> args,
                                   Consumer<String> watcher) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(tessera().toString(), "run", "-np", Integer.toString(ranks),
                "--device", device, "--jvm-opt=-Xmx192m", "--jvm-opt=-XX:TieredStopAtLevel=1"));
        cmd.addAll(runOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        return new ProcessJob(pb.start(), watcher);
    }

    /** bin/tessera of this checkout: $TESSERA_HOME, else the first parent of the working directory that has it. */
    static Path tessera() {
        String home = System.getenv("TESSERA_HOME");
        if (home != null) {
            return Path.of(home, "bin", "tessera");
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("bin/tessera")) && Files.isDirectory(p.resolve("framework"))) {
                return p.resolve("bin/tessera");
            }
        }
        throw new IllegalStateException("bin/tessera not found above " + Path.of("").toAbsolutePath() + "; set TESSERA_HOME");
    }

    /** Waits for the job; returns its exit status, or throws if it outlives {@code seconds}. */
    public int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("job did not finish within " + seconds + " s; output:\n" + output());
        }
        reader.join(5000);
        return process.exitValue();
    }

    public String output() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
