package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.launch.LaunchSpec;
import dev.tessera.launch.SmpLauncher;
import dev.tessera.launch.process.ProcessLauncher;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Runs the mpiJava test programs of {@code mpi.programs} as real jobs: on the smp device
 * through {@link SmpLauncher} (ranks are threads; each rank's loader defines its own copy of
 * the {@code mpi.*} classes, programs included), and on shm and tcp through
 * {@link ProcessLauncher} (one JVM per rank), the way {@code bin/tessera run} does.
 */
final class MpiJobs {

    private MpiJobs() {
    }

    /** Runs {@code main} on {@code ranks} smp ranks; returns the launcher's error output; fails the test if the job fails. */
    static String smp(int ranks, String main, String... args) {
        Outcome o = smpOutcome(ranks, main, args);
        assertEquals(0, o.status(), "smp job " + main + " on " + ranks + " ranks failed:\n" + o.output());
        return o.output();
    }

    /** The exit status and error output of an smp job. */
    record Outcome(int status, String output) {
    }

    /** Runs {@code main} on {@code ranks} smp ranks without judging the outcome. */
    static Outcome smpOutcome(int ranks, String main, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), 1, "smp", false, List.of(), main, List.of(args),
                List.of(), Duration.ofSeconds(30));
        int status = new SmpLauncher(err).run(spec);
        return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code main} with one process per rank on {@code device} (shm or tcp); fails the test if the job fails. */
    static String processes(String device, int ranks, String main, String... args) throws Exception {
        Outcome o = processOutcome(device, ranks, main, args);
        assertEquals(0, o.status(), device + " job " + main + " on " + ranks + " ranks failed:\n" + o.output());
        return o.output();
    }

    /** The mpi device: the job is started by Open MPI's mpirun, as {@code tessera run --device mpi} does. */
    private static Outcome mpirun(LaunchSpec spec) throws Exception {
        java.util.Map<String, String> vars = new java.util.LinkedHashMap<>(java.util.Map.of("TESSERA_DEVICE", "mpi"));
        ProcessBuilder pb = new ProcessBuilder(dev.tessera.launch.process.MpiLauncher.command("mpirun", true, spec, vars,
                1)).redirectErrorStream(true);
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process p = pb.start();
        try {
            return outcome(p);
        } finally {
            // also when the test's @Timeout interrupts the wait: mpirun and its ranks go with the test
            dev.tessera.conformance.ChildProcesses.killTree(p);
        }
    }

    private static Outcome outcome(Process p) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try (var in = p.getInputStream()) {
                in.transferTo(bytes);
            } catch (java.io.IOException ignored) {
                // the process ended
            }
        });
        if (!p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            reader.join(2000);
            return new Outcome(124, "timed out\n" + bytes.toString(StandardCharsets.UTF_8));
        }
        reader.join(5000);
        return new Outcome(p.exitValue(), bytes.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code main} with one process per rank without judging the outcome; output of all ranks and the launcher. */
    static Outcome processOutcome(String device, int ranks, String main, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LaunchSpec spec = new LaunchSpec(ranks, 0, List.of(), 1, device, true, List.of(), main, List.of(args),
                List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"), Duration.ofSeconds(30));
        if (device.equals("mpi")) {
            return mpirun(spec);
        }
        int status = new ProcessLauncher(sink, sink, Duration.ofSeconds(90), 0).run(spec);
        return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
    }

}
