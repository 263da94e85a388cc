package dev.tessera.launch.process;

import dev.tessera.launch.LaunchSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An ahead-of-time cache for rank processes (JDK 25's {@code -XX:AOTCache}, JEP 483): the JDK's
 * and the framework's classes already loaded and linked by a training run, so that a rank JVM
 * starts faster and does less of that work on the cores its job computes on. Four rank JVMs on
 * two cores otherwise spend more CPU time starting and compiling the same code than a short job
 * spends computing. The training run's method profiles (JEP 515) are left
 * out ({@link #CONTENTS}): the rank JVMs compiled the collectives' paths from them and ran slower.
 *
 * <p>The cache covers the class path of the launcher (the framework and its libraries), which
 * every rank's class path starts with; the program's own entries are appended after it, which
 * the JVM accepts (it caches classes from jar files only, so a launcher started from class
 * directories, as in the framework's own tests, uses no cache). It is written once per build and
 * JDK by a training job (two shm ranks running {@link AotTraining}, a few seconds) into
 * {@code TESSERA_AOT_DIR} (default {@code ~/.cache/tessera/aot}; the four newest are kept), named
 * by a digest of the JDK, of what the cache holds and of the launcher's class path entries (path,
 * size, modification time): a rebuilt framework gets a new cache. The JVM records
 * the module options it ran with ({@code --add-modules} and the others of {@link #moduleOptions})
 * and refuses a cache written with others, with five error lines on stderr per rank; so the
 * training job runs with the ranks' module options and the digest covers them: NPB's ranks, which
 * {@code bin/tessera npb} starts with {@code --add-modules=jdk.incubator.vector}, get a cache of
 * their own. A JVM that cannot use the cache for another reason (for instance another collector)
 * runs without it.
 *
 * <p>Chosen by {@code tessera run --aot} or {@code TESSERA_AOT}: {@code auto} (the default:
 * when the ranks on this machine outnumber its cores), {@code on} or {@code off}.
 */
public final class AotCache {

    /** Name of the environment variable that chooses the mode. */
    public static final String VARIABLE = "TESSERA_AOT";
    /** Name of the environment variable that names the cache directory. */
    public static final String DIR_VARIABLE = "TESSERA_AOT_DIR";

    /** When rank JVMs use the cache. */
    public enum Mode {
        AUTO, ON, OFF;

        /**
         * The mode named by {@code value} (null or blank: auto).
         *
         * @throws IllegalArgumentException naming {@code source} and the value if it is not auto, on or off
         */
        public static Mode parse(String value, String source) {
            String v = value == null ? "auto" : value.strip().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "auto", "" -> AUTO;
                case "on" -> ON;
                case "off" -> OFF;
                default -> throw new IllegalArgumentException(source + " must be auto, on or off, got '" + value + "'");
            };
        }
    }

    private AotCache() {
    }

    /** True if a job with {@code localRanks} rank processes on this machine of {@code cores} cores uses the cache. */
    public static boolean wanted(Mode mode, int localRanks, int cores) {
        return mode == Mode.ON || (mode == Mode.AUTO && localRanks > cores);
    }

    /** The cache directory: {@code TESSERA_AOT_DIR}, else {@code $XDG_CACHE_HOME/tessera/aot}, else {@code ~/.cache/tessera/aot}. */
    public static Path directory(Map<String, String> env) {
        String dir = env.get(DIR_VARIABLE);
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("tessera").resolve("aot");
    }

    /**
     * The cache file for this JDK and this class path: a digest of the JDK's home and version and
     * of every entry's path, size and modification time (a missing entry counts as such).
     */
    public static Path file(Path directory, String classPath) {
        return file(directory, classPath, List.of());
    }

    /** As {@link #file(Path, String)}, for rank JVMs started with {@code moduleOptions} ({@link #moduleOptions}). */
    public static Path file(Path directory, String classPath, List<String> moduleOptions) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            StringBuilder key = new StringBuilder(System.getProperty("java.home")).append('\n')
                    .append(System.getProperty("java.vm.version")).append('\n')
                    .append(CONTENTS).append('\n');
            if (!moduleOptions.isEmpty()) {
                // only when there are some: a job without module options keys its cache as before they counted
                key.append("module options ").append(String.join(" ", moduleOptions)).append('\n');
            }
            for (String entry : classPath.split(java.io.File.pathSeparator)) {
                Path p = Path.of(entry).toAbsolutePath();
                key.append(p);
                try {
                    key.append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis());
                } catch (IOException e) {
                    key.append(" missing");
                }
                key.append('\n');
            }
            byte[] hash = digest.digest(key.toString().getBytes(StandardCharsets.UTF_8));
            return directory.resolve("tessera-ranks-" + HexFormat.of().formatHex(hash, 0, 8) + ".aot");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * The JVM option that makes rank processes use the cache for the launcher's class path,
     * writing the cache first (a training job; {@code err} gets one line about it) if there is
     * none yet, for rank JVMs started with {@code moduleOptions} ({@link #moduleOptions} of their JVM
     * options: the training job runs with them and they are part of the cache's name). Returns null
     * if the cache cannot be had (the job then runs without it; {@code err} says why).
     */
    public static String option(Map<String, String> env, PrintStream err, boolean explain, List<String> moduleOptions)
            throws InterruptedException {
        String classPath = System.getProperty("java.class.path");
        String directory = nonEmptyDirectory(classPath);
        if (directory != null) {
            // the JVM writes no cache for a class path with class directories (a build's target/classes)
            if (explain) {
                err.println("tessera run: no AOT cache: the launcher's class path holds the directory " + directory
                        + " (the JVM caches classes from jar files only); the ranks start without one");
            }
            return null;
        }
        Path dir = directory(env);
        Path cache = file(dir, classPath, moduleOptions);
        if (Files.isRegularFile(cache)) {
            return "-XX:AOTCache=" + cache;
        }
        err.println("tessera run: writing the rank processes' AOT cache " + cache
                + (moduleOptions.isEmpty() ? "" : " for " + String.join(" ", moduleOptions))
                + " (once per build and JDK; a few seconds; TESSERA_AOT=off to skip)");
        try {
            train(dir, cache, moduleOptions);
            return "-XX:AOTCache=" + cache;
        } catch (IOException | RuntimeException e) {
            err.println("tessera run: no AOT cache (" + e.getMessage() + "); the ranks start without one");
            return null;
        }
    }

    /** The first entry of {@code classPath} that is a directory with something in it, or null. */
    static String nonEmptyDirectory(String classPath) {
        for (String entry : classPath.split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                try (Stream<Path> inside = Files.list(p)) {
                    if (inside.findAny().isPresent()) {
                        return entry;
                    }
                } catch (IOException e) {
                    return entry;
                }
            }
        }
        return null;
    }

    /** How many caches (the newest) a cache directory keeps: one per build and JDK, about 17 MiB each. */
    static final int KEEP = 4;

    /** Deletes all but the {@code keep} newest {@code tessera-ranks-*.aot} files of {@code dir}. */
    static void prune(Path dir, int keep) throws IOException {
        List<Path> caches;
        try (Stream<Path> files = Files.list(dir)) {
            caches = files.filter(p -> p.getFileName().toString().matches("tessera-ranks-[0-9a-f]+\\.aot"))
                    .sorted(java.util.Comparator.comparing((Path p) -> {
                        try {
                            return Files.getLastModifiedTime(p);
                        } catch (IOException e) {
                            return java.nio.file.attribute.FileTime.fromMillis(0);
                        }
                    }).reversed())
                    .toList();
        }
        for (Path old : caches.subList(Math.min(keep, caches.size()), caches.size())) {
            Files.deleteIfExists(old);
        }
    }

    /**
     * The JVM options among {@code jvmOptions} that the JVM records in an AOT cache and must find
     * the same when it maps one: {@code --add-modules}, {@code --limit-modules}, {@code --module-path}
     * ({@code -p}), {@code --upgrade-module-path}, {@code --patch-module}, {@code --add-exports},
     * {@code --add-opens}, {@code --add-reads} and {@code --enable-native-access}, in the order
     * given, each as one {@code --name=value} string (also when given as two, name then value).
     */
    public static List<String> moduleOptions(List<String> jvmOptions) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < jvmOptions.size(); i++) {
            String o = jvmOptions.get(i).strip();
            int eq = o.indexOf('=');
            String name = eq < 0 ? o : o.substring(0, eq);
            if (name.equals("-p")) {
                name = "--module-path";
            }
            if (!MODULE_OPTIONS.contains(name)) {
                continue;
            }
            if (eq >= 0) {
                found.add(name + o.substring(eq));
            } else if (i + 1 < jvmOptions.size()) {
                found.add(name + "=" + jvmOptions.get(++i).strip());
            }
        }
        return List.copyOf(found);
    }

    private static final java.util.Set<String> MODULE_OPTIONS = java.util.Set.of("--add-modules", "--limit-modules",
            "--module-path", "--upgrade-module-path", "--patch-module", "--add-exports", "--add-opens", "--add-reads",
            "--enable-native-access");

    /**
     * Runs the training job: two shm ranks of {@link AotTraining}, started with {@code moduleOptions},
     * each writing a cache when it exits; keeps one.
     */
    static void train(Path dir, Path cache, List<String> moduleOptions) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path work = Files.createTempDirectory(dir, "training-");
        try {
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            PrintStream sink = new PrintStream(output, true, StandardCharsets.UTF_8);
            LaunchSpec spec = new LaunchSpec(2, 0, List.of(), 1, "shm", false, List.of(),
                    AotTraining.class.getName(), List.of(),
                    trainingOptions(work, moduleOptions),
                    Duration.ofSeconds(60), false);
            int status = new ProcessLauncher(sink, sink, Duration.ofMinutes(2), 0).run(spec);
            Path written;
            try (Stream<Path> files = Files.list(work)) {
                written = files.filter(p -> p.getFileName().toString().endsWith(".aot") && Files.isRegularFile(p))
                        .findFirst().orElse(null);
            }
            if (status != 0 || written == null) {
                String text = output.toString(StandardCharsets.UTF_8).strip();
                throw new IOException("the training job exited with status " + status
                        + (written == null ? " and wrote no cache" : "") + (text.isEmpty() ? "" : ": " + text));
            }
            // another job may have written the same file meanwhile: either copy is whole
            Files.move(written, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            prune(dir, KEEP);
        } finally {
            List<Path> left = new ArrayList<>();
            try (Stream<Path> files = Files.list(work)) {
                files.forEach(left::add);
            }
            for (Path p : left) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(work);
        }
    }

    /**
     * What the cache holds, part of its name: the training job's classes, loaded and linked, without
     * its method profiles ({@code -XX:-AOTRecordTraining}). With the profiles (JEP 515), the rank JVMs
     * of a job compiled the collectives' paths from those of the training job's two spinning ranks:
     * 4 shm ranks on 2 cores, bench bcast and reduce, 12 interleaved pairs (docs/performance.md, stop
     * 67), medians with against without the cache: 8-byte bcast 0.643 / 0.381 us (slower in 10 of
     * 12), 64-byte 0.598 / 0.418, 8-byte reduce 0.775 / 0.605.
     */
    static final String CONTENTS = "classes without profiles";

    static List<String> trainingOptions(Path work, List<String> moduleOptions) {
        List<String> options = new ArrayList<>(moduleOptions);
        options.addAll(List.of("-XX:AOTCacheOutput=" + work.resolve("rank%p.aot"), "-XX:+UnlockDiagnosticVMOptions",
                "-XX:-AOTRecordTraining", "-Xlog:aot=warning", "-Xlog:cds=warning"));
        return options;
    }
}
