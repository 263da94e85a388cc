package dev.tessera.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The extraction guard: concurrent ranks and a stale, truncated file still give the complete library. */
@Timeout(60)
class NativeLibrariesTest {

    static final String RESOURCE = "/dev/tessera/gpu/fake-native-library.bin";

    private static byte[] resourceBytes() throws Exception {
        try (InputStream in = NativeLibrariesTest.class.getResourceAsStream(RESOURCE)) {
            return in.readAllBytes();
        }
    }

    @Test
    void concurrentExtractionsLeaveTheCompleteFile(@TempDir Path dir) throws Exception {
        byte[] want = resourceBytes();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<byte[]>> seen = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            seen.add(pool.submit(() -> {
                start.await();
                NativeLibraries.preExtract(RESOURCE, dir, "libFake.so");
                // What a library loader would read right after: never a partial file.
                return Files.readAllBytes(dir.resolve("libFake.so"));
            }));
        }
        start.countDown();
        for (Future<byte[]> f : seen) {
            assertArrayEquals(want, f.get());
        }
        pool.shutdown();
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("libFake.so"))));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("libFake.so", "libFake.so.lock"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void concurrentProcessesLeaveTheCompleteFile(@TempDir Path dir) throws Exception {
        // A truncated file, as a rank killed while writing would leave it.
        Files.write(dir.resolve("libFake.so"), new byte[] {1, 2, 3});
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        long start = System.currentTimeMillis() + 3000; // every JVM is up and spinning by then
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            ranks.add(new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                    ExtractionRace.class.getName(), dir.toString(), Long.toString(start), r == 0 ? "watch" : "extract")
                    .inheritIO().start());
        }
        for (Process p : ranks) {
            assertEquals(0, p.waitFor(), "a process saw an incomplete library file (exit status 1 or 2)");
        }
        assertArrayEquals(resourceBytes(), Files.readAllBytes(dir.resolve("libFake.so")));
    }

    @Test
    void aTruncatedFileFromAnEarlierCrashIsReplaced(@TempDir Path dir) throws Exception {
        byte[] want = resourceBytes();
        Files.write(dir.resolve("libFake.so"), new byte[] {1, 2, 3});
        NativeLibraries.preExtract(RESOURCE, dir, "libFake.so");
        assertArrayEquals(want, Files.readAllBytes(dir.resolve("libFake.so")));
    }

    @Test
    void linkErrorsBecomeOneLineThatSaysWhatToDo() {
        String shared = NativeLibraries.explainLinkageError("JOCL", new UnsatisfiedLinkError(
                "Error while loading native library \"JOCL_2_0_5-linux-x86_64\"\n---(start of nested stack traces)---\n"
                        + "java.lang.UnsatisfiedLinkError: Native Library /tmp/libJOCL.so already loaded in another classloader"));
        assertTrue(shared.contains("launcher's class path"), shared);
        String missing = NativeLibraries.explainLinkageError("JOCL", new NoClassDefFoundError("org/jocl/CL"));
        assertEquals("JOCL's classes are not on the class path (org/jocl/CL)", missing);
        String other = NativeLibraries.explainLinkageError("JCuda", new UnsatisfiedLinkError("libcuda.so.1: cannot open\nmore"));
        assertEquals("JCuda's native library did not load: libcuda.so.1: cannot open", other);
    }

    @Test
    void probingAMissingLibraryAnswersNullInsteadOfThrowing() {
        assertNull(NativeLibraries.firstLoadable("libtessera-no-such-library.so.9"));
        assertEquals("libc.so.6", NativeLibraries.firstLoadable("libtessera-no-such-library.so.9", "libc.so.6"));
    }
}
