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
 * The MPI+OpenMP reference of an NPB-MZ benchmark, built from a user's NPB3.4-MZ source tree
 * with the system's mpif90 (config/make.def.template: mpif90 -O3 -fopenmp, plus
 * -fallow-argument-mismatch for gfortran 10 and later) in a copy of the
 * tree under the sweep's output directory, and run with mpirun and OMP_NUM_THREADS.
 */
final class NpbMzReference {

    private final Path source;
    private final Path build;

    /**
     * @param npbHome the NPB3.4-MZ directory or its NPB3.4-MZ-MPI subdirectory
     * @param workDir where the tree is copied and built
     */
    NpbMzReference(Path npbHome, Path workDir) {
        Path mpi = Files.isDirectory(npbHome.resolve("NPB3.4-MZ-MPI")) ? npbHome.resolve("NPB3.4-MZ-MPI") : npbHome;
        if (!Files.isRegularFile(mpi.resolve("config/make.def.template")) || !Files.isDirectory(mpi.resolve("BT-MZ"))) {
            throw new IllegalArgumentException("--npb-home " + npbHome + " is not an NPB3.4-MZ tree (no NPB3.4-MZ-MPI/"
                    + "config/make.def.template and BT-MZ/ under it); get it from https://www.nas.nasa.gov/software/npb.html");
        }
        this.source = mpi;
        this.build = workDir.resolve("npb-mz-mpi");
    }

    /** Builds {@code bench} (bt-mz, sp-mz, lu-mz) class {@code cls} once; returns the executable. */
    Path build(String bench, char cls) throws IOException, InterruptedException {
        if (!Files.isDirectory(build)) {
            copyTree(source, build);
        }
        // The template's mpif90 -O3 -fopenmp, plus -fallow-argument-mismatch: gfortran 10 and later
        // reject the reference's MPI calls that pass scalars and arrays to the same argument.
        String template = Files.readString(build.resolve("config/make.def.template"));
        Files.writeString(build.resolve("config/make.def"), template.replaceAll("(?m)^FFLAGS\\s*=\\s*(.*)$",
                "FFLAGS\t= $1 -fallow-argument-mismatch"));
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
    static List<String> command(Path exe, Layout layout, Map<String, String> env) {
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

    static String tail(String text, int chars) {
        return text.length() <= chars ? text : "..." + text.substring(text.length() - chars);
    }
}
