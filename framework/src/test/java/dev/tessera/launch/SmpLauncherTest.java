package dev.tessera.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The smp launcher runs a program's main once per rank, as threads, with per-rank static state. */
@Timeout(60)
class SmpLauncherTest {

    @TempDir
    static Path classes;

    /** Compiles the test programs into a directory that is not on the test class path. */
    @BeforeAll
    static void compilePrograms() throws IOException {
        Path src = classes.resolve("src");
        Files.createDirectories(src);
        Files.writeString(src.resolve("StaticCounter.java"), """
                import dev.tessera.runtime.Session;
                import dev.tessera.runtime.Tessera;
                import dev.tessera.comm.*;
                public class StaticCounter {
                    static int counter;
                    public static void main(String[] args) {
                        try (Session rt = Tessera.init(args)) {
                            counter++;                       // shared statics would make this > 1 somewhere
                            int total = rt.world().allreduce(counter, Op.SUM);
                            if (counter != 1 || total != rt.size()) throw new IllegalStateException("statics shared: " + counter);
                            if (rt.rank() == 0) System.out.println("ok " + total + " " + String.join(",", rt.args()));
                        }
                    }
                }
                """);
        Files.writeString(src.resolve("Thrower.java"), """
                import dev.tessera.runtime.Session;
                import dev.tessera.runtime.Tessera;
                import dev.tessera.comm.*;
                public class Thrower {
                    public static void main(String[] args) {
                        try (Session rt = Tessera.init(args)) {
                            if (rt.rank() == 2) throw new IllegalStateException("boom on purpose");
                            rt.world().recv(Buffer.of(new int[1]), Comm.ANY_SOURCE, 0);   // blocks until the abort
                        }
                    }
                }
                """);
        Files.writeString(src.resolve("Cores.java"), """
                import dev.tessera.runtime.Session;
                import dev.tessera.runtime.Tessera;
                import dev.tessera.runtime.internal.Affinity;
                public class Cores {
                    public static void main(String[] args) {
                        try (Session rt = Tessera.init(args)) {
                            System.setProperty("cores.rank" + rt.rank(), java.util.Arrays.toString(Affinity.allowedCpus()));
                            rt.world().barrier();
                        }
                    }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", System.getProperty("java.class.path"),
                src.resolve("StaticCounter.java").toString(), src.resolve("Thrower.java").toString(),
                src.resolve("Cores.java").toString());
        assertEquals(0, rc, "test programs must compile");
    }

    private static LaunchSpec spec(int ranks, String main, List<String> args) {
        return new LaunchSpec(ranks, 0, List.of(), 0, "smp", false, List.of(classes), main, args, List.of(),
                Duration.ofSeconds(10));
    }

    private static String capture(java.util.function.Function<PrintStream, Integer> body, int[] code) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        code[0] = body.apply(err);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void eachRankHasItsOwnStaticState() {
        int[] code = new int[1];
        String err = capture(e -> new SmpLauncher(e).run(spec(4, "StaticCounter", List.of("a", "--b"))), code);
        assertEquals(0, code[0], err);
    }

    /**
     * --bind-to core (tessera run's default) binds each rank thread to a core of its own, as it
     * binds rank processes; --bind-to none leaves them free. Each rank writes the cores it may
     * run on into a system property (one JVM), read here after the job.
     */
    @Test
    void bindToCoreGivesEachRankThreadItsOwnCore() {
        int[] all = dev.tessera.runtime.internal.Affinity.allowedCpus();
        org.junit.jupiter.api.Assumptions.assumeTrue(all.length >= 2, "binding needs 2 cores");
        for (boolean bind : new boolean[] {true, false}) {
            System.clearProperty("cores.rank0");
            System.clearProperty("cores.rank1");
            LaunchSpec spec = new LaunchSpec(2, 0, List.of(), 0, "smp", false, List.of(classes), "Cores", List.of(),
                    List.of(), Duration.ofSeconds(10), bind);
            int[] code = new int[1];
            String err = capture(e -> new SmpLauncher(e).run(spec), code);
            assertEquals(0, code[0], err);
            if (bind) {
                // 2 ranks on N cores: N/2 threads each, rank 0 on the first half, rank 1 on the second
                int half = all.length / 2;
                assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(all, 0, half)),
                        System.getProperty("cores.rank0"), "rank 0's thread is not bound to its cores");
                assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(all, half, 2 * half)),
                        System.getProperty("cores.rank1"), "rank 1's thread is not bound to its cores");
            } else {
                assertEquals(java.util.Arrays.toString(all), System.getProperty("cores.rank0"), "bound with --bind-to none");
                assertEquals(java.util.Arrays.toString(all), System.getProperty("cores.rank1"), "bound with --bind-to none");
            }
        }
    }

    /**
     * A bound rank thread sees only its own cores (Runtime.availableProcessors), so the launcher
     * passes the default thread count, computed from all cores, on to the ranks itself.
     */
    @Test
    void boundRanksGetTheDefaultThreadCountOfTheWholeMachine() {
        int cores = Runtime.getRuntime().availableProcessors();
        org.junit.jupiter.api.Assumptions.assumeTrue(cores >= 2 && System.getenv("TESSERA_THREADS") == null);
        LaunchSpec bound = new LaunchSpec(2, 0, List.of(), 0, "smp", false, List.of(classes), "Cores", List.of("x"),
                List.of(), Duration.ofSeconds(10), true);
        assertEquals(List.of("--threads", Integer.toString(cores / 2), "x"), List.of(SmpLauncher.withThreads(bound)));
        LaunchSpec free = new LaunchSpec(2, 0, List.of(), 0, "smp", false, List.of(classes), "Cores", List.of("x"),
                List.of(), Duration.ofSeconds(10), false);
        assertEquals(List.of("x"), List.of(SmpLauncher.withThreads(free)));
    }

    @Test
    void aRankThatThrowsFailsTheJobAndIsNamed() {
        int[] code = new int[1];
        String err = capture(e -> new SmpLauncher(e).run(spec(4, "Thrower", List.of())), code);
        assertEquals(1, code[0]);
        assertTrue(err.contains("rank 2 failed") && err.contains("boom on purpose"), err);
    }

    @Test
    void aMissingMainClassIsAClearError() {
        int[] code = new int[1];
        String err = capture(e -> new SmpLauncher(e).run(spec(2, "NoSuchMain", List.of())), code);
        assertEquals(2, code[0]);
        assertTrue(err.contains("main class NoSuchMain not found"), err);
    }

    @Test
    void aClassPathWildcardStandsForEveryJarInItsDirectoryAndNativeBindingsAreShared(@TempDir Path dir) throws Exception {
        Files.createFile(dir.resolve("b.jar"));
        Files.createFile(dir.resolve("a.jar"));
        Files.createFile(dir.resolve("jocl-2.0.5.jar"));
        Files.createFile(dir.resolve("notes.txt"));
        java.net.URL[] urls = SmpLauncher.toUrls(List.of(dir.resolve("*"), dir.resolve("classes")));
        List<String> names = java.util.Arrays.stream(urls).map(u -> Path.of(u.getPath()).getFileName().toString()).toList();
        assertEquals(List.of("a.jar", "b.jar", "jocl-2.0.5.jar", "classes"), names);
        assertTrue(SmpLauncher.bindsNativeLibrary(urls[2]));
        assertTrue(!SmpLauncher.bindsNativeLibrary(urls[0]) && !SmpLauncher.bindsNativeLibrary(urls[3]));
    }
}
