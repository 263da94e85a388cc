package dev.tessera.device.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tessera.TesseraException;
import dev.tessera.comm.Buffer;
import dev.tessera.comm.Comm;
import dev.tessera.comm.Op;
import dev.tessera.comm.Request;
import dev.tessera.conformance.MpirunJobRunner;
import dev.tessera.conformance.ProcessJobRunner;
import dev.tessera.launch.LaunchSpec;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The mpi device's own traps, beyond the conformance suite: the JVM's signal handling
 * after MPI_Init, finalizing with requests pending or on another thread than MPI_Init's, a
 * rank that throws, native segments going straight through, and a missing library.
 */
@Timeout(120)
class MpiDeviceTest {

    @BeforeAll
    static void needsOpenMpi() {
        if (!MpirunJobRunner.available()) {
            System.out.println("MpiDeviceTest skipped: mpirun/mpicc not on PATH (install openmpi-bin libopenmpi-dev)");
        }
        assumeTrue(MpirunJobRunner.available(), "mpirun and mpicc on PATH");
    }

    private static final MpirunJobRunner MPI = new MpirunJobRunner(false, Duration.ofSeconds(90));

    /**
     * The JVM turns null dereferences into SIGSEGV and back into NullPointerException; an
     * MPI library's own SIGSEGV handler would turn them into a crash. Compiled code with
     * implicit null checks must keep working after MPI_Init.
     */
    @Test
    void nullPointerExceptionsAfterMpiInitStayExceptions() {
        throwNullPointersAfterInit(MPI);
    }

    /**
     * MPICH over UCX: libucs installs its own SIGSEGV handler when the library is loaded
     * (before MPI_Init), so a JVM started by a plain mpirun, without libjsig preloaded,
     * crashed at the first null check or safepoint poll that faulted (seen in CI as
     * "Caught signal 11 ... ucs_handle_error"). The device asks UCX for no error
     * signals before it loads the library.
     */
    @Test
    void nullPointerExceptionsAfterMpichInitStayExceptions() {
        assumeTrue(MpirunJobRunner.mpichAvailable(), "mpirun.mpich and mpicc.mpich on PATH");
        throwNullPointersAfterInit(MpirunJobRunner.mpich());
    }

    private static void throwNullPointersAfterInit(MpirunJobRunner runner) {
        runner.run(2, world -> {
            int caught = 0;
            for (int i = 0; i < 200_000; i++) {
                try {
                    caught += lengthOf(i % 2 == 0 ? null : "x");
                } catch (NullPointerException e) {
                    caught++;
                }
            }
            if (caught != 100_000) {
                throw new AssertionError("caught " + caught);
            }
            world.barrier();
        });
    }

    /** A program that only initialises a rank. */
    public static final class InitOnly {
        public static void main(String[] args) {
            try (dev.tessera.runtime.Session rt = dev.tessera.runtime.Tessera.init(args)) {
                System.out.println("initialised " + rt.deviceName());
            }
        }
    }

    private static int lengthOf(String s) {
        return s.length() - 1;
    }

    @Test
    void finalizeWithARequestPendingStillEndsTheJob() {
        MPI.run(2, world -> {
            Request never = world.irecv(Buffer.of(new int[4]), Comm.ANY_SOURCE, 99);
            world.barrier();
            if (never.isComplete()) {
                throw new AssertionError("a receive nobody sent to completed");
            }
        });
    }

