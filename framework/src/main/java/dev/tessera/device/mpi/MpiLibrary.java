package dev.tessera.device.mpi;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.NativeHelpers;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The system's MPI library, reached through Tessera's small C shim (tessera_mpi.c)
 * compiled with that library's own {@code mpicc} on first use and cached per MPI
 * installation under {@code ~/.cache/tessera/mpi/<key>/} (or TESSERA_CACHE_DIR), as mpi4py
 * builds against the MPI it finds. Why a shim rather than binding libmpi directly: the MPI
 * ABIs differ (Open MPI handles are pointers to global objects, MPICH's are ints; status
 * layouts and constants differ) and change between versions; compiling against the
 * installation's own mpi.h gets every one of them right, and leaves Java a plain C
 * interface of integers and addresses.
 *
 * <p>Discovery: TESSERA_MPICC, else {@code mpicc} in the directory of TESSERA_MPI_LIB's
 * {@code ../bin}, else {@code mpicc} on PATH. TESSERA_MPI_LIB (a libmpi.so) pins the
 * library: the shim is linked against its directory with an rpath. Everything that can
 * go wrong ends in one {@link TesseraException} line naming what was looked for and where.
 */
public final class MpiLibrary {

    /** Five int64 words per status: source, tag, error, cancelled, byte count. */
    static final int STATUS_WORDS = 5;

    private static final String SHIM = "tessera_mpi.c";
    private static volatile MpiLibrary instance;

    final Path shimPath;
    final String mpicc;
    final long commSize;
    final long requestSize;
    final long messageSize;
    final int anySource;
    final int anyTag;
    final int procNull;
    final int errTruncate;
    final int[] threadLevels = new int[4];
    final String mpiVersion;

    // Downcalls, named after the shim's functions.
    final MethodHandle init;
    final MethodHandle finalizeMpi;
    final MethodHandle abort;
    final MethodHandle errorString;
    final MethodHandle processorName;
    final MethodHandle commDupPredefined;
    final MethodHandle commCreate;
    final MethodHandle commFree;
    final MethodHandle isend;
    final MethodHandle send;
    final MethodHandle irecv;
    final MethodHandle test;
    final MethodHandle cancel;
    final MethodHandle iprobe;
    final MethodHandle improbe;
    final MethodHandle imrecv;
    final MethodHandle barrier;
    final MethodHandle bcast;
    final MethodHandle reduce;
    final MethodHandle allreduce;
    final MethodHandle reduceScatterBlock;
    final MethodHandle allgather;
    final MethodHandle alltoall;
    final MethodHandle gather;
    final MethodHandle scatter;
    private final MethodHandle libraryVersion;
    private final MethodHandle libraryPath;

