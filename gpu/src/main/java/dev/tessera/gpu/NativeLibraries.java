package dev.tessera.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;

/**
 * Native-library chores shared by the JNI backends.
 *
 * <p><b>Probing.</b> {@link #firstLoadable} asks the dynamic loader (through FFM, then
 * unloads) whether a system library such as {@code libcuda.so.1} can be opened, so a
 * backend explains a missing driver in one line instead of letting JNI throw an
 * {@link UnsatisfiedLinkError} with nested stack traces.
 *
 * <p><b>Extraction without races.</b> JCuda and JOCL ship their JNI glue inside their jars
 * and extract it on first use to a fixed name in {@code java.io.tmpdir}
 * ({@code /tmp/libJCudaDriver-12.0.0-linux-x86_64.so}): if the file exists they load it,
 * else they create it and write it. Ranks of one node starting together race: one rank
 * sees the file another is still writing and loads a truncated library (a crash or a
 * linker error). {@link #preExtract} puts the complete file at that name first: under a
 * lock (a monitor for ranks that are threads of one JVM, an interned string so that it is
 * one monitor even for ranks with class loaders of their own; a file lock next to the
 * library for ranks that are processes) it compares an existing file with the jar's bytes, and if
 * absent or different writes a private temporary file and renames it into place, which
 * is atomic, so the library's own loader only ever sees a complete file.
 */
public final class NativeLibraries {

    private NativeLibraries() {
    }

    /** The first of {@code names} the dynamic loader can open, or null if none. */
    @SuppressWarnings("restricted") // probing is why native access is enabled; a refusal reads as "not loadable"
    public static String firstLoadable(String... names) {
        for (String n : names) {
            try (Arena arena = Arena.ofConfined()) {
                SymbolLookup.libraryLookup(n, arena);
                return n;
            } catch (IllegalArgumentException | IllegalCallerException e) {
                // not loadable (or native access disabled): try the next name
            }
        }
        return null;
    }

    /**
     * Makes {@code java.io.tmpdir/fileName} hold exactly the class-path resource
     * {@code resource} (as {@code /lib/libX.so}), atomically with respect to other ranks.
     * Does nothing when the resource is absent (the library may come from java.library.path).
     */
    public static void preExtract(String resource, String fileName) {
        preExtract(resource, Path.of(System.getProperty("java.io.tmpdir")), fileName);
    }

    /** As {@link #preExtract(String, String)} into {@code dir}. */
    @SuppressWarnings("try") // the file lock is held for the block, never read
    public static void preExtract(String resource, Path dir, String fileName) {
        byte[] bytes;
        try (InputStream in = NativeLibraries.class.getResourceAsStream(resource)) {
            if (in == null) {
                return;
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading native library resource " + resource, e);
        }
        Path target = dir.resolve(fileName);
        // Interned: the same object for every class loader of this JVM (smp ranks may each load this class).
        synchronized (("dev.tessera.gpu.NativeLibraries:" + target.toAbsolutePath()).intern()) {
            try (FileChannel lockFile = FileChannel.open(dir.resolve(fileName + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
                 FileLock lock = lockFile.lock()) {
                if (Files.isRegularFile(target) && Files.size(target) == bytes.length
                        && Arrays.equals(Files.readAllBytes(target), bytes)) {
                    return;
                }
                Path part = Files.createTempFile(dir, fileName, ".part");
                try {
                    Files.write(part, bytes);
                    readableByAll(part);
                    Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } finally {
                    Files.deleteIfExists(part);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("extracting " + resource + " to " + target, e);
            }
        }
    }

    /** rw-r--r--, as the libraries' own loaders leave their files (a temporary file starts as rw-------). */
    private static void readableByAll(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: keep the default
        }
    }

    /**
     * One line for a JNI library that would not load. A JVM lets one class loader own a
     * native library: smp ranks that load the gpu module from their own class path (each
     * rank its own class loader) cannot all use it, so that case says how to share it.
     */
    public static String explainLinkageError(String library, LinkageError e) {
        String all = String.valueOf(e.getMessage());
        if (all.contains("another classloader")) {
            return library + "'s JNI library is already loaded by another class loader of this JVM: ranks with class "
                    + "loaders of their own (tessera run --device smp) share it only when the gpu module and its "
                    + "libraries are on the launcher's class path";
        }
        if (e instanceof NoClassDefFoundError) {
            return library + "'s classes are not on the class path (" + firstLine(e) + ")";
        }
        return library + "'s native library did not load: " + firstLine(e);
    }

    /** The first line of a throwable's message (JNI loaders put whole stack traces in theirs). */
    public static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl).strip();
    }
}
