package dev.tessera.launch;

import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program's {@code main} once per rank, ranks as threads of this JVM, each with
 * its own class loader for the program's classes. Returns the job's exit status: 0 if
 * every rank returned normally, 1 if any failed (the failure is printed, naming the rank).
 */
public final class SmpLauncher {

    /** How long the other ranks get to end once a rank has failed (the process launcher's grace). */
    static final long GRACE_MILLIS = LaunchSpec.RANK_FAILURE_GRACE_MILLIS;

    private final PrintStream err;

    public SmpLauncher(PrintStream err) {
        this.err = err;
    }

    public int run(LaunchSpec spec) {
        URL[] all = toUrls(spec.classPath());
        // Jars of Java bindings to native libraries load once, for all ranks: a JVM lets only one
        // class loader own a JNI library, so per-rank copies would leave all ranks but one without it.
        URL[] shared = java.util.Arrays.stream(all).filter(SmpLauncher::bindsNativeLibrary).toArray(URL[]::new);
        URL[] urls = java.util.Arrays.stream(all).filter(u -> !bindsNativeLibrary(u)).toArray(URL[]::new);
        ClassLoader parent = shared.length == 0 ? SmpLauncher.class.getClassLoader()
                : new java.net.URLClassLoader("smp-native-bindings", shared, SmpLauncher.class.getClassLoader());
        List<RankClassLoader> loaders = new ArrayList<>();
        for (int r = 0; r < spec.ranks(); r++) {
            loaders.add(new RankClassLoader(r, urls, parent));
        }
        Method[] mains = new Method[spec.ranks()];
        for (int r = 0; r < spec.ranks(); r++) {
            try {
                mains[r] = findMain(loaders.get(r), spec.mainClass());
            } catch (LaunchException e) {
                err.println("tessera: " + e.getMessage());
                return 2;
            }
        }
        String[] args = withThreads(spec);
        if (spec.tagOutput()) {
            RankTaggedOutput.install();
        }
        SmpJob job = new SmpJob(spec.ranks());
        Thread exitGuard = exitGuard(job);
        int bindThreads = bindThreads(spec);
        job.start(rank -> () -> {
            if (bindThreads > 0) {
                dev.tessera.runtime.internal.Affinity.bindRank(rank, spec.ranks(), bindThreads);
            }
            invoke(mains[rank], args.clone());
        }, loaders::get, 16L << 20);
        try {
            List<Integer> cutOff = awaitRanks(job);
            if (!cutOff.isEmpty()) {
                SmpJob.RankOutcome first = job.rootFailure();
                err.println("tessera: rank(s) " + cutOff + " still running " + GRACE_MILLIS / 1000 + " s after rank "
                        + (first == null ? "?" : first.rank()) + " failed (a rank thread that makes no Tessera call"
                        + " cannot be told); ending the job");
                if (first != null) {
                    err.println("tessera: rank " + first.rank() + " failed: " + first.failure());
                    first.failure().printStackTrace(err);
                }
                return 1;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            job.reportFailure(-1, e);
            return 130;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(exitGuard);
            } catch (IllegalStateException ignored) {
                // already shutting down
            }
            System.out.flush();
            for (RankClassLoader l : loaders) {
                try {
                    l.close();
                } catch (java.io.IOException ignored) {
                    // nothing useful to do when closing a jar fails at exit
                }
            }
        }
        SmpJob.RankOutcome failure = job.rootFailure();
        if (failure != null) {
            err.println("tessera: rank " + failure.rank() + " failed: " + failure.failure());
            failure.failure().printStackTrace(err);
            return 1;
        }
        return 0;
    }

