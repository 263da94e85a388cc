package dev.tessera.npb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tessera.launch.SmpJob;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The command run per rank: refusals before any work, help, the JSON line and exit statuses. */
@Timeout(120)
class NpbMainTest {

    /** What a job of NpbMain printed and the exit status of every rank. */
    record Outcome(int[] status, String out, String err) {
        int rank0() {
            return status[0];
        }
    }

    static Outcome main(int ranks, String... args) {
        return main(ranks, KernelCatalog::create, args);
    }

    static Outcome main(int ranks, java.util.function.Function<String, NpbKernel> catalog, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        AtomicIntegerArray status = new AtomicIntegerArray(ranks);
        SmpJob.run(ranks, new String[] {"--threads", "1"}, Duration.ofSeconds(100),
                session -> status.set(session.rank(), NpbMain.run(session, List.of(args), o, e, catalog)));
        int[] s = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            s[r] = status.get(r);
        }
        return new Outcome(s, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static void assertOneLineRefusal(Outcome o, String... fragments) {
        for (int s : o.status()) {
            assertEquals(NpbMain.REFUSED, s, "every rank refuses");
        }
        assertEquals("", o.out(), "nothing on stdout: no work started");
        String[] lines = o.err().strip().split("\n");
        assertEquals(1, lines.length, "one line, from rank 0 only: " + o.err());
        for (String f : fragments) {
            assertTrue(lines[0].contains(f), "'" + lines[0] + "' mentions " + f);
        }
    }

    @Test
    void aWrongClassLetterIsRefusedInOneLine() {
        assertOneLineRefusal(main(2, "ep", "--class", "Q"), "EP", "'Q'", "S, W, A, B, C");
        assertOneLineRefusal(main(1, "is", "--class", "AB"), "one letter");
    }

    @Test
    void aRankCountTheReferenceDoesNotAllowIsRefusedInOneLine() {
        assertOneLineRefusal(main(3, "cg", "--class", "S"), "CG", "power of two", "3");
        assertOneLineRefusal(main(3, "is", "--class", "S"), "IS", "power of two", "3");
    }

    @Test
    void anUnknownKernelIsRefusedInOneLine() {
        assertOneLineRefusal(main(1, "xx"), "unknown kernel 'xx'", "ep, is, cg, mg, ft");
        assertOneLineRefusal(main(1, "cg", "--no-such-option"), "--no-such-option");
    }

    @Test
    void aClassThatDoesNotFitInTheHeapIsRefusedBeforeWork() {
        // Four smp ranks of CG class C hold about 1.7 GiB in this JVM; the test JVM has 768 MiB (1 GiB with -Pnpb-full).
        long needed = 4 * new dev.tessera.npb.cg.CgKernel().heapBytesPerRank('C', 4, 1);
        org.junit.jupiter.api.Assumptions.assumeTrue(needed > 0.9 * Runtime.getRuntime().maxMemory(),
                "this JVM's heap holds CG class C on 4 ranks; nothing to refuse");
        long start = System.nanoTime();
        Outcome o = main(4, "cg", "--class", "C");
        assertOneLineRefusal(o, "CG class C needs about", "heap", "-Xmx");
        assertTrue(System.nanoTime() - start < 20_000_000_000L, "refused without generating the matrix");
    }

    /** A kernel whose run finishes but does not verify. */
    static final class UnverifiedKernel implements NpbKernel {
        @Override
        public String name() {
            return "XX";
        }

        @Override
        public void check(char problemClass, int ranks) {
        }

        @Override
        public KernelResult run(dev.tessera.comm.Comm world, dev.tessera.task.Team team, char problemClass) {
            return new KernelResult("XX", problemClass, "100", 1, 0.5, 1.0, "floating point", false, " value 2 (reference 1)");
        }
    }

    @Test
    void aRunThatDoesNotVerifyExitsWithStatus1AndSaysUnsuccessful() {
        Outcome o = main(2, name -> new UnverifiedKernel(), "xx", "--class", "S");
        assertEquals(NpbMain.UNVERIFIED, o.rank0());
        assertTrue(o.out().contains(" Verification    =             UNSUCCESSFUL"), o.out());
        assertTrue(o.out().contains("value 2 (reference 1)"), o.out());
    }

    @Test
    void helpListsTheOptionsAndExitsZero() {
        Outcome o = main(1, "--help");
        assertEquals(NpbMain.OK, o.rank0());
        assertTrue(o.out().contains("--class"), o.out());
        assertTrue(o.out().contains("--json"), o.out());
        assertTrue(o.out().contains("Kernels available in this build: ep, is, cg"), o.out());
        // bin/tessera npb's own options, which the kernel's parser never sees
        for (String option : new String[] {"-np N", "-t, --threads T", "-d, --device D", "--jvm-opt OPT", "--bind-to core|none",
            "--tag-output", "bin/tessera npb cg --class A -np 2"}) {
            assertTrue(o.out().contains(option), option + " in: " + o.out());
        }
    }

    @Test
    void theLaunchOptionsTheHelpListsAreTheOnesBinTesseraNpbTakes() throws java.io.IOException {
        String script = java.nio.file.Files.readString(java.nio.file.Path.of("../../bin/tessera"));
        int from = script.indexOf("if [[ \"${1:-}\" == \"npb\" ]]");
        assertTrue(from >= 0, "bin/tessera has an npb section");
        String section = script.substring(from, script.indexOf("exec ", from));
        for (String pattern : new String[] {"-np|-n|--np)", "-t|--threads)", "-d|--device)", "--jvm-opt|--tag-output|--bind-to)"}) {
            assertTrue(section.contains(pattern), "bin/tessera npb takes " + pattern);
        }
    }

    @Test
    void jsonPrintsOneLineWithTheStableFields() {
        Outcome o = main(2, "is", "--class", "S", "--json");
        assertEquals(NpbMain.OK, o.rank0());
        assertEquals(NpbMain.OK, o.status()[1]);
        String[] lines = o.out().strip().split("\n");
        assertEquals(1, lines.length, "exactly one line on stdout: " + o.out());
        String json = lines[0];
        for (String field : new String[] {"\"name\":\"IS\"", "\"class\":\"S\"", "\"np\":2", "\"threads\":1",
            "\"seconds\":", "\"mops\":", "\"verified\":true", "\"size\":\"65536\"", "\"iterations\":10"}) {
            assertTrue(json.contains(field), json + " has " + field);
        }
        assertTrue(json.startsWith("{") && json.endsWith("}"), json);
    }

    @Test
    void theReportFollowsTheReferenceLayout() {
        Outcome o = main(1, "cg", "--class", "S");
        assertEquals(NpbMain.OK, o.rank0());
        assertTrue(o.out().contains(" CG Benchmark Completed."), o.out());
        assertTrue(o.out().contains(" Verification    =               SUCCESSFUL"), o.out());
        assertTrue(o.out().contains(" Size            =                     1400"), o.out());
        assertTrue(o.out().contains(" Threads/process =                        1"), o.out());
        assertFalse(o.out().contains("UNSUCCESSFUL"), o.out());
    }
}
