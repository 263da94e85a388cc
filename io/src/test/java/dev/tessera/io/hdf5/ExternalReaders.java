package dev.tessera.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The independent readers the tests check files with: h5py (libhdf5 under Python) and
 * h5dump. A test that needs one is skipped, with the package to install, when it is absent
 * (bin/test installs python3-h5py and hdf5-tools).
 */
final class ExternalReaders {

    private static String python;
    private static Boolean h5dump;

    private ExternalReaders() {
    }

    /** A Python interpreter that imports h5py and numpy, or null. */
    static synchronized String python() {
        if (python == null) {
            python = firstImporting(List.of("python3", "/usr/bin/python3"), "import h5py, numpy");
        }
        return python.isEmpty() ? null : python;
    }

    /** The first interpreter of {@code candidates} that runs {@code imports}, or "". */
    private static String firstImporting(List<String> candidates, String imports) {
        for (String candidate : candidates) {
            if (run(List.of(candidate, "-c", imports), 60).exit == 0) {
                return candidate;
            }
        }
        return "";
    }

    /** Runs {@code script} under Python with h5py (skips the test when there is none); returns stdout. */
    static String h5py(String script) {
        return runPython(python(), "python3 with h5py is not installed (apt-get install python3-h5py); skipping the h5py check",
                "h5py", "import h5py, numpy as np\n" + script, 120);
    }

    private static final java.util.Map<String, String> configured = new java.util.HashMap<>();

    /**
     * The first interpreter that runs {@code imports} of: ${@code variable} (e.g. a venv made
     * with pip), python3, /usr/bin/python3; null when none does. Looked up once per variable.
     */
    private static synchronized String configuredPython(String variable, String imports) {
        String py = configured.computeIfAbsent(variable, v -> {
            List<String> candidates = new ArrayList<>();
            String named = System.getenv(v);
            if (named != null && !named.isBlank()) {
                candidates.add(named);
            }
            candidates.addAll(List.of("python3", "/usr/bin/python3"));
            return firstImporting(candidates, imports);
        });
        return py.isEmpty() ? null : py;
    }

    /** Runs {@code script} under {@code py}, skipping the test with {@code missing} when it is null; returns stdout. */
    private static String runPython(String py, String missing, String what, String script, int timeoutSeconds) {
        assumeTrue(py != null, missing);
        Result r = run(List.of(py, "-c", script), timeoutSeconds);
        assertEquals(0, r.exit, what + " script failed:\n" + script + "\n--- stderr:\n" + r.err + "\n--- stdout:\n" + r.out);
        return r.out.strip();
    }

    /** A Python with VTK's XDMF reader (ParaView's: {@code vtkmodules.vtkIOXdmf2}), or null: $TESSERA_VTK_PYTHON, else python3. */
    static String vtkPython() {
        return configuredPython("TESSERA_VTK_PYTHON", "import vtkmodules.vtkIOXdmf2, numpy");
    }

    /** Runs {@code script} under Python with VTK (skips the test when there is none); returns stdout. */
    static String vtk(String script) {
        return runPython(vtkPython(), "no Python with VTK's XDMF reader (pip install vtk, and set TESSERA_VTK_PYTHON to that "
                + "python); skipping the ParaView-reader check", "VTK", "import numpy as np\n" + script, 180);
    }

    /** A Python with yt and h5py (yt's HDF5 frontends read through h5py), or null: $TESSERA_YT_PYTHON, else python3. */
    static String ytPython() {
        return configuredPython("TESSERA_YT_PYTHON", "import yt, h5py, numpy");
    }

    /** Runs {@code script} under Python with yt (skips the test when there is none); returns stdout. */
    static String yt(String script) {
        return runPython(ytPython(), "no Python with yt and h5py (pip install yt h5py, and set TESSERA_YT_PYTHON to that "
                + "python); skipping the yt check", "yt", "import numpy as np, yt\nyt.set_log_level(40)\n" + script, 300);
    }

    /** Runs h5dump with {@code args} (skips when absent); returns its result. */
    static Result h5dump(String... args) {
        synchronized (ExternalReaders.class) {
            if (h5dump == null) {
                h5dump = run(List.of("h5dump", "--version"), 30).exit == 0;
            }
        }
        assumeTrue(h5dump, "h5dump is not installed (apt-get install hdf5-tools); skipping the h5dump check");
        List<String> cmd = new ArrayList<>();
        cmd.add("h5dump");
        cmd.addAll(List.of(args));
        return run(cmd, 120);
    }

    record Result(int exit, String out, String err) {
    }

    static Result run(List<String> command, int timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(command).start();
            var out = p.getInputStream().readAllBytes();
            var err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "", command + " timed out");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, "", e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "", e.toString());
        }
    }
}
