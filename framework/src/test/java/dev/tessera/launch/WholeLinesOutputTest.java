package dev.tessera.launch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The output filter of process ranks under mpirun (issue #28, item 11): whatever pieces and
 * flushes a program writes, from however many threads, the stream below receives whole lines,
 * each in one write, so mpirun (which forwards each write as it comes) cannot cut a line of
 * one rank with output of another. What is left without a newline is written by drain().
 */
@Timeout(240)
class WholeLinesOutputTest {

    /** Lines per rank and characters per line of the stress run (long lines: several pipe buffers each). */
    static final int LINES = 60;
    static final int LENGTH = 12_000;

    /** Each rank prints LINES lines of LENGTH copies of its own letter, in pieces with a flush after each. */
    public static final class LongLines {
        public static void main(String[] args) {
            try (dev.tessera.runtime.Session s = dev.tessera.runtime.Tessera.init(args)) {
                char letter = (char) ('A' + s.world().rank());
                String piece = String.valueOf(letter).repeat(1000);
                s.world().barrier();
                for (int line = 0; line < LINES; line++) {
                    for (int i = 0; i < LENGTH / 1000; i++) {
                        System.out.print(piece);
                        System.out.flush();
                    }
                    System.out.println();
                }
                System.err.println("rank " + s.world().rank() + " done");
            }
        }
    }

    /** Rank 1 prints a line, then fails: MPI_Abort ends every rank. */
    public static final class FailingRank {
        public static void main(String[] args) {
            try (dev.tessera.runtime.Session s = dev.tessera.runtime.Tessera.init(args)) {
                s.world().barrier();
                if (s.world().rank() == 1) {
                    System.out.println("rank one's last words");
                    throw new IllegalStateException("rank one gives up");
                }
                s.world().barrier();
            }
        }
    }

    /** The launcher's socket and its tagging carry a failing rank's last lines, written just before MPI_Abort. */
    @Test
    void underTesseraRunWithTheMpiDeviceAFailingRanksLastLinesArriveTagged() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun, mpicc) is not installed");
        ProcessBuilder pb = mpiJob("--tag-output", FailingRank.class.getName()).redirectErrorStream(true);
        Process p = pb.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(200, java.util.concurrent.TimeUnit.SECONDS), "the job ended");
            assertTrue(p.exitValue() != 0, out);
            assertTrue(out.lines().anyMatch(l -> l.equals("[1] rank one's last words")), out);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("[1] tessera: rank 1 failed: ") && l.contains("rank one gives up")), out);
            assertTrue(out.lines().anyMatch(l -> l.startsWith("[1] tessera: rank 1: aborting the MPI job: rank 1 failed")), out);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** {@code tessera run -np 4 --device mpi ARGS} in a JVM of its own. */
    private static ProcessBuilder mpiJob(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                TesseraCommand.class.getName(), "run", "-np", "4", "--device", "mpi", "--jvm-opt", "-Xmx256m"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        pb.environment().put("OMPI_MCA_mpi_yield_when_idle", "1");
        return pb;
    }

    /**
     * {@code tessera run --device mpi}: 4 ranks x 60 lines of 12,000 characters, printed in
     * pieces, reach the launcher's output whole (Open MPI's own forwarding cut some of them).
     */
    @Test
    void underTesseraRunWithTheMpiDeviceEveryLineOfEveryRankArrivesWhole() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(dev.tessera.conformance.MpirunJobRunner.available(),
                "Open MPI (mpirun, mpicc) is not installed");
        ProcessBuilder pb = mpiJob(LongLines.class.getName());
        java.nio.file.Path errors = java.nio.file.Files.createTempFile("tessera-whole-lines-", ".err");
        Process p = pb.redirectError(errors.toFile()).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(200, java.util.concurrent.TimeUnit.SECONDS), "the job ended");
            assertEquals(0, p.exitValue(), "job status; standard error:\n" + java.nio.file.Files.readString(errors));
            int[] whole = new int[4];
            List<String> cut = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (line.length() == LENGTH && line.chars().allMatch(c -> c == line.charAt(0)) && line.charAt(0) - 'A' < 4) {
                    whole[line.charAt(0) - 'A']++;
                } else if (line.chars().anyMatch(c -> c >= 'A' && c <= 'D') && line.length() > 100) {
                    cut.add(line.length() + " chars starting " + line.substring(0, 20) + " ending " + line.substring(line.length() - 20));
                }
            }
            assertEquals(List.of(), cut, "cut lines");
            assertArrayEquals(new int[] {LINES, LINES, LINES, LINES}, whole, "whole lines per rank");
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            java.nio.file.Files.deleteIfExists(errors);
        }
    }

    @Test
    void everyWriteBelowIsWholeLinesWhateverTheProgramFlushes() throws Exception {
        List<String> writes = java.util.Collections.synchronizedList(new ArrayList<>());
        OutputStream recorder = new OutputStream() {
            @Override
            public void write(int b) {
                writes.add(String.valueOf((char) b));
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(new String(b, off, len, StandardCharsets.UTF_8));
            }
        };
        PrintStream target = new PrintStream(recorder, false, StandardCharsets.UTF_8);
        RankTaggedOutput filter = RankTaggedOutput.wholeLines(target);
        PrintStream program = new PrintStream(filter, true, StandardCharsets.UTF_8);
        List<Thread> threads = new ArrayList<>();
        for (char letter : new char[] {'A', 'B', 'C'}) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int line = 0; line < 50; line++) {
                    for (int i = 0; i < 300; i++) {
                        program.print(letter);
                        program.flush();
                    }
                    program.println();
                }
                program.print("tail-" + letter);
                program.flush();
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        filter.drain();
        int lines = 0;
        List<String> tails = new ArrayList<>();
        for (String w : writes) {
            if (w.startsWith("tail-")) {
                tails.add(w);
                continue;
            }
            assertTrue(w.length() == 301 && w.endsWith("\n") && w.chars().limit(300).allMatch(c -> c == w.charAt(0)),
                    "a write below that is not one whole line of one thread: '" + w + "'");
            lines++;
        }
        assertEquals(150, lines);
        assertEquals(List.of("tail-A", "tail-B", "tail-C"), tails.stream().sorted().toList());
    }
}
