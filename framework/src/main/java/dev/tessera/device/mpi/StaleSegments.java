package dev.tessera.device.mpi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Removes the shared-memory segments that Open MPI's vader transport leaves in /dev/shm
 * ({@code vader_segment.*}) when the ranks of a job are killed: Open MPI unlinks them at
 * MPI_Finalize only. Local rank 0 of each mpi-device job looks, in the background, for such
 * files of this user that are older than a minute and that no process of this user has
 * mapped (read from /proc/PID/maps: a segment in use is mapped by the ranks of its job), and
 * deletes them (/proc is read only when such files exist). TESSERA_MPI_CLEAN_SHM=0 turns
 * it off. Linux only; best effort, never an error.
 */
final class StaleSegments {

    private static final long MIN_AGE_MILLIS = 60_000;

    private StaleSegments() {
    }

    /**
     * Starts {@link #remove} in a daemon thread: reading every process's maps takes seconds on
     * a busy node (JVMs map thousands of regions), which a job's start must not wait for.
     */
    static void removeInBackground(Path dir) {
        Thread.ofPlatform().daemon().name("tessera-stale-segments").priority(Thread.MIN_PRIORITY)
                .start(() -> remove(dir));
    }

    /** Deletes the stale segments in {@code dir}; returns those deleted. */
    static List<Path> remove(Path dir) {
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return List.of();
        }
        String me = System.getProperty("user.name");
        long now = System.currentTimeMillis();
        List<Path> candidates;
        try (Stream<Path> s = Files.list(dir)) {
            candidates = s.filter(p -> p.getFileName().toString().startsWith("vader_segment.")).filter(p -> {
                try {
                    return Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)
                            && Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName().equals(me)
                            && now - Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() > MIN_AGE_MILLIS;
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        } catch (IOException e) {
            return List.of();
        }
        if (candidates.isEmpty()) {
            return List.of();
        }
        Set<String> mapped = mappedFiles();
        if (mapped == null) {
            return List.of();
        }
        List<Path> removed = new java.util.ArrayList<>();
        for (Path p : candidates) {
            if (!mapped.contains(p.toString())) {
                try {
                    if (Files.deleteIfExists(p)) {
                        removed.add(p);
                    }
                } catch (IOException ignored) {
                    // someone else's after all, or gone
                }
            }
        }
        return removed;
    }

    /** Every file under /dev/shm mapped by a process this user can read the maps of; null if /proc cannot be read. */
    private static Set<String> mappedFiles() {
        Set<String> mapped = new HashSet<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                try (Stream<String> lines = Files.lines(proc.resolve("maps"))) {
                    lines.forEach(l -> {
                        int at = l.indexOf("/dev/shm/");
                        if (at >= 0) {
                            String name = l.substring(at);
                            mapped.add(name.endsWith(" (deleted)") ? name.substring(0, name.length() - 10) : name);
                        }
                    });
                } catch (IOException | java.io.UncheckedIOException | SecurityException ignored) {
                    // another user's process, or it ended: its maps are not ours to see
                }
            }
        } catch (IOException e) {
            return null;
        }
        return mapped;
    }
}
