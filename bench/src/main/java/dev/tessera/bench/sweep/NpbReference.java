package dev.tessera.bench.sweep;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The reference build of the NAS Parallel Benchmarks from a user's source tree: NPB3.4-MPI
 * (the kernels, pure MPI) or NPB3.4-MZ-MPI (the multi-zone benchmarks, MPI+OpenMP), built
 * with the system's mpif90/mpicc from the tree's config/make.def.template (-O3, -fopenmp for
 * the MZ suite) plus -fallow-argument-mismatch (gfortran 10 and later reject the
 * reference's MPI calls that pass scalars and arrays to one argument), in a copy of the tree
 * under the output directory, and run with mpirun (and OMP_NUM_THREADS).
 */
public final class NpbReference {

    /** Where the NAS distributes the sources, for the message when none is given. */
    public static final String WHERE = "https://www.nas.nasa.gov/software/npb.html (NPB 3.4.x: NPB3.4/ and NPB3.4-MZ/)";

    private final Path source;
    private final Path build;

    private NpbReference(Path source, Path build) {
        this.source = source;
        this.build = build;
    }

    /** The multi-zone suite: {@code npbHome} is the NPB3.4-MZ directory or its NPB3.4-MZ-MPI subdirectory. */
    public static NpbReference multiZone(Path npbHome, Path workDir) {
        return of(npbHome, workDir, "NPB3.4-MZ-MPI", "BT-MZ", "npb-mz-mpi");
    }

    /** The kernels: {@code npbHome} is the NPB3.4 directory or its NPB3.4-MPI subdirectory. */
    public static NpbReference kernels(Path npbHome, Path workDir) {
        return of(npbHome, workDir, "NPB3.4-MPI", "CG", "npb-mpi");
    }

    private static NpbReference of(Path npbHome, Path workDir, String suite, String probe, String copy) {
        Path dir = Files.isDirectory(npbHome.resolve(suite)) ? npbHome.resolve(suite) : npbHome;
        if (!Files.isRegularFile(dir.resolve("config/make.def.template")) || !Files.isDirectory(dir.resolve(probe))) {
            throw new IllegalArgumentException("--npb-home " + npbHome + " is not a tree holding " + suite + " (no "
                    + "config/make.def.template and " + probe + "/ in it or in " + suite + "/ under it); get it from " + WHERE);
        }
        return new NpbReference(dir, workDir.resolve(copy));
    }

    /** Builds {@code bench} (cg, ep, ..., bt-mz, sp-mz, lu-mz) class {@code cls} once; returns the executable. */
    public Path build(String bench, char cls) throws IOException, InterruptedException {
        if (!Files.isDirectory(build)) {
            copyTree(source, build);
        }
        String template = Files.readString(build.resolve("config/make.def.template"));
        // RAND = randdp: the portable double-precision generator (randi8's X'..' constants are not
        // standard Fortran and gfortran 10 and later reject them).
        Files.writeString(build.resolve("config/make.def"), template
                .replaceAll("(?m)^FFLAGS\\s*=\\s*(.*)$", "FFLAGS\t= $1 -fallow-argument-mismatch")
                .replaceAll("(?m)^RAND\\s*=.*$", "RAND   = randdp"));
        Files.createDirectories(build.resolve("bin"));   // the NPB tree ships bin/ empty, and empty directories get lost
        Path exe = build.resolve("bin").resolve(bench + "." + cls + ".x");
        if (!Files.isExecutable(exe)) {
            Process p = new ProcessBuilder("make", bench, "CLASS=" + cls).directory(build.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (p.waitFor() != 0 || !Files.isExecutable(exe)) {
                throw new IOException("building the reference " + bench + " class " + cls + " with make failed (is mpif90 "
                        + "installed? apt-get install gfortran libopenmpi-dev):\n" + tail(out, 2000));
            }
        }
        return exe;
    }

    /** The command that runs {@code exe} on {@code layout}; OMP_NUM_THREADS goes in {@code env} too. */
    public static List<String> command(Path exe, Layout layout, Map<String, String> env) {
        env.put("OMP_NUM_THREADS", Integer.toString(layout.threads()));
        env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        List<String> cmd = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(layout.ranks()), "--oversubscribe",
                "--bind-to", "none", "-x", "OMP_NUM_THREADS"));
        cmd.add(exe.toString());
        return cmd;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    public static String tail(String text, int chars) {
        return text.length() <= chars ? text : "..." + text.substring(text.length() - chars);
    }
}
