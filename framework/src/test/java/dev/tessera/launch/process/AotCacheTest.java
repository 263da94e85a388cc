package dev.tessera.launch.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The rank processes' AOT cache: when it is used, where it lives, and a real job that writes and then maps it. */
class AotCacheTest {

    @Test
    void modesParseAndABadOneNamesItsSource() {
        assertEquals(AotCache.Mode.AUTO, AotCache.Mode.parse(null, "TESSERA_AOT"));
        assertEquals(AotCache.Mode.AUTO, AotCache.Mode.parse(" ", "TESSERA_AOT"));
        assertEquals(AotCache.Mode.ON, AotCache.Mode.parse("ON", "--aot"));
        assertEquals(AotCache.Mode.OFF, AotCache.Mode.parse(" off ", "--aot"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AotCache.Mode.parse("yes", "TESSERA_AOT"));
        assertEquals("TESSERA_AOT must be auto, on or off, got 'yes'", e.getMessage());
    }

    @Test
    void autoUsesTheCacheOnlyWhenRanksOutnumberCores() {
        assertTrue(AotCache.wanted(AotCache.Mode.AUTO, 4, 2));
        assertFalse(AotCache.wanted(AotCache.Mode.AUTO, 2, 2));
        assertTrue(AotCache.wanted(AotCache.Mode.ON, 1, 16));
        assertFalse(AotCache.wanted(AotCache.Mode.OFF, 8, 2));
    }

    @Test
    void theTrainingJobRecordsClassesButNoProfiles(@TempDir Path dir) {
        List<String> options = AotCache.trainingOptions(dir, List.of("--add-modules=jdk.incubator.vector"));
        assertEquals("--add-modules=jdk.incubator.vector", options.get(0));
        assertTrue(options.contains("-XX:AOTCacheOutput=" + dir.resolve("rank%p.aot")), options.toString());
        int unlock = options.indexOf("-XX:+UnlockDiagnosticVMOptions");
        assertTrue(unlock >= 0 && unlock < options.indexOf("-XX:-AOTRecordTraining"), options.toString());
    }

    @Test
    void theDirectoryComesFromTheEnvironment() {
        assertEquals(Path.of("/a/b"), AotCache.directory(Map.of("TESSERA_AOT_DIR", "/a/b", "XDG_CACHE_HOME", "/x")));
        assertEquals(Path.of("/x/tessera/aot"), AotCache.directory(Map.of("XDG_CACHE_HOME", "/x")));
        assertEquals(Path.of(System.getProperty("user.home"), ".cache", "tessera", "aot"), AotCache.directory(Map.of()));
    }

    @Test
    void aRebuiltJarGetsAnotherCacheFile(@TempDir Path dir) throws IOException {
        Path jar = Files.writeString(dir.resolve("a.jar"), "one");
        Path other = Files.writeString(dir.resolve("b.jar"), "two");
        Path first = AotCache.file(dir, jar.toString());
        assertEquals(first, AotCache.file(dir, jar.toString()));
        assertTrue(first.getFileName().toString().matches("tessera-ranks-[0-9a-f]{16}\\.aot"), first.toString());
        assertNotEquals(first, AotCache.file(dir, jar + java.io.File.pathSeparator + other));
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5_000));
        assertNotEquals(first, AotCache.file(dir, jar.toString()), "same path, newer jar: a new cache");
    }

    @Test
    void moduleOptionsAreFoundInBothFormsAndNameACacheOfTheirOwn(@TempDir Path dir) throws IOException {
        List<String> options = List.of("-Xmx1g", "--add-modules=jdk.incubator.vector", "-Dtessera.x=--add-opens",
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED", "-p", "mods", "-XX:+UseSerialGC",
                " --enable-native-access=ALL-UNNAMED ");
        assertEquals(List.of("--add-modules=jdk.incubator.vector", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--module-path=mods", "--enable-native-access=ALL-UNNAMED"), AotCache.moduleOptions(options));
        assertEquals(List.of(), AotCache.moduleOptions(List.of("-Xmx1g", "-Dadd-modules=x", "--add-modulesX=y")));
        Path jar = Files.writeString(dir.resolve("a.jar"), "one");
        Path plain = AotCache.file(dir, jar.toString());
        assertEquals(plain, AotCache.file(dir, jar.toString(), List.of()), "no module options: the name as before");
        Path vector = AotCache.file(dir, jar.toString(), List.of("--add-modules=jdk.incubator.vector"));
        assertNotEquals(plain, vector);
        assertEquals(vector, AotCache.file(dir, jar.toString(), List.of("--add-modules=jdk.incubator.vector")));
        assertNotEquals(vector, AotCache.file(dir, jar.toString(), List.of("--add-modules=java.sql")));
    }

    @Test
    void aNewCacheLeavesTheFourNewestOfTheDirectory(@TempDir Path dir) throws IOException {
        List<Path> caches = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Path p = Files.writeString(dir.resolve("tessera-ranks-00000000000000a" + i + ".aot"), "x");
            Files.setLastModifiedTime(p, FileTime.fromMillis(1_000_000_000_000L + i * 60_000L));
            caches.add(p);
        }
        Path other = Files.writeString(dir.resolve("notes.txt"), "not a cache");
        Files.setLastModifiedTime(other, FileTime.fromMillis(0));
        AotCache.prune(dir, AotCache.KEEP);
        assertFalse(Files.exists(caches.get(0)));
        assertFalse(Files.exists(caches.get(1)));
        for (int i = 2; i < 6; i++) {
            assertTrue(Files.exists(caches.get(i)), caches.get(i).toString());
        }
        assertTrue(Files.exists(other), "only caches are deleted");
    }

    @Test
    void classDirectoriesAreFound(@TempDir Path dir) throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        Path classes = Files.createDirectory(dir.resolve("classes"));
        Files.writeString(classes.resolve("A.class"), "x");
        Path jar = Files.writeString(dir.resolve("a.jar"), "x");
        String sep = java.io.File.pathSeparator;
        assertNull(AotCache.nonEmptyDirectory(empty + sep + jar));
        assertEquals(classes.toString(), AotCache.nonEmptyDirectory(jar + sep + classes + sep + empty));
    }

    /**
     * The whole path with real processes: a launcher JVM started from jars (as bin/tessera is)
     * runs a 2-rank shm job with --aot on; the first run writes the cache through its training
     * job, the second maps it in its ranks, also with a class directory appended to the ranks'
     * class path (the program's classes, as users pass them).
     */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aJobWritesTheCacheOnceAndItsRanksMapIt(@TempDir Path dir) throws Exception {
        String launcherPath = jarredClassPath(dir);
        Path cacheDir = dir.resolve("cache");
        Path programClasses = Files.createDirectory(dir.resolve("program"));
        // the program of the second run, in a class directory as users pass theirs
        String loops = TeamLoops.class.getName().replace('.', '/') + ".class";
        Path loopsClass = programClasses.resolve(loops);
        Files.createDirectories(loopsClass.getParent());
        try (var in = AotCacheTest.class.getClassLoader().getResourceAsStream(loops)) {
            Files.copy(in, loopsClass);
        }

        Run first = launch(launcherPath, cacheDir, "--aot", "on", "-np", "2", "--device", "shm",
                "dev.tessera.launch.process.AotTraining", "20");
        assertEquals(0, first.status, first.output);
        assertTrue(first.output.contains("writing the rank processes' AOT cache"), first.output);
        List<Path> written;
        try (Stream<Path> files = Files.list(cacheDir)) {
            written = files.toList();
        }
        assertEquals(1, written.size(), written.toString());
        assertTrue(written.get(0).getFileName().toString().startsWith("tessera-ranks-"), written.toString());
        assertTrue(Files.size(written.get(0)) > 1_000_000, "a cache of the framework's classes, not a stub");

        Run second = launch(launcherPath, cacheDir, "--aot", "on", "-np", "2", "--device", "shm",
                "--jvm-opt", "-Xlog:aot=info", "--jvm-opt", "-Xlog:class+load=info",
                "-cp", programClasses.toString(), TeamLoops.class.getName());
        assertEquals(0, second.status, second.output);
        assertEquals(2, second.output.lines().filter(l -> l.contains("team loops done")).count(), second.output);
        assertFalse(second.output.contains("writing the rank processes' AOT cache"), second.output);
        // one line per rank JVM: both mapped the cache despite the class directory after the framework's jars
        assertEquals(2, second.output.lines().filter(l -> l.contains("Opened AOT cache " + written.get(0))).count(),
                second.output);
        // the training ran loops over the team, so the classes a program's team loops load (the team's
        // own and the lambdas that carry a loop to its members) come from the cache, not from the jar
        // in the middle of the job's first step
        List<String> teamClasses = second.output.lines()
                .filter(l -> l.contains("[class,load]") && l.contains(" dev.tessera.task.")).toList();
        assertFalse(teamClasses.isEmpty(), second.output);
        assertTrue(teamClasses.stream().anyMatch(l -> l.contains("$$Lambda")), String.join("\n", teamClasses));
        List<String> notCached = teamClasses.stream().filter(l -> !l.contains("source: shared objects file")).toList();
        assertTrue(notCached.isEmpty(),
                "team classes loaded from outside the AOT cache:\n" + String.join("\n", notCached));

        Run off = launch(launcherPath, cacheDir, "--aot", "off", "-np", "2", "--device", "shm",
                "--jvm-opt", "-Xlog:aot=info", "dev.tessera.launch.process.AotTraining", "20");
        assertEquals(0, off.status, off.output);
        assertFalse(off.output.contains("Opened AOT cache"), off.output);

        // ranks started with a module option (bin/tessera npb adds --add-modules=jdk.incubator.vector): the JVM
        // refuses a cache written without it, with five error lines per rank, so they get one written with it
        Run vector = launch(launcherPath, cacheDir, "--aot", "on", "-np", "2", "--device", "shm",
                "--jvm-opt", "--add-modules=jdk.incubator.vector", "--jvm-opt", "-Xlog:aot=info",
                "dev.tessera.launch.process.AotTraining", "20");
        assertEquals(0, vector.status, vector.output);
        assertTrue(vector.output.contains("writing the rank processes' AOT cache")
                && vector.output.contains("for --add-modules=jdk.incubator.vector"), vector.output);
        assertFalse(vector.output.contains("[error]"), vector.output);
        List<Path> both;
        try (Stream<Path> files = Files.list(cacheDir)) {
            both = files.filter(p -> !p.equals(written.get(0))).toList();
        }
        assertEquals(1, both.size(), both.toString());
        assertEquals(2, vector.output.lines().filter(l -> l.contains("Opened AOT cache " + both.get(0))).count(),
                vector.output);
        Run again = launch(launcherPath, cacheDir, "--aot", "on", "-np", "2", "--device", "shm",
                "--jvm-opt", "--add-modules=jdk.incubator.vector", "dev.tessera.launch.process.AotTraining", "20");
        assertEquals(0, again.status, again.output);
        assertFalse(again.output.contains("writing the rank processes' AOT cache"), again.output);
        assertFalse(again.output.contains("[error]"), again.output);
    }

    /** Loops over the rank's team as a solver's stencil does (a rank program for the test above). */
    public static final class TeamLoops {
        public static void main(String[] args) {
            try (dev.tessera.runtime.Session session = dev.tessera.runtime.Tessera.init(args)) {
                dev.tessera.task.Team team = session.team();
                double[] a = new double[64];
                for (int r = 0; r < 20; r++) {
                    team.parallelForRange(0, a.length, dev.tessera.task.Schedule.STATIC, (from, to) -> {
                        for (int i = from; i < to; i++) {
                            a[i] += i;
                        }
                    });
                    team.parallelFor(0, 4, dev.tessera.task.Schedule.dynamic(1), i -> a[i] += 1);
                }
                System.out.println("team loops done on rank " + session.world().rank() + ": " + a[63]);
            }
        }
    }

    /** Prints the JVM's command line arguments, its options among them (a rank program for the test below). */
    public static final class PrintJvmOptions {
        public static void main(String[] args) {
            try (dev.tessera.runtime.Session session = dev.tessera.runtime.Tessera.init(args)) {
                System.out.println("options of rank " + session.world().rank() + ": "
                        + ProcessHandle.current().info().arguments().map(java.util.Arrays::toString).orElse("?"));
            }
        }
    }

    /**
     * Ranks that outnumber the cores get -XX:CompileThresholdScaling=3 (the JVMs share the cores
     * with each other's JIT compilers), unless the user passes their own; a job with a core per
     * rank gets nothing added.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void oversubscribedRanksCompileLater(@TempDir Path dir) throws Exception {
        String cp = System.getProperty("java.class.path");
        String over = Integer.toString(Runtime.getRuntime().availableProcessors() + 1);
        Run run = launch(cp, dir, "-np", over, "--device", "shm", PrintJvmOptions.class.getName());
        assertEquals(0, run.status, run.output);
        long scaled = run.output.lines().filter(l -> l.startsWith("options of rank ")
                && l.contains("-XX:CompileThresholdScaling=3")).count();
        assertEquals(Long.parseLong(over), scaled, run.output);

        Run own = launch(cp, dir, "-np", over, "--device", "shm", "--jvm-opt", "-XX:CompileThresholdScaling=1",
                PrintJvmOptions.class.getName());
        assertEquals(0, own.status, own.output);
        assertFalse(own.output.contains("CompileThresholdScaling=3"), own.output);
        assertEquals(Long.parseLong(over), own.output.lines().filter(l -> l.contains("CompileThresholdScaling=1")).count(),
                own.output);

        Run one = launch(cp, dir, "-np", "1", "--device", "shm", PrintJvmOptions.class.getName());
        assertEquals(0, one.status, one.output);
        assertTrue(one.output.contains("options of rank 0"), one.output);
        assertFalse(one.output.contains("CompileThresholdScaling"), one.output);
    }

    private record Run(int status, String output) {
    }

    private static Run launch(String classPath, Path cacheDir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "dev.tessera.launch.TesseraCommand", "run"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("TESSERA_AOT_DIR", cacheDir.toString());
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), output);
    }

    /** This JVM's class path with every class directory packed into a jar (the JVM caches classes from jars only). */
    private static String jarredClassPath(Path dir) throws IOException {
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (!Files.isDirectory(p)) {
                entries.add(entry);
                continue;
            }
            if (p.endsWith("test-classes")) {
                continue;   // the launcher needs the framework, not its tests
            }
            Path jar = dir.resolve("classes-" + n++ + ".jar");
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out);
                 Stream<Path> files = Files.walk(p)) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    String name = p.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                    if (name.equals("module-info.class")) {
                        continue;   // on the class path, as bin/tessera runs it
                    }
                    jarOut.putNextEntry(new JarEntry(name));
                    Files.copy(f, jarOut);
                    jarOut.closeEntry();
                }
            }
            entries.add(jar.toString());
        }
        return String.join(java.io.File.pathSeparator, entries);
    }
}
