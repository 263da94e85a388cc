package dev.tessera.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A modular program sees the framework's API packages and nothing else: it compiles against
 * dev.tessera.runtime and dev.tessera.comm, fails to compile against a concrete device or the
 * runtime's internals, and runs (devices found through the module's {@code provides}).
 */
class ModuleBoundaryTest {

    private static final Path FRAMEWORK = Path.of("target", "classes").toAbsolutePath();

    private static String modulePath() throws Exception {
        Path picocli = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return FRAMEWORK + java.io.File.pathSeparator + picocli;
    }

    private static Path writeModule(Path dir, String body) throws IOException {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("demo"));
        Files.writeString(src.resolve("module-info.java"), "module demo { requires dev.tessera.framework; }\n");
        Files.writeString(src.resolve("demo/Main.java"), body);
        return src;
    }

    /** Compiles the demo module; returns javac's exit status and writes its messages to {@code log}. */
    private static int compile(Path src, Path out, StringBuilder log) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = javac.run(null, null, err, "--module-path", modulePath(), "-d", out.toString(),
                src.resolve("module-info.java").toString(), src.resolve("demo/Main.java").toString());
        log.append(err.toString(StandardCharsets.UTF_8));
        return status;
    }

    @Test
    @Timeout(120)
    void aModularProgramUsesTheApiAndRuns(@TempDir Path dir) throws Exception {
        Path src = writeModule(dir, """
                package demo;
                import dev.tessera.comm.Comm;
                import dev.tessera.comm.Op;
                import dev.tessera.runtime.Session;
                import dev.tessera.runtime.Tessera;
                public class Main {
                    public static void main(String[] args) {
                        try (Session s = Tessera.init(args)) {
                            Comm world = s.world();
                            System.out.println("sum " + world.allreduce(s.rank() + 1, Op.SUM) + " on " + s.deviceName());
                        }
                    }
                }
                """);
        Path out = dir.resolve("out");
        StringBuilder log = new StringBuilder();
        assertEquals(0, compile(src, out, log), log.toString());
        String launcher = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        dev.tessera.conformance.ChildProcesses.Outcome o = dev.tessera.conformance.ChildProcesses.run(
                new ProcessBuilder(launcher, "--enable-native-access=dev.tessera.framework", "--module-path",
                        modulePath() + java.io.File.pathSeparator + out, "-m", "demo/demo.Main"),
                java.time.Duration.ofSeconds(60));
        String output = o.output();
        assertTrue(!o.timedOut(), "the modular program finished: " + output);
        assertEquals(0, o.status(), output);
        assertTrue(output.contains("sum 1 on smp"), output);
    }

    /** The facade's packages, MPJ Express's mpjbuf and mpjdev included, are exported: an MPJ-style program compiles. */
    @Test
    @Timeout(120)
    void theMpiFacadeAndMpjExpressPackagesAreVisible(@TempDir Path dir) throws Exception {
        Path src = writeModule(dir, """
                package demo;
                import mpi.*;
                import mpjbuf.BufferFactory;
                import mpjdev.MPJDev;
                public class Main {
                    static int size(Intracomm w) throws Exception {
                        mpjbuf.Buffer b = new mpjbuf.Buffer(BufferFactory.create(64 + MPI.SEND_OVERHEAD), MPI.SEND_OVERHEAD,
                                64 + MPI.SEND_OVERHEAD);
                        return w.Pack(new int[] {1}, 0, 1, MPI.INT, b, 0) + MPJDev.getSendOverhead();
                    }
                }
                """);
        StringBuilder log = new StringBuilder();
        assertEquals(0, compile(src, dir.resolve("out"), log), log.toString());
    }

    @Test
    @Timeout(120)
    void concreteDevicesAndRuntimeInternalsAreNotVisible(@TempDir Path dir) throws Exception {
        for (String hidden : List.of("dev.tessera.device.smp.SmpFabric", "dev.tessera.device.tcp.TcpDevice",
                "dev.tessera.runtime.internal.ProcessBootstrap", "dev.tessera.internal.CommAccess")) {
            Path case_ = Files.createDirectories(dir.resolve(hidden));
            Path src = writeModule(case_, "package demo;\npublic class Main { " + hidden + " x; }\n");
            StringBuilder log = new StringBuilder();
            assertNotEquals(0, compile(src, case_.resolve("out"), log), hidden + " should not be visible");
            assertTrue(log.toString().contains("is not visible") || log.toString().contains("does not export"),
                    log.toString());
        }
    }
}
