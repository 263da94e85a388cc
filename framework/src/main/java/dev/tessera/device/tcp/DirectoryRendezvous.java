package dev.tessera.device.tcp;

import dev.tessera.ErrorClass;
import dev.tessera.TesseraException;
import dev.tessera.device.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Rendezvous through a directory every rank can see (local /tmp for one host, a shared
 * file system for several): each rank publishes one line in {@code rank-N} (written to a
 * temporary file, then renamed, so readers never see half a file) and waits until all
 * ranks have published. A rank that never shows up is named in the timeout error.
 */
public final class DirectoryRendezvous implements Rendezvous {

    private final Path dir;

    public DirectoryRendezvous(Path dir) {
        this.dir = dir;
    }

    public Path directory() {
        return dir;
    }

    @Override
    public void publish(int rank, String line) {
        try {
            OwnerOnlyFiles.createDirectories(dir);
            Path tmp = dir.resolve("rank-" + rank + ".tmp");
            OwnerOnlyFiles.writeString(tmp, line);
            try {
                Files.move(tmp, dir.resolve("rank-" + rank), StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dir.resolve("rank-" + rank), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rank " + rank + ": cannot publish in rendezvous directory "
                    + dir + ": " + e, e);
        }
    }

    @Override
    public String[] gather(int me, int size, Duration timeout) {
        String[] lines = new String[size];
        long deadline = System.nanoTime() + timeout.toNanos();
        int idle = 0;
        while (true) {
            List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                if (lines[r] == null) {
                    Path f = dir.resolve("rank-" + r);
                    try {
                        if (Files.exists(f)) {
                            lines[r] = Files.readString(f).trim();
                        }
                    } catch (IOException e) {
                        // being renamed right now: read it next round
                    }
                    if (lines[r] == null) {
                        missing.add(r);
                    }
                }
            }
            if (missing.isEmpty()) {
                return lines;
            }
            if (System.nanoTime() > deadline) {
                throw new TesseraException(ErrorClass.PROC_FAILED, "rank " + me + ": startup timeout after "
                        + timeout.toSeconds() + " s: rank(s) " + missing + " of " + size
                        + " never showed up in rendezvous directory " + dir
                        + " (set TESSERA_START_TIMEOUT to wait longer)");
            }
            LockSupport.parkNanos(Math.min(20_000_000L, 1_000_000L << Math.min(idle++, 4)));
        }
    }

    /** Publishes a value every rank reads (e.g. the job secret under mpirun), written by one rank. */
    public String shared(String name, boolean writer, java.util.function.Supplier<String> value, Duration timeout) {
        Path f = dir.resolve(name);
        try {
            if (writer) {
                OwnerOnlyFiles.createDirectories(dir);
                Path tmp = dir.resolve(name + ".tmp");
                OwnerOnlyFiles.writeString(tmp, value.get());
                Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE);
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!Files.exists(f)) {
                if (System.nanoTime() > deadline) {
                    throw new TesseraException(ErrorClass.PROC_FAILED, "startup timeout: " + f + " never appeared");
                }
                LockSupport.parkNanos(5_000_000L);
            }
            return Files.readString(f).trim();
        } catch (IOException e) {
            throw new TesseraException(ErrorClass.OTHER, "rendezvous directory " + dir + ": " + e, e);
        }
    }
}
