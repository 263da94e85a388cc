package dev.tessera.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file a running job has made is its user's alone (issue #28, item 8): the launcher's
 * rendezvous directory is 0700 and every file in it (the ranks' address files) 0600, checked
 * by a rank while the job runs. Before, address files were 0644 under the usual umask.
 * (The shm device's shared file is unlinked once every rank has mapped it; ShmFileModeTest
 * checks it during start-up.)
 */
@Timeout(180)
class JobFilesModeConformanceTest {

    static Stream<Arguments> runners() {
        return Runners.all().stream().filter(r -> r.runs(3)).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runners")
    void rendezvousFilesAreOwnerOnly(JobRunner runner) {
        runner.run(3, world -> {
            world.barrier(); // every rank has published and connected
            String dir = System.getenv("TESSERA_RENDEZVOUS_DIR");
            if (world.rank() == 0 && dir != null) {
                Path root = Path.of(dir);
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root)), dir);
                List<String> files = new ArrayList<>();
                List<String> open = new ArrayList<>();
                try (Stream<Path> s = Files.walk(root)) {
                    for (Path p : s.toList()) {
                        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
                        files.add(p + " " + mode);
                        if (Files.isDirectory(p) ? !mode.equals("rwx------") : !mode.equals("rw-------")) {
                            open.add(p + " " + mode);
                        }
                    }
                }
                assertTrue(open.isEmpty(), "files other users can read: " + open);
                if (world.deviceName().equals("tcp")) {
                    assertFalse(files.size() < 2, "a tcp job publishes its addresses there: " + files);
                }
            }
            world.barrier();
        });
    }
}