    /**
     * Waits for every rank; once one has failed (the others' calls then end with an error naming
     * it), the rest get {@link #GRACE_MILLIS} to finish, as the process launcher gives rank
     * processes before it kills them. Returns the ranks still running after that (empty: all
     * ended); their threads cannot be stopped, so the caller ends the JVM ({@code tessera run}
     * exits with the returned status).
     */
    private static List<Integer> awaitRanks(SmpJob job) throws InterruptedException {
        long failedAt = 0;
        while (!job.join(250, TimeUnit.MILLISECONDS, false)) {
            if (failedAt == 0 && job.rootFailure() != null) {
                failedAt = System.nanoTime();
            }
            if (failedAt != 0 && System.nanoTime() - failedAt > TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS)) {
                return job.runningRanks();
            }
        }
        return List.of();
    }

    /**
     * How long the exit guard waits for the other ranks of a job to end or call System.exit too
     * before it calls the exit a failure that cut them off.
     */
    static final long EXIT_AGREEMENT_MILLIS = 500;

    /**
     * A shutdown hook that fails the job when a rank thread calls System.exit while other ranks
     * are still running: the JVM, and with it every rank, ends with the caller's status, and a
     * status 0 would report a job that never finished as a success. The hook prints which rank
     * exited with which status and which ranks were cut off, and ends the JVM with status 1
     * (or the caller's non-zero status). Ranks that end or call System.exit themselves within
     * {@link #EXIT_AGREEMENT_MILLIS} are not cut off: when every rank does, the JVM ends with the
     * first caller's status and the hook says nothing. A signal (Ctrl-C) ends the job as before.
     */
    private Thread exitGuard(SmpJob job) {
        dev.tessera.runtime.internal.ExitWatch.install();
        Thread guard = new Thread(() -> {
            if (dev.tessera.runtime.internal.ExitWatch.bySignal()) {
                return;
            }
            int who = dev.tessera.runtime.internal.ExitWatch.exitingRank();
            List<Integer> cut = new ArrayList<>(job.runningRanks());
            cut.remove(Integer.valueOf(who));
            // every rank may be ending by System.exit (a program that refuses its arguments on every rank, as the
            // NPB kernels do): give the others a moment to end or reach System.exit themselves, which is no failure
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_AGREEMENT_MILLIS);
            while (!cut.isEmpty() && System.nanoTime() < end) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    break;
                }
                cut = new ArrayList<>(job.runningRanksNotExiting());
                cut.remove(Integer.valueOf(who));
            }
            if (cut.isEmpty()) {
                return;
            }
            int status = dev.tessera.runtime.internal.ExitWatch.status();
            System.out.flush();
            err.println("tessera: " + (who >= 0 ? "rank " + who : "a thread of the job") + " called System.exit with "
                    + dev.tessera.runtime.internal.ExitWatch.describe() + " while rank(s) " + cut
                    + " were still running: the job failed (a rank ends by returning from main)");
            err.flush();
            Runtime.getRuntime().halt(status > 0 ? status : 1);
        }, "tessera-smp-exit-guard");
        Runtime.getRuntime().addShutdownHook(guard);
        return guard;
    }

    /**
     * With --bind-to core (the default of tessera run), the threads per rank that each rank
     * thread is bound with, as process ranks are bound (local rank i with T threads: cores
     * iT..iT+T-1 of the allowed set); 0: no binding (--bind-to none, or ranks x threads exceed
     * the cores). Two rank threads that exchange messages otherwise end up stacked on one core of
     * a small machine at times, once one of them parks and the other wakes it: smp bw at 8 B and
     * 1 KiB on a 2-core AMD EPYC fell 10-50x in such runs (docs/performance.md, 2026-11-25).
     */
    private static int bindThreads(LaunchSpec spec) {
        if (!spec.bindToCore()) {
            return 0;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        int threads = spec.threads() > 0 ? spec.threads()
                : environmentThreads() > 0 ? environmentThreads() : Math.max(1, cores / Math.max(1, spec.ranks()));
        return (long) threads * spec.ranks() <= cores ? threads : 0;
    }

    /** TESSERA_THREADS of this JVM's environment (the ranks' Options read it too), or 0 if unset or not a number. */
    private static int environmentThreads() {
        try {
            return Integer.parseInt(System.getenv().getOrDefault("TESSERA_THREADS", "0").strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    static String[] withThreads(LaunchSpec spec) {
        List<String> a = new ArrayList<>();
        int bound = environmentThreads() > 0 ? 0 : bindThreads(spec);
        if (spec.threads() > 0 || bound > 0) {
            // a bound rank thread sees only its own cores (Runtime.availableProcessors), so the
            // default thread count, computed from all of them, is passed on explicitly
            a.add("--threads");
            a.add(Integer.toString(spec.threads() > 0 ? spec.threads() : bound));
        }
        a.addAll(spec.args());
        return a.toArray(new String[0]);
    }

    private static void invoke(Method main, String[] args) {
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error er) {
                throw er;
            }
            throw new RankFailedException(cause);
        } catch (IllegalAccessException e) {
            throw new RankFailedException(e);
        }
    }

    static Method findMain(ClassLoader loader, String mainClass) throws LaunchException {
        Class<?> c;
        try {
            c = Class.forName(mainClass, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new LaunchException("main class " + mainClass + " not found on the class path (" + e + ")");
        }
        try {
            Method m = c.getMethod("main", String[].class);
            if (!Modifier.isStatic(m.getModifiers())) {
                throw new LaunchException(mainClass + ".main(String[]) is not static");
            }
            return m;
        } catch (NoSuchMethodException e) {
            throw new LaunchException(mainClass + " has no public static void main(String[])");
        }
    }

    /** Jars of JNI bindings (JOCL, JCuda): loaded by one loader shared by the ranks. */
    static boolean bindsNativeLibrary(URL url) {
        String name = url.getPath().substring(url.getPath().lastIndexOf('/') + 1);
        return name.endsWith(".jar") && (name.startsWith("jocl") || name.startsWith("jcu"));
    }

    /** The class path as URLs; an entry {@code dir/*} stands for every jar in dir, as for java -cp. */
    static URL[] toUrls(List<Path> classPath) {
        List<URL> urls = new ArrayList<>();
        for (Path entry : classPath) {
            List<Path> expanded = new ArrayList<>();
            if (entry.getFileName() != null && entry.getFileName().toString().equals("*")) {
                Path dir = entry.getParent() == null ? Path.of(".") : entry.getParent();
                try (java.util.stream.Stream<Path> jars = Files.list(dir)) {
                    jars.filter(j -> j.toString().endsWith(".jar") || j.toString().endsWith(".JAR")).sorted().forEach(expanded::add);
                } catch (java.io.IOException e) {
                    System.err.println("tessera: warning: class path entry " + entry + ": cannot list " + dir + " (" + e + ")");
                }
            } else {
                expanded.add(entry);
            }
            for (Path p : expanded) {
                try {
                    Path abs = p.toAbsolutePath().normalize();
                    if (!Files.exists(abs)) {
                        System.err.println("tessera: warning: class path entry " + p + " does not exist");
                    }
                    urls.add(abs.toUri().toURL());
                } catch (MalformedURLException e) {
                    throw new IllegalArgumentException("bad class path entry " + p, e);
                }
            }
        }
        return urls.toArray(new URL[0]);
    }

    /** A checked exception thrown by a rank's main, carried out of the rank thread. */
    static final class RankFailedException extends RuntimeException {
        RankFailedException(Throwable cause) {
            super(cause.toString(), cause);
        }
    }

    /** A problem with what was asked to launch (class not found, no main). */
    static final class LaunchException extends Exception {
        LaunchException(String message) {
            super(message);
        }
    }
}
