package dev.tessera.gpu;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One process of {@link NativeLibrariesTest}'s race, started at the same instant as the
 * others. {@code extract}: extracts the fake library into the directory, as a rank would
 * before loading it, and checks after each call that the file is complete. {@code watch}:
 * reads the file over and over, as a library loader of another rank would, until it is
 * complete, and fails if it ever sees anything but the stale 3-byte file or the whole
 * library (a partly written file). Exit status 0 when all was well.
 */
public final class ExtractionRace {

    private ExtractionRace() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        byte[] want;
        try (InputStream in = ExtractionRace.class.getResourceAsStream(NativeLibrariesTest.RESOURCE)) {
            want = in.readAllBytes();
        }
        long start = Long.parseLong(args[1]);
        while (System.currentTimeMillis() < start) {
            Thread.onSpinWait();
        }
        if (args[2].equals("watch")) {
            long deadline = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < deadline) {
                byte[] seen = Files.readAllBytes(dir.resolve("libFake.so"));
                if (Arrays.equals(want, seen)) {
                    return;
                }
                if (seen.length != 3) {
                    System.err.println("watcher saw a partial library of " + seen.length + " bytes");
                    System.exit(2);
                }
            }
            System.exit(3);
        }
        for (int i = 0; i < 20; i++) {
            NativeLibraries.preExtract(NativeLibrariesTest.RESOURCE, dir, "libFake.so");
            if (!Arrays.equals(want, Files.readAllBytes(dir.resolve("libFake.so")))) {
                System.exit(1);
            }
        }
    }
}
