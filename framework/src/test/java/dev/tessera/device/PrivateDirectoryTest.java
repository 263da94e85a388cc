package dev.tessera.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rendezvous directories (issue #28, item 8): made 0700, and an existing one that another
 * user made, that others can write, or that is a symbolic link is refused with the reason.
 * The other user is real ({@code nobody} through setpriv); those cases are skipped, with the
 * reason, where that is not possible.
 */
@Timeout(60)
class PrivateDirectoryTest {

    @Test
    void aMissingDirectoryIsMadeOwnerOnly(@TempDir Path dir) throws IOException {
        Path made = PrivateDirectory.ensure(dir.resolve("a/b/rendezvous"));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(made)));
        PrivateDirectory.ensure(made); // a second rank finds it: accepted
    }

    @Test
    void aDirectoryOthersCanWriteOrASymbolicLinkIsRefused(@TempDir Path dir) throws IOException {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        IOException e = assertThrows(IOException.class, () -> PrivateDirectory.ensure(open));
        assertTrue(e.getMessage().contains("lets other users write in it") && e.getMessage().contains(open.toString()),
                e.getMessage());
        Path target = Files.createDirectory(dir.resolve("target"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        e = assertThrows(IOException.class, () -> PrivateDirectory.ensure(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void aDirectoryAnotherUserMadeFirstIsRefused(@TempDir Path dir) throws Exception {
        String why = OtherUser.unavailable();
        assumeTrue(why == null, "skipped: " + why);
        Path tmp = OtherUser.sharedTmp(dir);
        // nobody makes the per-user base (and the directory an mpirun job of this user would use) first
        Path base = tmp.resolve("tessera-" + System.getProperty("user.name"));
        OtherUser.Result r = OtherUser.run(10, "mkdir", "-m", "700", base.toString());
        assertEquals(0, r.status(), r.output());
        IOException e = assertThrows(IOException.class, () -> PrivateDirectory.userBase(Map.of("TMPDIR", tmp.toString())));
        assertTrue(e.getMessage().contains("owned by nobody") && e.getMessage().contains(base.toString()), e.getMessage());
        // without the plant the base is made 0700 and nobody cannot create anything in it
        Files.delete(base); // root may remove it
        Path mine = PrivateDirectory.userBase(Map.of("TMPDIR", tmp.toString()));
        assertEquals(base, mine);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(mine)));
        r = OtherUser.run(10, "mkdir", mine.resolve("ompi-1234").toString());
        assertTrue(r.status() != 0, "nobody could create a directory in " + mine + ": " + r.output());
    }
}
