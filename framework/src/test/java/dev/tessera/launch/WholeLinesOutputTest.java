package dev.tessera.launch;

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
@Timeout(60)
class WholeLinesOutputTest {

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