    /**
     * Native allreduce hands distinct send and receive buffers to the library as they are
     * (no Java copy first), and falls back to in place when they overlap, which MPI forbids:
     * same slice, shifted slices of one segment, one heap array for both, and distinct
     * native and heap buffers must all give the sum.
     */
    @Test
    void nativeAllreduceWithDistinctAndOverlappingBuffers() {
        new MpirunJobRunner(true, Duration.ofSeconds(90)).run(2, world -> {
            int n = 1 << 16;
            double expected = 1 + 2; // ranks contribute rank + 1
            try (Arena arena = Arena.ofShared()) { // shared: Buffer uses it in place (a confined one is staged)
                MemorySegment seg = arena.allocate(8L * (n + 1), 8);
                MemorySegment in = seg.asSlice(0, 8L * n);
                MemorySegment shifted = seg.asSlice(8, 8L * n);
                String[] cases = {"distinct native", "distinct heap", "same slice", "shifted slices", "same array"};
                for (String c : cases) {
                    double[] heapIn = new double[n];
                    double[] heapOut = new double[n];
                    java.util.Arrays.fill(heapIn, world.rank() + 1);
                    for (int i = 0; i < n + 1; i++) {
                        seg.setAtIndex(ValueLayout.JAVA_DOUBLE, i, world.rank() + 1);
                    }
                    MemorySegment out = arena.allocate(8L * n, 8);
                    MemorySegment result = switch (c) {
                        case "distinct native" -> {
                            world.allreduce(Buffer.of(in, dev.tessera.comm.Datatype.DOUBLE),
                                    Buffer.of(out, dev.tessera.comm.Datatype.DOUBLE), Op.SUM);
                            yield out;
                        }
                        case "distinct heap" -> {
                            world.allreduce(Buffer.of(heapIn), Buffer.of(heapOut), Op.SUM);
                            yield MemorySegment.ofArray(heapOut);
                        }
                        case "same slice" -> {
                            world.allreduce(Buffer.of(in, dev.tessera.comm.Datatype.DOUBLE),
                                    Buffer.of(in, dev.tessera.comm.Datatype.DOUBLE), Op.SUM);
                            yield in;
                        }
                        case "shifted slices" -> {
                            world.allreduce(Buffer.of(in, dev.tessera.comm.Datatype.DOUBLE),
                                    Buffer.of(shifted, dev.tessera.comm.Datatype.DOUBLE), Op.SUM);
                            yield shifted;
                        }
                        default -> {
                            world.allreduce(Buffer.of(heapIn), Buffer.of(heapIn), Op.SUM);
                            yield MemorySegment.ofArray(heapIn);
                        }
                    };
                    for (int i = 0; i < n; i++) {
                        double v = result.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
                        if (v != expected) {
                            throw new AssertionError(c + ": element " + i + " is " + v + ", expected " + expected);
                        }
                    }
                    if (c.equals("distinct native") && in.getAtIndex(ValueLayout.JAVA_DOUBLE, 0) != world.rank() + 1) {
                        throw new AssertionError("the send buffer was modified");
                    }
                }
            }
        });
    }

    /**
     * MPI expects MPI_Finalize on the thread that called MPI_Init. A program that never
     * closes its runtime is finalized by the shutdown hook's thread; one that initialises on
     * a thread of its own closes from main. Both jobs must end cleanly: every rank's result
     * printed, exit status 0 (Open MPI fails a job whose processes exit without finalizing).
     */
    @Test
    void finalizeOnAnotherThreadThanInitEndsTheJobCleanly() {
        for (String mode : List.of("hook", "thread")) {
            ProcessJobRunner.Result r = MPI.launchMain(2, FinalizeElsewhere.class.getName(), List.of(mode), Map.of());
            assertEquals(0, r.status(), mode + ": " + r.output());
            for (int rank = 0; rank < 2; rank++) {
                assertTrue(r.output().contains(mode + ": rank " + rank + " of 2, sum 3"), mode + ": " + r.output());
            }
            assertFalse(r.output().contains("\tat "), mode + ", no stack trace: " + r.output());
        }
    }

    /** A rank that finalizes MPI elsewhere than where it initialised it (see the test above). */
    public static final class FinalizeElsewhere {
        public static void main(String[] args) throws InterruptedException {
            if (args[0].equals("hook")) {
                report(args[0], dev.tessera.runtime.Tessera.init(new String[0])); // never closed
                return;
            }
            dev.tessera.runtime.Session[] rt = new dev.tessera.runtime.Session[1];
            Thread init = Thread.ofPlatform().name("initialiser").start(() -> {
                rt[0] = dev.tessera.runtime.Tessera.init(new String[0]);
                report(args[0], rt[0]);
            });
            init.join();
            rt[0].close();
        }

        private static void report(String mode, dev.tessera.runtime.Session rt) {
            Comm world = rt.world();
            int[] sum = new int[1];
            world.allreduce(Buffer.of(new int[] {world.rank() + 1}), Buffer.of(sum), Op.SUM);
            System.out.println(mode + ": rank " + world.rank() + " of " + world.size() + ", sum " + sum[0]);
        }
    }

