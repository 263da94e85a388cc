package dev.tessera.device;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The cache of the small native libraries that devices compile on first use (the mpi
 * device's shim, the shm device's heap single-copy helper): where it lives, how a build is
 * keyed, and how a finished build is put in place so that ranks compiling at the same time
 * never load a half-written file. Internal to the devices.
 */
public final class NativeHelpers {

    private NativeHelpers() {
    }

    /**
     * The cache directory: {@code -Dtessera.cacheDir}, else {@code TESSERA_CACHE_DIR}, else
     * {@code $XDG_CACHE_HOME/tessera}, else {@code ~/.cache/tessera}.
     */
    public static Path cacheDir(Map<String, String> env) {
        String property = System.getProperty("tessera.cacheDir");
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String explicit = env.get("TESSERA_CACHE_DIR");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "tessera");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "tessera");
    }

    /** A build's key: 16 hex digits of the SHA-256 of everything the build depends on, one per line. */
    public static String key(String... inputs) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", inputs).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Moves a finished build from {@code tmp} (in the same directory) to {@code target}, atomically where the file system can. */
    public static void publish(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
