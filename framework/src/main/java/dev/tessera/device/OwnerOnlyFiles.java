package dev.tessera.device;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Creation of the files and directories a job makes (the shm device's shared file,
 * rendezvous files and directories): files mode 0600, directories 0700, set when the file is
 * created, not after, so no other local user can open one in between (a shared file opened
 * by another user during start-up stays readable by it after the job unlinks it). On file
 * systems without POSIX permissions the files are created plainly.
 */
public final class OwnerOnlyFiles {

    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private OwnerOnlyFiles() {
    }

    private static boolean posix(Path p) {
        Path dir = p.toAbsolutePath().getParent();
        while (dir != null && !Files.exists(dir)) {
            dir = dir.getParent();
        }
        return dir != null && dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static FileAttribute<?>[] fileMode(Path p) {
        return posix(p) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    /** Creates {@code file} (which must not exist) mode 0600 and opens it for reading and writing. */
    public static FileChannel createNew(Path file) throws IOException {
        return FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), fileMode(file));
    }

    /** Writes {@code text} to {@code file}, created mode 0600 (an existing file is replaced). */
    public static void writeString(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        try (FileChannel ch = createNew(file)) {
            ch.write(java.nio.ByteBuffer.wrap(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    /** Creates {@code dir} and any missing parents mode 0700 (existing ones are left as they are). */
    public static void createDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            createDirectories(parent);
        }
        try {
            if (posix(dir)) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
        }
    }
}