    /**
     * SIGTERM (what mpirun sends on Ctrl-C) reaching a rank blocked in a native collective:
     * the JVM's shutdown hook closes the device while the main thread is inside
     * MPI_Allreduce. Finalizing under it crashed the JVM (SIGSEGV, an hs_err file); the
     * device must leave MPI alone then, and the job must end.
     */
    @Test
    void sigtermDuringANativeCollectiveEndsTheRankWithoutACrash() {
        ProcessJobRunner.Result r = new MpirunJobRunner(true, Duration.ofSeconds(90)).launch(2, world -> {
            long[] pid = {ProcessHandle.current().pid()};
            if (world.rank() == 0) {
                world.send(Buffer.of(pid), 1, 0);
                world.allreduce(Buffer.of(new double[1]), Buffer.of(new double[1]), Op.SUM); // rank 1 never joins
            } else {
                world.recv(Buffer.of(pid), 0, 0);
                ProcessHandle.of(pid[0]).orElseThrow().destroy();
                world.recv(Buffer.of(pid), 0, 1); // never sent: the launcher ends this rank
            }
        }, List.of(), Map.of());
        assertNotEquals(124, r.status(), r.output());
        assertNotEquals(0, r.status(), r.output());
        assertFalse(r.output().contains("A fatal error has been detected"), r.output());
        assertFalse(r.output().contains("SIGSEGV"), r.output());
    }

