package dev.tessera.device;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;

/**
 * Directories where the ranks of a job meet (rendezvous directories), made so that no other
 * local user can plant or change anything in them: a missing one is created mode 0700; an
 * existing one must be a real directory (not a symbolic link), owned by this user and not
 * writable by group or others, else it is refused with the reason (another user may have
 * created it first to take a rank's place). The files in it are created 0600 by the ranks.
 *
 * <p>Where a job derives a directory itself (under mpirun), it prefers a per-user base that
 * other users cannot reach: {@code $XDG_RUNTIME_DIR}, else {@code $TMPDIR}, else the JVM's
 * temporary directory, and inside it a directory {@code tessera-USER} made as above.
 */
public final class PrivateDirectory {

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private PrivateDirectory() {
    }

    /** Creates {@code dir} mode 0700 (parents as usual) or checks the existing one; returns it. */
    public static Path ensure(Path dir) throws IOException {
        dir = dir.toAbsolutePath();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Path parent = dir.getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent);
            }
            try {
                if (posix(parent)) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                } else {
                    Files.createDirectory(dir);
                }
                return dir;
            } catch (FileAlreadyExistsException raced) {
                // made at the same moment by another rank (or another user): checked below
            }
        }
        check(dir);
        return dir;
    }

    /** Checks an existing directory as {@link #ensure} does; throws naming the problem. */
    public static void check(Path dir) throws IOException {
        if (!posix(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IOException(dir + " is not a directory");
            }
            return;
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) {
            throw new IOException("refusing rendezvous directory " + dir + ": it is a symbolic link");
        }
        if (!a.isDirectory()) {
            throw new IOException("refusing rendezvous directory " + dir + ": not a directory");
        }
        UserPrincipal me = currentUser(dir);
        if (me != null && !a.owner().equals(me)) {
            throw new IOException("refusing rendezvous directory " + dir + ": owned by " + a.owner().getName()
                    + ", not by " + me.getName() + " (another user may have made it to take a rank's place; "
                    + "remove it, or set TESSERA_RENDEZVOUS_DIR to a directory of your own)");
        }
        Set<PosixFilePermission> p = a.permissions();
        if (p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IOException("refusing rendezvous directory " + dir + ": mode "
                    + PosixFilePermissions.toString(p) + " lets other users write in it (chmod 700 it, or set "
                    + "TESSERA_RENDEZVOUS_DIR to a directory of your own)");
        }
    }

    /**
     * The per-user base for directories a job derives (mpirun): {@code $XDG_RUNTIME_DIR},
     * {@code $TMPDIR} or the JVM's temporary directory, then {@code tessera-USER}, made or
     * checked as by {@link #ensure}.
     */
    public static Path userBase(Map<String, String> env) throws IOException {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
        Path base = null;
        for (String candidate : new String[] {env.get("XDG_RUNTIME_DIR"), env.get("TMPDIR")}) {
            if (candidate != null && !candidate.isBlank() && Files.isDirectory(Path.of(candidate))
                    && Files.isWritable(Path.of(candidate))) {
                base = Path.of(candidate);
                break;
            }
        }
        if (base == null) {
            base = Path.of(System.getProperty("java.io.tmpdir"));
        }
        return ensure(base.resolve("tessera-" + user));
    }

    /** This process's user: by name, else the owner of /proc/self (Linux), else null (not checked). */
    private static UserPrincipal currentUser(Path dir) {
        try {
            return dir.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            try {
                return Files.getOwner(Path.of("/proc/self"));
            } catch (IOException | UnsupportedOperationException e2) {
                return null;
            }
        }
    }

    private static boolean posix(Path p) {
        Path d = p == null ? null : p.toAbsolutePath();
        while (d != null && !Files.exists(d)) {
            d = d.getParent();
        }
        return d != null && d.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