    /**
     * UCX (under MPICH's ch4:ucx, and Open MPI's pml ucx) installs handlers for SIGSEGV,
     * SIGBUS and others when libucs is loaded, that is when the shim and its MPI library
     * are, before MPI_Init. The JVM uses SIGSEGV for null checks and safepoint polls: with
     * UCX's handler in front (a plain {@code mpirun java ...} without libjsig preloaded)
     * the first such fault killed the rank. So an empty {@code UCX_ERROR_SIGNALS} is put in
     * this process's environment, unless the user set one, before the library loads.
     * (Open MPI's own handlers are read at MPI_Init: the shim turns those off.)
     */
    static void keepFabricOffTheJvmsSignals() {
        Linker linker = Linker.nativeLinker();
        MethodHandle setenv = linker.defaultLookup().find("setenv")
                .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_INT)))
                .orElse(null);
        if (setenv == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            int ignored = (int) setenv.invokeExact(arena.allocateFrom(UCX_ERROR_SIGNALS), arena.allocateFrom(""), 0);
        } catch (Throwable e) {
            throw new IllegalStateException("setenv(" + UCX_ERROR_SIGNALS + ") failed", e);
        }
    }

    /** UCX's list of signals it treats as errors (its handlers); empty: none. */
    static final String UCX_ERROR_SIGNALS = "UCX_ERROR_SIGNALS";

    private MpiLibrary(Path shimPath, String mpicc) {
        this.shimPath = shimPath;
        this.mpicc = mpicc;
        keepFabricOffTheJvmsSignals();
        SymbolLookup lookup = SymbolLookup.libraryLookup(shimPath, Arena.global());
        Linker linker = Linker.nativeLinker();
        Binder b = new Binder(lookup, linker);
        ValueLayout.OfInt i = ValueLayout.JAVA_INT;
        ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
        ValueLayout a = ValueLayout.ADDRESS;
        MethodHandle sizes = b.bind("tmpi_sizes", FunctionDescriptor.ofVoid(a));
        libraryVersion = b.bind("tmpi_library_version", FunctionDescriptor.of(i, a, i));
        libraryPath = b.bind("tmpi_library_path", FunctionDescriptor.of(i, a, i));
        init = b.bind("tmpi_init", FunctionDescriptor.of(i, i, a, a, a, a));
        finalizeMpi = b.bind("tmpi_finalize", FunctionDescriptor.of(i));
        abort = b.bind("tmpi_abort", FunctionDescriptor.of(i, i));
        errorString = b.bind("tmpi_error_string", FunctionDescriptor.of(i, i, a, i));
        processorName = b.bind("tmpi_processor_name", FunctionDescriptor.of(i, a, i));
        commDupPredefined = b.bind("tmpi_comm_dup_predefined", FunctionDescriptor.of(i, i, a));
        commCreate = b.bind("tmpi_comm_create", FunctionDescriptor.of(i, a, i, i, a));
        commFree = b.bind("tmpi_comm_free", FunctionDescriptor.of(i, a));
        // The hot path: short, non-blocking calls that never call back into Java.
        isend = b.critical("tmpi_isend", FunctionDescriptor.of(i, a, l, i, i, a, i, a));
        send = b.critical("tmpi_send", FunctionDescriptor.of(i, a, l, i, i, a));
        irecv = b.critical("tmpi_irecv", FunctionDescriptor.of(i, a, l, i, i, a, a));
        test = b.critical("tmpi_test", FunctionDescriptor.of(i, a, a, a));
        cancel = b.bind("tmpi_cancel", FunctionDescriptor.of(i, a));
        iprobe = b.critical("tmpi_iprobe", FunctionDescriptor.of(i, i, i, a, a, a));
        improbe = b.critical("tmpi_improbe", FunctionDescriptor.of(i, i, i, a, a, a, a));
        imrecv = b.critical("tmpi_imrecv", FunctionDescriptor.of(i, a, l, a, a));
        barrier = b.bind("tmpi_barrier", FunctionDescriptor.of(i, a));
        bcast = b.bind("tmpi_bcast", FunctionDescriptor.of(i, a, l, i, i, a));
        reduce = b.bind("tmpi_reduce", FunctionDescriptor.of(i, a, a, l, i, i, i, a));
        allreduce = b.bind("tmpi_allreduce", FunctionDescriptor.of(i, a, a, l, i, i, a));
        reduceScatterBlock = b.bind("tmpi_reduce_scatter_block", FunctionDescriptor.of(i, a, a, l, i, i, a));
        allgather = b.bind("tmpi_allgather", FunctionDescriptor.of(i, a, a, l, i, a));
        alltoall = b.bind("tmpi_alltoall", FunctionDescriptor.of(i, a, a, l, i, a));
        gather = b.bind("tmpi_gather", FunctionDescriptor.of(i, a, a, l, i, i, a));
        scatter = b.bind("tmpi_scatter", FunctionDescriptor.of(i, a, a, l, i, i, a));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(MemoryLayout.sequenceLayout(16, l));
            sizes.invokeExact(out);
            commSize = out.getAtIndex(l, 0);
            requestSize = out.getAtIndex(l, 1);
            messageSize = out.getAtIndex(l, 2);
            anySource = (int) out.getAtIndex(l, 3);
            anyTag = (int) out.getAtIndex(l, 4);
            procNull = (int) out.getAtIndex(l, 5);
            errTruncate = (int) out.getAtIndex(l, 6);
            for (int k = 0; k < 4; k++) {
                threadLevels[k] = (int) out.getAtIndex(l, 7 + k);
            }
            mpiVersion = out.getAtIndex(l, 11) + "." + out.getAtIndex(l, 12);
        } catch (Throwable t) {
            throw new TesseraException(ErrorClass.INTERN, "mpi device: cannot query the shim: " + t, t);
        }
    }

    /** The library, compiling and loading the shim on first use; a clear error if there is no usable MPI. */
    public static MpiLibrary load() {
        MpiLibrary lib = instance;
        if (lib == null) {
            synchronized (MpiLibrary.class) {
                lib = instance;
                if (lib == null) {
                    String mpicc = findMpicc(System.getenv());
                    lib = new MpiLibrary(buildShim(mpicc, System.getenv()), mpicc);
                    instance = lib;
                }
            }
        }
        return lib;
    }

    /** The library's own version string, e.g. "Open MPI v4.1.4, ...", first line only. */
    public String libraryVersion() {
        return firstLine(stringCall(libraryVersion, 8192));
    }

    /** The shared library the shim resolved MPI from. */
    public String libraryFile() {
        return stringCall(libraryPath, 4096);
    }

    /** Which MPI ABI family this is, from the version string. */
    public String abi() {
        String v = libraryVersion();
        if (v.contains("Open MPI")) {
            return "Open MPI (handles are pointers)";
        }
        if (v.contains("MPICH") || v.contains("Intel") || v.contains("MVAPICH")) {
            return "MPICH (handles are ints)";
        }
        return "unknown (bound through the shim compiled against its mpi.h)";
    }

    /** MPI standard version the headers declare. */
    public String mpiVersion() {
        return mpiVersion;
    }

    String errorText(int code) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(1024);
            int rc = (int) errorString.invokeExact(code, buf, 1024);
            return rc == 0 ? buf.getString(0) + " (MPI error " + code + ")" : "MPI error " + code;
        } catch (Throwable t) {
            return "MPI error " + code;
        }
    }

    String processorName() {
        return stringCall(processorName, 1024);
    }

    private static String stringCall(MethodHandle h, int capacity) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(capacity);
            int rc = (int) h.invokeExact(buf, capacity);
            return rc == 0 ? buf.getString(0) : "";
        } catch (Throwable t) {
            return "";
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    // ------------------------------------------------------------------ discovery and build

    static String findMpicc(Map<String, String> env) {
        List<String> looked = new ArrayList<>();
        String explicit = env.get("TESSERA_MPICC");
        if (explicit != null && !explicit.isBlank()) {
            if (Files.isExecutable(Path.of(explicit))) {
                return explicit;
            }
            throw unavailable("TESSERA_MPICC=" + explicit + " is not an executable file");
        }
        looked.add("TESSERA_MPICC (unset)");
        String lib = env.get("TESSERA_MPI_LIB");
        if (lib != null && !lib.isBlank()) {
            Path libFile = Path.of(lib);
            if (!Files.isRegularFile(libFile)) {
                throw unavailable("TESSERA_MPI_LIB=" + lib + " does not exist");
            }
            Path near = libFile.toAbsolutePath().getParent().resolveSibling("bin").resolve("mpicc");
            if (Files.isExecutable(near)) {
                return near.toString();
            }
            looked.add(near.toString());
        }
        for (String dir : env.getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "mpicc"))) {
                return Path.of(dir, "mpicc").toString();
            }
        }
        looked.add("mpicc on PATH (not found)");
        throw unavailable("no MPI installation found; looked for " + String.join(", ", looked)
                + ". Install one (Debian: apt-get install openmpi-bin libopenmpi-dev, or mpich libmpich-dev)"
                + " or set TESSERA_MPICC / TESSERA_MPI_LIB");
    }

    private static TesseraException unavailable(String why) {
        return new TesseraException(ErrorClass.OTHER, "mpi device unavailable: " + why);
    }

    /** Compiles the shim for this MPI installation unless a cached build exists; returns the .so. */
    static Path buildShim(String mpicc, Map<String, String> env) {
        String source;
        try (InputStream in = MpiLibrary.class.getResourceAsStream(SHIM)) {
            if (in == null) {
                throw new TesseraException(ErrorClass.INTERN, "mpi device: " + SHIM + " missing from the Tessera jar");
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.INTERN, "mpi device: cannot read " + SHIM + ": " + e, e);
        }
        List<String> extra = new ArrayList<>();
        String lib = env.get("TESSERA_MPI_LIB");
        if (lib != null && !lib.isBlank()) {
            Path dir = Path.of(lib).toAbsolutePath().getParent();
            extra.add("-L" + dir);
            extra.add("-Wl,-rpath," + dir);
        }
        String showme = run(List.of(mpicc, "-show"), "--showme");
        String key = NativeHelpers.key(source, mpicc, showme, extra.toString(), System.getProperty("os.arch"));
        Path dir = NativeHelpers.cacheDir(env).resolve("mpi").resolve(key);
        Path so = dir.resolve("libtessera_mpi.so");
        if (Files.isRegularFile(so)) {
            return so;
        }
        try {
            Files.createDirectories(dir);
            Path src = dir.resolve(SHIM);
            Files.writeString(src, source);
            Path tmp = Files.createTempFile(dir, "libtessera_mpi", ".so.tmp");
            List<String> cmd = new ArrayList<>(List.of(mpicc, "-shared", "-fPIC", "-O2", "-o", tmp.toString(), src.toString()));
            cmd.addAll(extra);
            cmd.add("-ldl");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                Files.deleteIfExists(tmp);
                throw unavailable("compiling the MPI shim with " + mpicc + " failed: " + String.join(" ", cmd)
                        + "\n" + out.strip());
            }
            NativeHelpers.publish(tmp, so);
            return so;
        } catch (IOException e) {
            throw unavailable("cannot build the MPI shim in " + dir + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted while compiling the MPI shim");
        }
    }

    /** Output of the compiler wrapper's "show" flag (Open MPI accepts -show too; MPICH only -show). */
    private static String run(List<String> cmd, String fallbackFlag) {
        for (List<String> c : List.of(cmd, List.of(cmd.get(0), fallbackFlag))) {
            try {
                Process p = new ProcessBuilder(c).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return out.strip();
                }
            } catch (IOException e) {
                // try the next form
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw unavailable(cmd.get(0) + " does not work (tried -show and " + fallbackFlag + ")");
    }

    /** Looks up the shim's functions and makes downcall handles. */
    private record Binder(SymbolLookup lookup, Linker linker) {
        MethodHandle bind(String name, FunctionDescriptor fd) {
            return linker.downcallHandle(symbol(name), fd);
        }

        MethodHandle critical(String name, FunctionDescriptor fd) {
            return linker.downcallHandle(symbol(name), fd, Linker.Option.critical(false));
        }

        private MemorySegment symbol(String name) {
            return lookup.find(name).orElseThrow(() -> new TesseraException(ErrorClass.INTERN,
                    "mpi device: the shim has no symbol " + name + " (stale cache? delete ~/.cache/tessera/mpi)"));
        }
    }
}