    @Test
    void aRankThatThrowsTakesTheJobDownNamingIt() {
        ProcessJobRunner.Result r = MPI.launch(3, world -> {
            if (world.rank() == 1) {
                throw new IllegalStateException("rank one gives up");
            }
            world.recv(Buffer.of(new int[1]), 1, 0);
        }, List.of(), Map.of());
        assertNotEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("rank one gives up"), r.output());
        assertTrue(r.output().contains("rank 1"), r.output());
    }

    @Test
    void nativeSegmentsAndHeapArraysOfEverySizeArriveIntact() {
        MPI.run(2, world -> {
            int[] sizes = {0, 1, 16 * 1024, 16 * 1024 + 1, 3 << 20};
            try (Arena arena = Arena.ofShared()) {
                for (int n : sizes) {
                    MemorySegment seg = arena.allocate(Math.max(8, 8L * n), 8).asSlice(0, 8L * n);
                    long[] heap = new long[n];
                    if (world.rank() == 0) {
                        for (int i = 0; i < n; i++) {
                            seg.setAtIndex(ValueLayout.JAVA_LONG, i, i * 7L);
                            heap[i] = -i;
                        }
                        world.send(Buffer.of(seg, dev.tessera.comm.Datatype.LONG), 1, n);
                        world.ssend(Buffer.of(heap), 1, n);
                    } else {
                        world.recv(Buffer.of(seg, dev.tessera.comm.Datatype.LONG), 0, n);
                        world.recv(Buffer.of(heap), 0, n);
                        for (int i = 0; i < n; i++) {
                            if (seg.getAtIndex(ValueLayout.JAVA_LONG, i) != i * 7L || heap[i] != -i) {
                                throw new AssertionError("size " + n + ": element " + i + " differs");
                            }
                        }
                    }
                }
            }
        });
    }


    /**
     * Small messages whose envelope fits in the MPI tag travel as the payload alone; tags
     * above 2^20 and sizes past the compact limit carry a header. A sender mixing both forms
     * must still be received in send order by ANY_TAG receives, with tags, types and sizes
     * intact, and a type mismatch must still be reported for the compact form.
     */
    @Test
    void compactAndHeaderMessagesFromOneSenderStayInOrder() {
        MPI.run(2, world -> {
            int[] tags = {0, 5, (1 << 20) - 1, 1 << 20, Comm.TAG_UB, 7, 1 << 25, 3};
            int[] sizes = {1, 0, 8, 8, 2000, 8, 200, 1};
            if (world.rank() == 0) {
                for (int k = 0; k < tags.length; k++) {
                    int[] data = new int[sizes[k]];
                    java.util.Arrays.fill(data, k * 1000 + 1);
                    world.send(Buffer.of(data), 1, tags[k]);
                }
                world.send(Buffer.of(new double[] {2.5}), 1, 9);
            } else {
                world.barrier();
                for (int k = 0; k < tags.length; k++) {
                    int[] data = new int[2000];
                    dev.tessera.comm.Status st = world.recv(Buffer.of(data), 0, Comm.ANY_TAG);
                    if (st.tag() != tags[k] || st.count() != sizes[k]) {
                        throw new AssertionError("message " + k + ": tag " + st.tag() + ", count " + st.count()
                                + " (expected tag " + tags[k] + ", count " + sizes[k] + ")");
                    }
                    for (int i = 0; i < sizes[k]; i++) {
                        if (data[i] != k * 1000 + 1) {
                            throw new AssertionError("message " + k + ": element " + i + " is " + data[i]);
                        }
                    }
                }
                TesseraException e = assertThrows(TesseraException.class, () -> world.recv(Buffer.of(new int[2]), 0, 9));
                assertTrue(e.getMessage().contains("DOUBLE"), e.getMessage());
            }
            if (world.rank() == 0) {
                world.barrier();
            }
        });
    }
    @Test
    void missingLibraryIsOneClearLine() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), InitOnly.class.getName())
                .redirectErrorStream(true);
        pb.environment().put("TESSERA_DEVICE", "mpi");
        pb.environment().put("PATH", "/nonexistent");
        pb.environment().remove("TESSERA_MPICC");
        pb.environment().remove("TESSERA_MPI_LIB");
        dev.tessera.conformance.ChildProcesses.Outcome o = dev.tessera.conformance.ChildProcesses.run(pb,
                Duration.ofSeconds(60));
        String out = o.output();
        assertEquals(1, o.status(), out);
        assertTrue(out.contains("mpi device unavailable") && out.contains("mpicc on PATH (not found)"), out);
        assertFalse(out.contains("\tat "), "no stack trace: " + out);
        assertFalse(out.contains("UnsatisfiedLinkError"), out);
    }

    @Test
    void discoveryNamesWhatItLookedFor() {
        TesseraException e = assertThrows(TesseraException.class,
                () -> MpiLibrary.findMpicc(Map.of("PATH", "/nonexistent", "TESSERA_MPI_LIB", "/no/such/libmpi.so")));
        assertTrue(e.getMessage().contains("TESSERA_MPI_LIB=/no/such/libmpi.so does not exist"), e.getMessage());
        e = assertThrows(TesseraException.class, () -> MpiLibrary.findMpicc(Map.of("TESSERA_MPICC", "/no/mpicc")));
        assertTrue(e.getMessage().contains("/no/mpicc"), e.getMessage());
    }

    @Test
    void libraryReportsVersionAndAbi() {
        MpiLibrary lib = MpiLibrary.load();
        assertTrue(lib.libraryVersion().contains("MPI"), lib.libraryVersion());
        assertTrue(lib.abi().startsWith("Open MPI") || lib.abi().startsWith("MPICH"), lib.abi());
        assertTrue(Path.of(lib.libraryFile()).getFileName().toString().startsWith("libmpi"), lib.libraryFile());
    }

    @Test
    void launcherCommandForOpenMpiAndHydra() {
        LaunchSpec spec = new LaunchSpec(4, 2, List.of("a", "b"), 3, "mpi", true, List.of(Path.of("/app")), "Main",
                List.of("x"), List.of(), Duration.ofSeconds(5));
        Map<String, String> vars = new java.util.LinkedHashMap<>(Map.of("TESSERA_DEVICE", "mpi"));
        List<String> ompi = dev.tessera.launch.process.MpiLauncher.command("mpirun", true, spec, vars, 2);
        assertEquals(List.of("mpirun", "-np", "4", "--bind-to", "none", "--host", "a,b", "--npernode", "2",
                "-x", "TESSERA_DEVICE=mpi"), ompi.subList(0, 11));
        assertTrue(ompi.contains("Main") && ompi.getLast().equals("x"), ompi.toString());
        List<String> hydra = dev.tessera.launch.process.MpiLauncher.command("mpiexec", false, spec, vars, 2);
        assertEquals(List.of("mpiexec", "-np", "4", "-hosts", "a,b", "-ppn", "2", "-genv",
                "TESSERA_DEVICE", "mpi"), hydra.subList(0, 10));
    }
}
