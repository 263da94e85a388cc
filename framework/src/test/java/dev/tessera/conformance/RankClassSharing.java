package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Datatype;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * Shortens the start of the test jobs' rank JVMs (hundreds of jobs of up to 7 JVMs each on
 * a 2-core machine, where JVM start-up is most of a job's time) with a class data sharing
 * archive: the classes a rank loads (the framework's, the tests', the JDK's beyond its own
 * default archive) stored once, mapped by every rank instead of being parsed and verified
 * again. The JVM archives classes from jar files only, so once per test JVM the class
 * directories of its class path (target/classes, target/test-classes) are packed into jar
 * copies, and a one-rank shm job started from them writes the archive when it exits
 * ({@code -XX:ArchiveClassesAtExit}, to a temporary name moved into place when whole). The
 * process runners then start their ranks from the jars with {@code -XX:SharedArchiveFile}.
 *
 * <p>Only this JVM writes its archive, into a directory of its own, before any rank reads
 * it, and nothing rewrites it later: there is no concurrent creation. A rank that cannot use
 * the archive (missing, or not matching its class path) starts without it, slower but the
 * same (CDS is on {@code -Xshare:auto}, its log is off so that job output does not change);
 * if the jars or the archive cannot be made the ranks start from the class directories as
 * before, and one line on standard error says why. {@code -Dtessera.test.cds=false} turns it off.
 */
final class RankClassSharing {

    /** The class path and extra JVM options of rank processes; {@link #NONE}: this JVM's class path, no options. */
    record Setup(String classPath, List<String> jvmOptions) {
    }

    static final Setup NONE = new Setup(null, List.of());

    private static Setup setup;

    private RankClassSharing() {
    }

    /** The setup of this JVM's test jobs, made by the first call. */
    static synchronized Setup get() {
        if (setup == null) {
            setup = Boolean.parseBoolean(System.getProperty("tessera.test.cds", "true")) ? create() : NONE;
        }
        return setup;
    }

    private static Setup create() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("tessera-test-cds-");
            Path made = dir;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(made), "tessera-test-cds-cleanup"));
            String classPath = jarCopies(System.getProperty("java.class.path"), dir);
            Path archive = dir.resolve("ranks.jsa");
            Path partial = dir.resolve("ranks.jsa.part");
            ProcessJobRunner.Result r = new ProcessJobRunner("shm").launch(1, RankClassSharing::train, List.of(),
                    new Setup(classPath, List.of("-XX:ArchiveClassesAtExit=" + partial, "-Xlog:cds*=off")));
            if (r.status() != 0 || !Files.isRegularFile(partial) || Files.size(partial) == 0) {
                throw new IOException("the one-rank job that writes it exited with status " + r.status()
                        + (Files.isRegularFile(partial) ? "" : " and wrote no archive") + ": " + r.output().strip());
            }
            Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
            return new Setup(classPath, List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds*=off"));
        } catch (IOException | RuntimeException e) {
            System.err.println("tests: rank JVMs start without a class data sharing archive (" + e.getMessage() + ")");
            if (dir != null) {
                deleteTree(dir);
            }
            return NONE;
        }
    }

    /** {@code classPath} with each non-empty directory replaced by a jar copy of it in {@code dir}. */
    static String jarCopies(String classPath, Path dir) throws IOException {
        ToolProvider jar = ToolProvider.findFirst("jar").orElseThrow(() -> new IOException("no jar tool in this JDK"));
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath();
            if (!Files.isDirectory(p) || isEmpty(p)) {
                entries.add(p.toString());
                continue;
            }
            Path copy = dir.resolve("cp" + entries.size() + ".jar");
            ByteArrayOutputStream messages = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(messages, true, StandardCharsets.UTF_8);
            int status = jar.run(sink, sink, "--create", "--no-manifest", "--file", copy.toString(), "-C", p.toString(), ".");
            if (status != 0) {
                throw new IOException("jar of " + p + " failed: " + messages.toString(StandardCharsets.UTF_8).strip());
            }
            entries.add(copy.toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }

    /** What the archive job's rank does: start-up, typical calls and checks, so that their classes are archived. */
    static void train(Comm world) {
        world.barrier();
        for (Datatype t : TypedValues.TYPES) {
            if (!TypedValues.applicable("SUM", t)) {
                continue;
            }
            Object out = TypedValues.array(t, 5);
            world.allreduce(TypedValues.buffer(t, TypedValues.contribution("SUM", world.rank(), 5)),
                    TypedValues.wrap(out), TypedValues.op("SUM"));
            assertEquals(5, TypedValues.read(out).length, t.toString());
        }
        double[] data = {1, 2, 3};
        world.bcast(Buffer.of(data), 0);
        int[] all = new int[world.size()];
        world.allgather(Buffer.of(new int[] {world.rank()}), Buffer.of(all));
        assertArrayEquals(new int[] {0}, all);
        long[] back = new long[2];
        world.sendrecv(Buffer.of(new long[] {7, 8}), 0, 1, Buffer.of(back), 0, 1);
        assertArrayEquals(new long[] {7, 8}, back, "sendrecv to self");
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // already gone
        }
    }
}
