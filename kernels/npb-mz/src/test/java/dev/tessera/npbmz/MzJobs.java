package dev.tessera.npbmz;

import dev.tessera.launch.SmpJob;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Runs NPB-MZ jobs for the tests: on smp inside this JVM, or as real processes through the launcher's command line. */
final class MzJobs {

    private MzJobs() {
    }

    /** Runs {@code bench} class {@code c} on {@code ranks} smp ranks of {@code threads} threads; returns rank 0's result. */
    static MzResult smp(ZoneBenchmark bench, char c, int ranks, int threads, boolean zoneThreads, Duration timeout) {
        AtomicReference<MzResult> result = new AtomicReference<>();
        MzDriver.Settings settings = new MzDriver.Settings(0, true, zoneThreads, false, null, null);
        SmpJob.run(ranks, new String[] {"--threads", Integer.toString(threads)}, timeout, session -> {
            MzResult r = MzDriver.run(session, bench, bench.problem(c), settings);
            if (session.rank() == 0) {
                result.set(r);
            }
        });
        return result.get();
    }

    /** What a job started through the command line printed, and its exit status. */
    record Outcome(int status, String output) {

        /** The JSON line rank 0 printed, or fails. */
        String json() {
            return output.lines().filter(l -> l.startsWith("{\"name\"")).findFirst()
                    .orElseThrow(() -> new AssertionError("no JSON line in the job's output:\n" + output));
        }
    }

    /**
     * {@code tessera run -np N --device D --threads T dev.tessera.npbmz.NpbMzMain ARGS} as a child
     * JVM with this test's class path; the whole process tree is killed after {@code timeout}.
     */
    static Outcome launch(String device, int ranks, int threads, Duration timeout, String... args)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), "dev.tessera.launch.TesseraCommand", "run", "-np",
                Integer.toString(ranks), "--device", device, "--threads", Integer.toString(threads), "--bind-to", "none"));
        if (!device.equals("smp")) {
            cmd.addAll(List.of("--jvm-opt", "-Xmx384m"));   // smp's ranks are threads of the launcher's JVM (-Xmx256m above)
        }
        cmd.add(NpbMzMain.class.getName());
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile("npbmz-job-", ".log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("job did not finish within " + timeout.toSeconds() + " s; output:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
