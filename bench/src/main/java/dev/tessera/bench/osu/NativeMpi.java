package dev.tessera.bench.osu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Open MPI for {@code --vs native}: finds mpicc and mpirun, builds bench/native/osu_mpi.c
 * into bench/native/build on first use (or when the source is newer), and composes the
 * mpirun command: {@code --bind-to none}, the shared-memory transport (btl self,vader)
 * when Tessera runs on smp or shm, TCP over loopback (btl self,tcp) for tcp, Open MPI's
 * default choice for auto; {@code --oversubscribe} when there are more ranks than cores.
 */
public final class NativeMpi {

    private final Path root;

    public NativeMpi(Path root) {
        this.root = root;
    }

    /** Null when Open MPI can be used, else one line saying why not. */
    public static String unavailable() {
        for (String tool : List.of("mpicc", "mpirun")) {
            if (which(tool) == null) {
                return tool + " not found on PATH: native MPI comparison skipped (install Open MPI, e.g. apt-get install openmpi-bin libopenmpi-dev)";
            }
        }
        return null;
    }

    /** The executable {@code tool} on PATH, or null. */
    public static Path which(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** The Open MPI transport compared with a Tessera device. */
    public static String transport(String device) {
        return switch (device) {
            case "smp", "shm", "mpi" -> "vader";
            case "tcp" -> "tcp";
            default -> "default";
        };
    }

    public List<String> mpirun(int ranks, String device) {
        List<String> cmd = new ArrayList<>(List.of("mpirun", "-np", Integer.toString(ranks), "--bind-to", "none"));
        if (ranks > java.lang.Runtime.getRuntime().availableProcessors()) {
            cmd.add("--oversubscribe");
        }
        switch (transport(device)) {
            case "vader" -> cmd.addAll(List.of("--mca", "btl", "self,vader"));
            case "tcp" -> cmd.addAll(List.of("--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"));
            default -> { }
        }
        return cmd;
    }

    /** Description for table headers, e.g. "Open MPI 4.1.4, btl self,vader". */
    public String describe(String device) {
        String t = transport(device);
        return version() + (t.equals("default") ? ", default transports" : ", btl self," + t);
    }

    /** First line of {@code mpirun --version}, e.g. "Open MPI 4.1.4"; "MPI (unknown version)" if that fails. */
    public static String version() {
        try {
            Process p = new ProcessBuilder("mpirun", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            String first = out.lines().findFirst().orElse("").trim();
            // "mpirun (Open MPI) 4.1.4" -> "Open MPI 4.1.4"
            return first.replaceFirst("^mpirun \\((.*)\\) (.*)$", "$1 $2");
        } catch (IOException e) {
            return "MPI (unknown version)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "MPI (unknown version)";
        }
    }

    /** The native benchmark binary, built first if missing or older than its source. */
    public synchronized Path binary() throws IOException, InterruptedException {
        Path src = root.resolve("bench/native/osu_mpi.c");
        Path bin = root.resolve("bench/native/build/osu_mpi");
        if (Files.exists(bin) && Files.getLastModifiedTime(bin).compareTo(Files.getLastModifiedTime(src)) >= 0) {
            return bin;
        }
        Files.createDirectories(bin.getParent());
        Process p = new ProcessBuilder("mpicc", "-O2", "-o", bin.toString(), src.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("building " + src + " with mpicc failed:\n" + out);
        }
        return bin;
    }
}
