package dev.tessera.launch;

import dev.tessera.runtime.internal.RankBootstrap;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * For smp jobs with --tag-output: replaces System.out and System.err by streams that
 * prefix every line with the rank of the thread writing it ("[2] ..."), buffering per
 * thread so lines of different ranks do not interleave mid-line.
 */
public final class RankTaggedOutput extends OutputStream {

    private final PrintStream target;
    /** Fixed prefix of a process rank, or null: the prefix of the writing thread's smp rank. */
    private final String fixedPrefix;
    private final ThreadLocal<ByteArrayOutputStream> line = ThreadLocal.withInitial(ByteArrayOutputStream::new);

    private RankTaggedOutput(PrintStream target, String fixedPrefix) {
        this.target = target;
        this.fixedPrefix = fixedPrefix;
    }

    static void install() {
        System.setOut(new PrintStream(new RankTaggedOutput(System.out, null), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RankTaggedOutput(System.err, null), true, StandardCharsets.UTF_8));
    }

    /** For a process rank (mpi device jobs): whole lines, each prefixed with "[rank] ". */
    public static void installForProcess(String rank) {
        String prefix = "[" + rank + "] ";
        System.setOut(new PrintStream(new RankTaggedOutput(System.out, prefix), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RankTaggedOutput(System.err, prefix), true, StandardCharsets.UTF_8));
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
        RankBootstrap b = fixedPrefix != null ? null : RankBootstrap.current();
        String prefix = fixedPrefix != null ? fixedPrefix : b == null ? "" : "[" + b.device().rank() + "] ";
        synchronized (target) {
            target.print(prefix);
            target.print(buf.toString(StandardCharsets.UTF_8));
        }
        buf.reset();
    }
}
