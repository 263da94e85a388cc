package dev.tessera.launch;

import dev.tessera.runtime.RankBootstrap;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * For smp jobs with --tag-output: replaces System.out and System.err by streams that
 * prefix every line with the rank of the thread writing it ("[2] ..."), buffering per
 * thread so lines of different ranks do not interleave mid-line.
 */
final class RankTaggedOutput extends OutputStream {

    private final PrintStream target;
    private final ThreadLocal<ByteArrayOutputStream> line = ThreadLocal.withInitial(ByteArrayOutputStream::new);

    private RankTaggedOutput(PrintStream target) {
        this.target = target;
    }

    static void install() {
        System.setOut(new PrintStream(new RankTaggedOutput(System.out), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RankTaggedOutput(System.err), true, StandardCharsets.UTF_8));
    }

    @Override
    public void write(int b) {
        ByteArrayOutputStream buf = line.get();
        buf.write(b);
        if (b == '\n') {
            emit(buf);
        }
    }

    /** Flushes complete lines only: a partial line waits for its newline, so ranks never split each other's lines. */
    @Override
    public void flush() {
        target.flush();
    }

    private void emit(ByteArrayOutputStream buf) {
        RankBootstrap b = RankBootstrap.current();
        String prefix = b == null ? "" : "[" + b.device().rank() + "] ";
        synchronized (target) {
            target.print(prefix);
            target.print(buf.toString(StandardCharsets.UTF_8));
        }
        buf.reset();
    }
}
