package dev.tessera.conformance;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.launch.process.ProcessLauncher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Runs test jobs with one real process per rank, through the same launcher as
 * {@code tessera run --device D}: the {@link RankCase} is serialized into a file that
 * every rank process reads. A rank that fails, or a job that outlives its timeout, fails
 * the test with the job's output.
 */
public final class ProcessJobRunner implements JobRunner {

    private final String device;
    private final Duration timeout;
    private final int emulatedNodes;
    private final List<String> jvmOptions;

    public ProcessJobRunner(String device) {
        this(device, Duration.ofSeconds(90), 0);
    }

    public ProcessJobRunner(String device, Duration timeout) {
        this(device, timeout, 0);
    }

    /** With {@code emulatedNodes} > 1 the ranks are spread over that many pretend nodes (auto: shm within, tcp across). */
    public ProcessJobRunner(String device, Duration timeout, int emulatedNodes) {
        this(device, timeout, emulatedNodes, List.of());
    }

    /** With extra JVM options for the rank processes (system properties a device reads, e.g. -Dtessera.wait=block). */
    public ProcessJobRunner(String device, Duration timeout, int emulatedNodes, List<String> jvmOptions) {
        this.device = device;
        this.timeout = timeout;
        this.emulatedNodes = emulatedNodes;
        this.jvmOptions = List.copyOf(jvmOptions);
    }

    @Override
    public ProcessJobRunner withTimeLimitTimes(int times) {
        return new ProcessJobRunner(device, timeout.multipliedBy(times), emulatedNodes, jvmOptions);
    }

    @Override
    public String device() {
        return device;
    }

    @Override
    public void run(int ranks, RankCase body) {
        judge(ranks, launch(ranks, body, List.of()));
    }

    /** The level travels as the rank main's second argument (see {@link ProcessRankCase}). */
    @Override
    public void run(int ranks, dev.tessera.comm.ThreadLevel level, RankCase body) {
        judge(ranks, launch(ranks, body, List.of(level.name())));
    }

    private void judge(int ranks, Result r) {
        if (r.status() != 0) {
            throw new AssertionError(device + " job of " + ranks + " ranks failed with status " + r.status()
                    + "; output:\n" + r.output());
        }
    }

    /** The outcome of a job: exit status and everything the ranks and the launcher printed. */
    public record Result(int status, String output) {
    }

    /** Launches a job and returns its outcome without judging it (for failure tests). */
    public Result launch(int ranks, RankCase body, List<String> extraArgs) {
        return launch(ranks, body, extraArgs, RankClassSharing.get());
    }

    /** {@link #launch(int, RankCase, List)} with the ranks' class path and extra JVM options of {@code sharing}. */
    Result launch(int ranks, RankCase body, List<String> extraArgs, RankClassSharing.Setup sharing) {
        Path file = null;
        try {
            file = Files.createTempFile("tessera-case-", ".ser");
            try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(file))) {
                out.writeObject(body);
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
            List<String> args = new java.util.ArrayList<>(List.of(file.toString()));
            args.addAll(extraArgs);
            List<String> jvm = new java.util.ArrayList<>(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"));
            jvm.addAll(sharing.jvmOptions());
            jvm.addAll(jvmOptions);
            LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), 1, device, true, List.of(),
                    ProcessRankCase.class.getName(), args, jvm, Duration.ofSeconds(30));
            int status = new ProcessLauncher(sink, sink, timeout, emulatedNodes)
                    .rankClassPath(sharing.classPath()).run(spec);
            return new Result(status, bytes.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError("cannot launch a " + device + " job", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } finally {
            if (file != null) {
                file.toFile().delete();
            }
        }
    }

    @Override
    public String toString() {
        return emulatedNodes > 1 ? device + "(" + emulatedNodes + " nodes)" : device;
    }
}
